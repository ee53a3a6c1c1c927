// spill: 8 outputs per thread (rows r, r + 8, ..., r + 56 of a 64-row strip, one column) kept in
// an array that the k loop indexes with (j + k) & 7: an index the compiler cannot resolve, so
// the array lives in local memory (.local, ld.local/st.local for every update), the PTX-level
// stand-in for a ptxas register spill (which -maxrregcount makes in SASS, not in PTX). The k
// loop is not unrolled (#pragma unroll 1) so that no unrolling could make the index constant.
// Effect: local-memory traffic (8 loads and 8 stores a k step, each a 128-byte L1 wavefront)
// beside 8 broadcast A loads and one coalesced B load.
// M a multiple of 64, N of 32. Block 32x8; grid N/32 x M/64.
extern "C" __global__ void heldout_spill(int M, int N, int K, float alpha, const float *A,
                                         const float *B, float beta, float *C)
{
	float acc[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
	int col = blockIdx.x * 32 + threadIdx.x;
	int row0 = blockIdx.y * 64 + threadIdx.y; /* acc[i] is row row0 + 8i */
#pragma unroll 1
	for (int k = 0; k < K; k++) {
		float b = B[k * N + col];
#pragma unroll
		for (int j = 0; j < 8; j++) {
			int i = (j + k) & 7;
			acc[i] += A[(row0 + 8 * i) * K + k] * b;
		}
	}
	for (int i = 0; i < 8; i++) {
		int c = (row0 + 8 * i) * N + col;
		C[c] = alpha * acc[i] + beta * C[c];
	}
}
