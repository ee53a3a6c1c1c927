// dbuf_tiled: shared-memory tiling with double buffering. 32x32 tiles, 32x32 threads, one
// output each (lanes along columns: coalesced, conflict-free). Two buffers per tile: while
// the warps multiply from one, the next tile's global loads are already in flight into
// registers, then stored into the other buffer, so each k step needs one barrier instead of
// two and the load latency overlaps the arithmetic. Effect: latency hiding by prefetch.
// M, N and K must be multiples of 32. Grid: N/32 x M/32.
#define T 32
extern "C" __global__ void heldout_dbuf_tiled(int M, int N, int K, float alpha, const float *A,
                                              const float *B, float beta, float *C)
{
	__shared__ float As[2][T][T];
	__shared__ float Bs[2][T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	const float *a = A + (blockIdx.y * T + ty) * K + tx; /* this thread's element of each A tile */
	const float *b = B + ty * N + blockIdx.x * T + tx;  /* and of each B tile */
	As[0][ty][tx] = a[0];
	Bs[0][ty][tx] = b[0];
	__syncthreads();
	float acc = 0.0f;
	int tiles = K / T;
	for (int t = 0; t < tiles; t++) {
		int cur = t & 1;
		float an = 0.0f, bn = 0.0f;
		if (t + 1 < tiles) { /* the next tile, in flight during the multiply */
			an = a[(t + 1) * T];
			bn = b[(t + 1) * T * N];
		}
		for (int k = 0; k < T; k++)
			acc += As[cur][ty][k] * Bs[cur][k][tx];
		if (t + 1 < tiles) {
			As[cur ^ 1][ty][tx] = an;
			Bs[cur ^ 1][ty][tx] = bn;
		}
		/* one barrier: the next tile is stored, and nobody still reads the buffer that the
		 * tile after it will overwrite */
		__syncthreads();
	}
	int i = (blockIdx.y * T + ty) * N + blockIdx.x * T + tx;
	C[i] = alpha * acc + beta * C[i];
}
