// int8 GEMM with an f32 C: four int8 products at a time with __dp4a into
// an int32 sum, converted once at the end (exact up to the f32 rounding of
// the sum). Row-major A (M x K) and B stored N x K (each column of B a row,
// as dp4a wants four consecutive k). Run: --dtype s8 --out f32 --layout B=col
__global__ void igemm_f32out(const signed char *A, const signed char *Bt, float *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    const int *a = (const int *)(A + (size_t)i * K), *b = (const int *)(Bt + (size_t)j * K);
    int sum = 0;
    for (int k = 0; k < K / 4; k++)
        sum = __dp4a(a[k], b[k], sum);
    C[i * N + j] = (float)sum;
}
