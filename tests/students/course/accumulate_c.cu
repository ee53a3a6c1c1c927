// The bug: C += A*B into a C that was never zeroed. The caller's C holds whatever was there (ptxtutor
// fills it with NaN unless the launch passes beta), so every element comes out wrong.
extern "C" __global__ void accumulate_c(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N)
        for (int k = 0; k < K; ++k)
            C[row * N + col] += A[row * K + k] * B[k * N + col];
}
