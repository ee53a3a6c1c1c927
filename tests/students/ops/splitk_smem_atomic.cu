// Split-K twice: the two z-halves of a 16 x 16 x 2 block each sum half of the block's slice of K and
// add it into a shared tile with atomicAdd (atom.shared.add.f32: two warps on the same words, which is
// no race); after __syncthreads the z = 0 half adds the tile into C with atomicAdd (atom.global.add.f32),
// gridDim.z blocks adding to each element. Run with beta 1: C = alpha*A*B + C0.
extern "C" __global__ void splitk_smem_atomic(int M, int N, int K, float alpha, const float *A, const float *B,
                                              float beta, float *C)
{
    __shared__ float tile[16][16];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    if (tz == 0)
        tile[ty][tx] = 0.0f;
    __syncthreads();
    int slice = (K + gridDim.z - 1) / gridDim.z;
    int k0 = blockIdx.z * slice, k1 = min(K, k0 + slice);
    int half = (k1 - k0 + 1) / 2;
    int a = k0 + tz * half, b = tz ? k1 : min(k1, k0 + half);
    float acc = 0.0f;
    if (row < M && col < N)
        for (int k = a; k < b; ++k)
            acc += A[row * K + k] * B[k * N + col];
    atomicAdd(&tile[ty][tx], acc);
    __syncthreads();
    if (tz == 0 && row < M && col < N)
        atomicAdd(&C[row * N + col], alpha * tile[ty][tx]);
}
