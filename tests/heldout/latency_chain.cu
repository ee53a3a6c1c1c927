// latency_chain: few warps, each a long chain of dependent steps. The grid is fixed at 132
// blocks of 64 threads (one block, 2 warps, an SM on the H100's 132 SMs: 3% occupancy); each warp walks
// strips of C (one row, 128 columns, 4 a lane) one after another, and for a strip a k loop that
// is not unrolled (#pragma unroll 1): each step loads A[row][k] and four B values, and its FMAs
// wait for those loads before the next step's loads can issue. Effect: latency-bound; nothing
// overlaps one step's memory latency but the four loads of the step itself.
// N must be a multiple of 128. Block 64; grid 132.
extern "C" __global__ void heldout_latency_chain(int M, int N, int K, float alpha, const float *A,
                                                 const float *B, float beta, float *C)
{
	int lane = threadIdx.x % 32;
	int warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
	int nwarps = gridDim.x * (blockDim.x / 32);
	int strips = M * (N / 128);
	for (int s = warp; s < strips; s += nwarps) {
		int row = s / (N / 128), col = (s % (N / 128)) * 128 + lane;
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
}
