// shfl_bcast: register tiling without shared memory for A. A warp computes 8 rows x 128 columns
// of C (8 x 4 outputs a lane, columns lane + 32j). Per 32 k steps each lane loads one A value of
// each of its warp's 8 rows (A[row][k0 + lane]: coalesced) and keeps them in registers; for
// step k every lane takes row r's value from lane k with __shfl_sync (8 shuffles), loads its 4 B
// values (coalesced, from L1/L2) and does 32 FMAs. Effect: warp-shuffle broadcast (SHFL on the
// MIO pipe, 8 a k step beside 32 FMAs and 4 global loads) in place of shared-memory tiles.
// M must be a multiple of 32, N of 128, K of 32. Block 128 (4 warps, 32 rows); grid N/128 x M/32.
extern "C" __global__ void heldout_shfl_bcast(int M, int N, int K, float alpha, const float *A,
                                              const float *B, float beta, float *C)
{
	int lane = threadIdx.x % 32;
	int row0 = blockIdx.y * 32 + (threadIdx.x / 32) * 8;
	int col = blockIdx.x * 128 + lane;
	float acc[8][4] = {};
	for (int k0 = 0; k0 < K; k0 += 32) {
		float areg[8];
#pragma unroll
		for (int r = 0; r < 8; r++)
			areg[r] = A[(row0 + r) * K + k0 + lane];
#pragma unroll 4
		for (int k = 0; k < 32; k++) {
			const float *b = B + (k0 + k) * N + col;
			float bv[4] = {b[0], b[32], b[64], b[96]};
#pragma unroll
			for (int r = 0; r < 8; r++) {
				float a = __shfl_sync(0xffffffffu, areg[r], k);
#pragma unroll
				for (int j = 0; j < 4; j++)
					acc[r][j] += a * bv[j];
			}
		}
	}
#pragma unroll
	for (int r = 0; r < 8; r++)
#pragma unroll
		for (int j = 0; j < 4; j++) {
			int c = (row0 + r) * N + col + 32 * j;
			C[c] = alpha * acc[r][j] + beta * C[c];
		}
}
