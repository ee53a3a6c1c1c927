// Double buffering, way 3b: cp.async written as inline PTX, as the course's lesson does: one
// cp.async.ca per element with a source size of 0 past the edge (the copy writes zeros),
// cp.async.commit_group after each tile, cp.async.wait_group 1 before computing. Any M, N, K.
#define TILE 16

__device__ __forceinline__ void cp_async4(float *smem, const float *gmem, bool in_range)
{
    unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    int src_size = in_range ? 4 : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(src_size));
}

extern "C" __global__ void db_cpasync_asm(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int tiles = (K + TILE - 1) / TILE;
    // a source past the edge is never read (size 0), but its address must still be valid: A and B
    bool a_in = row < M && tx < K, b_in = ty < K && col < N;
    cp_async4(&As[0][ty][tx], a_in ? &A[row * K + tx] : A, a_in);
    cp_async4(&Bs[0][ty][tx], b_in ? &B[ty * N + col] : B, b_in);
    asm volatile("cp.async.commit_group;\n" ::);
    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1, nxt = cur ^ 1;
        if (t + 1 < tiles) {
            int ka = (t + 1) * TILE + tx, kb = (t + 1) * TILE + ty;
            a_in = row < M && ka < K;
            b_in = kb < K && col < N;
            cp_async4(&As[nxt][ty][tx], a_in ? &A[row * K + ka] : A, a_in);
            cp_async4(&Bs[nxt][ty][tx], b_in ? &B[kb * N + col] : B, b_in);
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 1;\n" ::);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[cur][ty][k] * Bs[cur][k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
