// low_occ: 2D register blocking (a 64x64 tile of C a block, 8x8 outputs a thread, k steps of 8
// through shared memory) with only 64 threads a block, launched with 120000 bytes of dynamic
// shared memory (--smem) of which it uses 4 KiB: two such blocks do not fit the H100's 228 KiB
// an SM, so each SM holds one block, 2 warps of its 64, and two of its four schedulers idle.
// Effect: low occupancy (3%); each warp has 64 independent FMAs a k step to hide latency with,
// but nothing else on the SM covers its loads and barriers.
// M and N must be multiples of 64, K of 8. Block 64; grid N/64 x M/64; --smem 120000.
#define BM 64
#define BK 8
extern "C" __global__ void heldout_low_occ(int M, int N, int K, float alpha, const float *A,
                                           const float *B, float beta, float *C)
{
	extern __shared__ float sm[];
	float *As = sm;           /* [BK][BM]: the A tile transposed */
	float *Bs = sm + BK * BM; /* [BK][BM] */
	int t = threadIdx.x, ty = t / 8, tx = t % 8;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
	float acc[8][8] = {};
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int i = 0; i < BK; i++) {
			As[i * BM + t] = A[(row0 + t) * K + k0 + i];
			Bs[i * BM + t] = B[(k0 + i) * N + col0 + t];
		}
		__syncthreads();
		for (int k = 0; k < BK; k++) {
			float a[8], b[8];
			for (int i = 0; i < 8; i++) {
				a[i] = As[k * BM + ty + 8 * i];
				b[i] = Bs[k * BM + tx + 8 * i];
			}
			for (int i = 0; i < 8; i++)
				for (int j = 0; j < 8; j++)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			int c = (row0 + ty + 8 * i) * N + col0 + tx + 8 * j;
			C[c] = alpha * acc[i][j] + beta * C[c];
		}
}
