// tiled_padded: tiled_conflict with the A tile padded by one column (As[32][33]). Lane r's
// As[r][k] now sits at word 33r + k, bank (r + k) mod 32: the 32 lanes hit 32 different banks
// and the inner loop's A read is one wavefront instead of 32. Everything else is as in
// tiled_conflict (loads, barriers, C stored down a column). Effect: the bank conflict gone.
// M, N and K must be multiples of 32. Grid: N/32 x M/32.
#define T 32
extern "C" __global__ void heldout_tiled_padded(int M, int N, int K, float alpha, const float *A,
                                                const float *B, float beta, float *C)
{
	__shared__ float As[T][T + 1]; /* the padding column: row r starts in bank r */
	__shared__ float Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		As[ty][tx] = A[(row0 + ty) * K + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * N + col0 + tx];
		__syncthreads();
		/* this thread's output: row tx, column ty of the tile */
		for (int k = 0; k < T; k++)
			acc += As[tx][k] * Bs[k][ty];
		__syncthreads();
	}
	int i = (row0 + tx) * N + col0 + ty;
	C[i] = alpha * acc + beta * C[i];
}
