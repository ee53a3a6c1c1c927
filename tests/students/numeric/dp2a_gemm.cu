// A student's int8 GEMM with __dp2a_lo/__dp2a_hi: two k of A (widened to 16 bits) against two bytes of B.
#include <stdint.h>
extern "C" __global__ void dp2a_gemm(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        int acc = 0;
        for (int k = 0; k < K; k += 4) {
            const int8_t *a = &A[row * K + k];
            int lo = (a[0] & 0xffff) | (a[1] << 16);
            int hi = (a[2] & 0xffff) | (a[3] << 16);
            int b = (B[k * N + col] & 0xff) | (B[(k + 1) * N + col] & 0xff) << 8 |
                    (B[(k + 2) * N + col] & 0xff) << 16 | (B[(k + 3) * N + col] & 0xff) << 24;
            acc = __dp2a_lo(lo, b, acc);
            acc = __dp2a_hi(hi, b, acc);
        }
        C[row * N + col] = acc;
    }
}
