// The bug: a divergent __syncthreads(). The thread past the edge of C returns early, so at a size
// that is not a multiple of 16 the others of its block wait at a barrier it never reaches.
#define TILE 16

extern "C" __global__ void early_return(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = ka < K ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
