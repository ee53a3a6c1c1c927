// A naive SGEMM the way a cuBLAS user writes it: every matrix column-major,
// C(i,j) = sum_k A(i,k) B(k,j) with element (r,c) of X at X[r + c*ldx].
// Run: --layout col --args 'M N K A ld:A B ld:B C ld:C'
__global__ void sgemm_colmajor(int M, int N, int K, const float *A, int lda, const float *B, int ldb, float *C,
                               int ldc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; // a row of C: consecutive threads, consecutive addresses
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[i + k * lda] * B[k + j * ldb];
    C[i + j * ldc] = sum;
}
