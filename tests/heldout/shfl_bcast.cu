// shfl_bcast: register tiling without shared memory for A. A warp computes 16 rows x 64 columns
// of C (16 x 2 outputs a lane, columns lane and lane + 32). Per 32 k steps each lane loads one A
// value of each of its warp's 16 rows (A[row][k0 + lane]: coalesced) and keeps them in
// registers; for step k every lane takes row r's value from lane k with __shfl_sync (16
// shuffles), loads its 2 B values (coalesced, from L1/L2) and does 32 FMAs. Effect: warp-shuffle
// broadcast (SHFL on the MIO pipe, one a two FMAs) in place of shared-memory tiles.
// M and N must be multiples of 64, K of 32. Block 128 (4 warps, 64 rows); grid N/64 x M/64.
extern "C" __global__ void heldout_shfl_bcast(int M, int N, int K, float alpha, const float *A,
                                              const float *B, float beta, float *C)
{
	int lane = threadIdx.x % 32;
	int row0 = blockIdx.y * 64 + (threadIdx.x / 32) * 16;
	int col = blockIdx.x * 64 + lane;
	float acc[16][2] = {};
	for (int k0 = 0; k0 < K; k0 += 32) {
		float areg[16];
#pragma unroll
		for (int r = 0; r < 16; r++)
			areg[r] = A[(row0 + r) * K + k0 + lane];
#pragma unroll 4
		for (int k = 0; k < 32; k++) {
			const float *b = B + (k0 + k) * N + col;
			float b0 = b[0], b1 = b[32];
#pragma unroll
			for (int r = 0; r < 16; r++) {
				float a = __shfl_sync(0xffffffffu, areg[r], k);
				acc[r][0] += a * b0;
				acc[r][1] += a * b1;
			}
		}
	}
#pragma unroll
	for (int r = 0; r < 16; r++) {
		int c = (row0 + r) * N + col;
		C[c] = alpha * acc[r][0] + beta * C[c];
		C[c + 32] = alpha * acc[r][1] + beta * C[c + 32];
	}
}
