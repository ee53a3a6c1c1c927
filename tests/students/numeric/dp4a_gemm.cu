// A student's int8 GEMM: C (s32) = A (s8, M x K row-major) * B (s8, K x N row-major), four k at a time with __dp4a.
#include <stdint.h>
extern "C" __global__ void dp4a_gemm(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        int acc = 0;
        for (int k = 0; k < K; k += 4) {
            int a = *reinterpret_cast<const int *>(&A[row * K + k]);
            int b = (B[k * N + col] & 0xff) | (B[(k + 1) * N + col] & 0xff) << 8 |
                    (B[(k + 2) * N + col] & 0xff) << 16 | (B[(k + 3) * N + col] & 0xff) << 24;
            acc = __dp4a(a, b, acc);
        }
        C[row * N + col] = acc;
    }
}
