// The mistake: a u8 GEMM with an int32 C whose sum is kept in a float. The
// products are exact, but once the sum passes 2^24 (K beyond about 1000
// with u8 values) each add rounds: an exact check fails by about 1e-7,
// consistent with an f32 accumulator (an exact int32 sum was expected).
__global__ void ugemm_f32_acc(const unsigned char *A, const unsigned char *B, int *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += (float)(A[i * K + k] * B[k * N + j]);
    C[i * N + j] = (int)sum;
}
