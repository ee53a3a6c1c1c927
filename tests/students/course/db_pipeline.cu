// Double buffering, way 3a: cp.async through the __pipeline intrinsics (sm_80). Tile t+1 is copied
// into the other stage without passing through registers while tile t is computed; wait_prior(1)
// waits for all but the last committed batch, i.e. for tile t. Elements past the edge are stored as
// zeros by hand. Any M, N, K.
#include <cuda_pipeline.h>
#define TILE 16

__device__ void load_tile(float (*As)[TILE], float (*Bs)[TILE], const float *A, const float *B, int M, int N,
                          int K, int row, int col, int t)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int ka = t * TILE + tx, kb = t * TILE + ty;
    if (row < M && ka < K)
        __pipeline_memcpy_async(&As[ty][tx], &A[row * K + ka], sizeof(float));
    else
        As[ty][tx] = 0.0f;
    if (kb < K && col < N)
        __pipeline_memcpy_async(&Bs[ty][tx], &B[kb * N + col], sizeof(float));
    else
        Bs[ty][tx] = 0.0f;
}

extern "C" __global__ void db_pipeline(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    load_tile(As[0], Bs[0], A, B, M, N, K, row, col, 0);
    __pipeline_commit();
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1;
        if (t + 1 < tiles)
            load_tile(As[cur ^ 1], Bs[cur ^ 1], A, B, M, N, K, row, col, t + 1);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
