// colwalk: transposed access. Each thread owns one column of C and 8 consecutive rows of it,
// and builds them as outer products: for every k it reads one element of B (lanes along
// columns: coalesced) and then walks A DOWN COLUMN k, 8 rows at a stride of K floats. The 32
// lanes of a warp read the same A address (a broadcast, one sector per request), so A costs
// 8 load instructions per 8 FMAs, served from L1, with no shared memory. Effect: a
// load-instruction-bound kernel whose A reads run against the row-major layout.
// Any M, N, K (bounds checked). Block 128; grid ceil(N/128) x ceil(M/8).
#define ROWS 8
extern "C" __global__ void heldout_colwalk(int M, int N, int K, float alpha, const float *A,
                                           const float *B, float beta, float *C)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row0 = blockIdx.y * ROWS;
	if (col >= N)
		return;
	float acc[ROWS];
	for (int i = 0; i < ROWS; i++)
		acc[i] = 0.0f;
	for (int k = 0; k < K; k++) {
		float b = B[k * N + col];
		const float *a = A + row0 * K + k; /* the top of column k of this block's rows */
#pragma unroll
		for (int i = 0; i < ROWS; i++)
			if (row0 + i < M)
				acc[i] += a[i * K] * b;
	}
	for (int i = 0; i < ROWS; i++)
		if (row0 + i < M)
			C[(row0 + i) * N + col] = alpha * acc[i] + beta * C[(row0 + i) * N + col];
}
