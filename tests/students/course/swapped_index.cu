// The bug: B indexed as if it were stored column-major (B[col * K + k]): every address is in
// bounds, every value wrong.
extern "C" __global__ void swapped_index(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[col * K + k];
        C[row * N + col] = acc;
    }
}
