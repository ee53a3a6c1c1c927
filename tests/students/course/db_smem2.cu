// Double buffering, way 2: two shared-memory stages. Tile t+1 is stored into the other stage while
// tile t is read, so one __syncthreads() per tile is enough: the stage written at step t was last
// read at step t-1, before the barrier that ends it. Any M, N, K.
#define TILE 16

extern "C" __global__ void db_smem2(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    As[0][ty][tx] = (row < M && tx < K) ? A[row * K + tx] : 0.0f;
    Bs[0][ty][tx] = (ty < K && col < N) ? B[ty * N + col] : 0.0f;
    __syncthreads();
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1, nxt = cur ^ 1;
        if (t + 1 < tiles) {
            int ka = (t + 1) * TILE + tx, kb = (t + 1) * TILE + ty;
            As[nxt][ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
            Bs[nxt][ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        }
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
