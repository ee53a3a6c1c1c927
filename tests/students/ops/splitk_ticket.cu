// Split-K in a fixed order, through __device__ memory: gridDim.z blocks each sum their slice of K for a
// 16 x 16 tile of C into their own slot of a module-level workspace, make the slot visible
// (__threadfence), and take a ticket from a module-level counter; the block that draws the last ticket
// adds the slots in slice order (the same sum whoever is last: no atomics on the values) and writes C,
// then puts the counter back to 0 for the next launch. Run with beta 0.5: C = alpha*A*B + beta*C0.
// Built with -DNO_RESET (splitk_ticket_noreset.sm80.ptx) it has the bug of forgetting that: the first
// launch is right; on a GPU every later one finds the tickets past gridDim.z - 1 and no block writes C
// (`run` verifies a launch after its timing and says so). The emulator zeroes __device__ memory at
// each launch.
#define MAX_TILES 64  // 16 x 16 tiles of C: up to 128 x 128
#define MAX_SPLIT 4

__device__ float workspace[MAX_SPLIT][MAX_TILES][16 * 16];
__device__ unsigned int tickets[MAX_TILES];

extern "C" __global__ void splitk_ticket(int M, int N, int K, float alpha, const float *A, const float *B,
                                         float beta, float *C)
{
    __shared__ bool last;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    int tile = blockIdx.y * gridDim.x + blockIdx.x, me = ty * 16 + tx;
    int slice = (K + gridDim.z - 1) / gridDim.z;
    int k0 = blockIdx.z * slice, k1 = min(K, k0 + slice);
    float acc = 0.0f;
    if (row < M && col < N)
        for (int k = k0; k < k1; ++k)
            acc += A[row * K + k] * B[k * N + col];
    workspace[blockIdx.z][tile][me] = acc;
    __threadfence();
    __syncthreads();
    if (me == 0)
        last = atomicAdd(&tickets[tile], 1) == gridDim.z - 1;
    __syncthreads();
    if (!last)
        return;
    float sum = 0.0f;
    for (int z = 0; z < gridDim.z; ++z)
        sum += __ldcg(&workspace[z][tile][me]);
    if (row < M && col < N)
        C[row * N + col] = alpha * sum + beta * C[row * N + col];
#ifndef NO_RESET
    if (me == 0)
        tickets[tile] = 0;
#endif
}
