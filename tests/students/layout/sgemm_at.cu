// C = A^T B with A stored K x M row-major, as a kernel that multiplies a
// transposed operand reads it: that is A (M x K) column-major. B and C are
// row-major. Run: --layout A=col --args 'A B C M N K'
__global__ void sgemm_at(const float *At, const float *B, float *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += At[k * M + i] * B[k * N + j]; // At is K x M: row k, column i
    C[i * N + j] = sum;
}
