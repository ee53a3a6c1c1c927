// Row-major SGEMM with leading dimensions: rows of A, B and C are lda, ldb,
// ldc elements apart (padded to a multiple of 4 here, as an aligned
// allocation would). Run: --ld A=K+4,B=N+4,C=N+4 --args 'M N K A ld:A B ld:B C ld:C'
__global__ void sgemm_padded(int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C, int ldc)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[i * lda + k] * B[k * ldb + j];
    C[i * ldc + j] = sum;
}
