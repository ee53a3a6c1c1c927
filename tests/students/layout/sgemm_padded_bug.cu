// The bug: C indexed with its width N instead of its leading dimension ldc.
// With a padded C every row but the first lands in the wrong place: rows
// 1..M-1 are never written where they belong (and the padding is).
__global__ void sgemm_padded_bug(int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C,
                                 int ldc)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[i * lda + k] * B[k * ldb + j];
    C[i * N + j] = sum; // should be i * ldc + j
}
