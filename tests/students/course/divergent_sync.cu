// The bug: __syncthreads() inside a branch that half of each warp takes.
#define TILE 16
extern "C" __global__ void divergent_sync(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; ++t) {
        Bs[ty][tx] = B[(t * TILE + ty) * N + col];
        if (tx < 8)
            __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += A[row * K + t * TILE + k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * N + col] = acc;
}
