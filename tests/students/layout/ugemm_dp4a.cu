// uint8 GEMM with __dp4a on unsigned words (dp4a.u32.u32), C int32: for
// u8 inputs the unsigned form is the right one. Row-major A, B stored
// N x K. Run: --dtype u8 --layout B=col (C s32, checked on the CPU: cuBLAS
// has no u8 GEMM)
__global__ void ugemm_dp4a(const unsigned char *A, const unsigned char *Bt, int *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    const unsigned *a = (const unsigned *)(A + (size_t)i * K), *b = (const unsigned *)(Bt + (size_t)j * K);
    unsigned sum = 0;
    for (int k = 0; k < K / 4; k++)
        sum = __dp4a(a[k], b[k], sum);
    C[i * N + j] = (int)sum;
}
