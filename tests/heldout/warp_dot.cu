// warp_dot: one warp per element of C. Lane l sums A[row][k] * B[k][col] over k = l, l + 32, ...
// (A's row read coalesced, B's column one sector per lane: 32 sectors a request), then a
// __shfl_down_sync tree (offsets 16, 8, 4, 2, 1) folds the 32 partial sums into lane 0, which
// writes C = alpha*sum + beta*C. Effect: warp-shuffle reduction; each warp walks K/32 steps of
// two dependent loads and an FMA with little else to issue (the issue measured such a kernel at
// 1051 ms at 4096^3 on the H100): latency- and sector-bound, not FMA-bound.
// Any M, N, K. Block 256 (8 warps: 8 columns of one row); grid ceil(N/8) x M.
extern "C" __global__ void heldout_warp_dot(int M, int N, int K, float alpha, const float *A,
                                            const float *B, float beta, float *C)
{
	int lane = threadIdx.x % 32;
	int row = blockIdx.y;
	int col = blockIdx.x * 8 + threadIdx.x / 32;
	if (row >= M || col >= N) /* the whole warp leaves together: the shuffles below see 32 lanes */
		return;
	float sum = 0.0f;
	for (int k = lane; k < K; k += 32)
		sum += A[row * K + k] * B[k * N + col];
	for (int off = 16; off > 0; off /= 2)
		sum += __shfl_down_sync(0xffffffffu, sum, off);
	if (lane == 0)
		C[row * N + col] = alpha * sum + beta * C[row * N + col];
}
