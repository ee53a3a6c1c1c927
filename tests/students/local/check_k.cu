// A student checks K before the loop, printing what it found first: K = 30 is not a multiple of 16.
#include <cassert>
#include <cstdio>
extern "C" __global__ void gemm_check_k(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        printf("block (%d,%d): K = %d, K %% 16 = %d\n", blockIdx.x, blockIdx.y, K, K % 16);
    assert(K % 16 == 0);
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
