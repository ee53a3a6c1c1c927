// Double buffering, way 3c: cuda::memcpy_async through a per-thread cuda::pipeline of two stages
// (libcu++, sm_80: cp.async underneath). producer_acquire / commit for tile t+1, consumer_wait /
// release for tile t. Elements past the edge are stored as zeros by hand. Any M, N, K.
#include <cuda/pipeline>
#define TILE 16

extern "C" __global__ void db_memcpy_async(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    for (int t = 0; t < 2 && t < tiles; ++t) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        pipe.producer_acquire();
        if (row < M && ka < K)
            cuda::memcpy_async(&As[t][ty][tx], &A[row * K + ka], sizeof(float), pipe);
        else
            As[t][ty][tx] = 0.0f;
        if (kb < K && col < N)
            cuda::memcpy_async(&Bs[t][ty][tx], &B[kb * N + col], sizeof(float), pipe);
        else
            Bs[t][ty][tx] = 0.0f;
        pipe.producer_commit();
    }
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1;
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
        pipe.consumer_release();
        if (t + 2 < tiles) {
            int ka = (t + 2) * TILE + tx, kb = (t + 2) * TILE + ty;
            pipe.producer_acquire();
            if (row < M && ka < K)
                cuda::memcpy_async(&As[cur][ty][tx], &A[row * K + ka], sizeof(float), pipe);
            else
                As[cur][ty][tx] = 0.0f;
            if (kb < K && col < N)
                cuda::memcpy_async(&Bs[cur][ty][tx], &B[kb * N + col], sizeof(float), pipe);
            else
                Bs[cur][ty][tx] = 0.0f;
            pipe.producer_commit();
        }
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
