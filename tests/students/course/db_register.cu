// Double buffering, way 1: register prefetch. While the block computes on the tile in shared
// memory, each thread has already loaded its elements of the next tile into registers; after the
// barrier it stores them, so the global latency hides behind the arithmetic. Any M, N, K.
#define TILE 16

extern "C" __global__ void db_register(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    float a = (row < M && tx < K) ? A[row * K + tx] : 0.0f;
    float b = (ty < K && col < N) ? B[ty * N + col] : 0.0f;
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        As[ty][tx] = a;
        Bs[ty][tx] = b;
        __syncthreads();
        if (t + 1 < tiles) {
            int ka = (t + 1) * TILE + tx, kb = (t + 1) * TILE + ty;
            a = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
            b = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        }
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
