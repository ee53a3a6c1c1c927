// spill: 4 outputs per thread (rows r, r + 8, r + 16, r + 24 of a 32-row strip, one column) kept
// in an array that the k loop indexes with (j + k) & 3: an index the compiler cannot resolve, so
// the array lives in local memory (.local, ld.local/st.local for every update), the PTX-level
// stand-in for a ptxas register spill (which -maxrregcount makes in SASS, not in PTX). The k
// loop is not unrolled (#pragma unroll 1) so that no unrolling could make the index constant.
// Effect: local-memory traffic (4 loads and 4 stores a k step, each a 128-byte L1 wavefront)
// beside 4 broadcast A loads and one coalesced B load. (4 outputs, not 8: with 8 the stall model
// took 11 s at 4096, past its 5 s.)
// M and N must be multiples of 32. Block 32x8; grid N/32 x M/32.
extern "C" __global__ void heldout_spill(int M, int N, int K, float alpha, const float *A,
                                         const float *B, float beta, float *C)
{
	float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	int col = blockIdx.x * 32 + threadIdx.x;
	int row0 = blockIdx.y * 32 + threadIdx.y; /* acc[i] is row row0 + 8i */
#pragma unroll 1
	for (int k = 0; k < K; k++) {
		float b = B[k * N + col];
#pragma unroll
		for (int j = 0; j < 4; j++) {
			int i = (j + k) & 3;
			acc[i] += A[(row0 + 8 * i) * K + k] * b;
		}
	}
	for (int i = 0; i < 4; i++) {
		int c = (row0 + 8 * i) * N + col;
		C[c] = alpha * acc[i] + beta * C[c];
	}
}
