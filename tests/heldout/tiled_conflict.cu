// tiled_conflict: shared-memory tiling, 32x32 tiles of A and B, 32x32 threads. The tiles are
// loaded coalesced (lanes along a row of each), but in the multiply the lanes of a warp walk
// the ROWS of the C tile: lane r reads As[r][k], 32 words apart, every lane in the same bank:
// a 32-way bank conflict on every A read of the inner loop (Bs[k][c] is a broadcast). C is
// stored down a column. Effect: shared-memory bank conflicts; tiled_padded is the same with
// one column of padding. M, N and K must be multiples of 32. Grid: N/32 x M/32.
#define T 32
extern "C" __global__ void heldout_tiled_conflict(int M, int N, int K, float alpha, const float *A,
                                                  const float *B, float beta, float *C)
{
	__shared__ float As[T][T];
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
