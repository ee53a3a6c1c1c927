// A common int8 bug: the packed bytes held in unsigned ints pick __dp4a's unsigned overload
// (dp4a.u32.u32), so a negative int8 counts as 256 + it. Fails the check with wrong values.
#include <stdint.h>
extern "C" __global__ void dp4a_unsigned_bug(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        unsigned acc = 0;
        for (int k = 0; k < K; k += 4) {
            unsigned a = *reinterpret_cast<const unsigned *>(&A[row * K + k]);
            unsigned b = (B[k * N + col] & 0xffu) | (B[(k + 1) * N + col] & 0xffu) << 8 |
                         (B[(k + 2) * N + col] & 0xffu) << 16 | (B[(k + 3) * N + col] & 0xffu) << 24;
            acc = __dp4a(a, b, acc);
        }
        C[row * N + col] = (int32_t)acc;
    }
}
