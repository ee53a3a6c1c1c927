// A naive GEMM whose first row prints what it computed.
#include <cstdio>
extern "C" __global__ void gemm_printf(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
        if (row == 0 && col < 2)
            printf("row %d col %u acc %f hex %x s=%s c=%c ll=%lld\n", row, col, acc, 255, "hi", 'z', -5LL);
    }
}
