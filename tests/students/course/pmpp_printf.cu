// Debugging the PMPP tiles the way students do: thread (0,0) of block (0,0) prints each tile's first
// elements and the last tile's partial sum, in a -G debug build (pmpp_printf_G.sm80.ptx). Any M, N, K.
#include <cstdio>
#define TILE 16

extern "C" __global__ void pmpp_printf(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    bool first = blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0;
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
        if (first)
            printf("tile %d of %d: As[0][0] = %.3f, Bs[0][0] = %.3f\n", t, tiles, As[0][0], Bs[0][0]);
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (first)
        printf("C[0][0] = %f\n", acc);
    if (row < M && col < N)
        C[row * N + col] = acc;
}
