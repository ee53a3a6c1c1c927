// latency_chain: few warps, each a chain of dependent steps. Blocks of 64 threads launched with
// 120000 bytes of dynamic shared memory (--smem; unused) so that one block, 2 warps, fits an SM
// of the H100 (3% occupancy). A warp computes 2 rows x 64 columns of C (2 x 2 a lane) with a
// k loop that is not unrolled (#pragma unroll 1): each step loads two A values and two B values,
// and its four FMAs wait for those loads before the next step's loads can issue. Effect:
// latency-bound; nothing overlaps one step's memory latency but the four loads of the step
// itself (low_occ, as few warps, has 64 independent FMAs a step and shared-memory tiles).
// M must be a multiple of 4, N of 64. Block 64; grid N/64 x M/4; --smem 120000.
extern "C" __global__ void heldout_latency_chain(int M, int N, int K, float alpha, const float *A,
                                                 const float *B, float beta, float *C)
{
	int row = blockIdx.y * 4 + (threadIdx.x / 32) * 2; /* and row + 1 */
	int col = blockIdx.x * 64 + threadIdx.x % 32;      /* and col + 32 */
	float acc00 = 0.0f, acc01 = 0.0f, acc10 = 0.0f, acc11 = 0.0f;
#pragma unroll 1
	for (int k = 0; k < K; k++) {
		float a0 = A[row * K + k], a1 = A[(row + 1) * K + k];
		float b0 = B[k * N + col], b1 = B[k * N + col + 32];
		acc00 += a0 * b0;
		acc01 += a0 * b1;
		acc10 += a1 * b0;
		acc11 += a1 * b1;
	}
	float *c = C + row * N + col;
	c[0] = alpha * acc00 + beta * c[0];
	c[32] = alpha * acc01 + beta * c[32];
	c[N] = alpha * acc10 + beta * c[N];
	c[N + 32] = alpha * acc11 + beta * c[N + 32];
}
