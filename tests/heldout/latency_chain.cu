// latency_chain: few warps, each a chain of dependent steps. Blocks of 64 threads launched with
// 120000 bytes of dynamic shared memory (--smem; unused) so that one block, 2 warps, fits an SM
// of the H100 (3% occupancy). A warp computes one strip of C (one row, 128 columns, 4 a lane)
// with a k loop that is not unrolled (#pragma unroll 1): each step loads A[row][k] and four B
// values, and its FMAs wait for those loads before the next step's loads can issue. Effect:
// latency-bound; nothing overlaps one step's memory latency but the four loads of the step
// itself (low_occ, as few warps, has 64 independent FMAs a step and shared-memory tiles).
// M must be a multiple of 2, N of 128. Block 64; grid N/128 x M/2; --smem 120000.
extern "C" __global__ void heldout_latency_chain(int M, int N, int K, float alpha, const float *A,
                                                 const float *B, float beta, float *C)
{
	int lane = threadIdx.x % 32;
	int row = blockIdx.y * 2 + threadIdx.x / 32;
	int col = blockIdx.x * 128 + lane;
	float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
#pragma unroll 1
	for (int k = 0; k < K; k++) {
		float a = A[row * K + k];
		const float *b = B + k * N + col;
		acc0 += a * b[0];
		acc1 += a * b[32];
		acc2 += a * b[64];
		acc3 += a * b[96];
	}
	float *c = C + row * N + col;
	c[0] = alpha * acc0 + beta * c[0];
	c[32] = alpha * acc1 + beta * c[32];
	c[64] = alpha * acc2 + beta * c[64];
	c[96] = alpha * acc3 + beta * c[96];
}
