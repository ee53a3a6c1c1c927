// early_return_bar: threads past N's edge return at the top, then the rest meet __syncthreads()
// (racy corpus, README.md): a barrier reached by part of the block, undefined in CUDA ("may hang or
// produce unintended side effects"); here the lanes that return are half of each warp's lanes.
// Only B's tile is in shared memory, each thread storing and reading its own column's elements
// of other rows, so the values do not depend on the returned threads.
// Fix (-DFIXED): every thread runs the loop (past the edge it loads a clamped column) and only
// the store is guarded.
// Launch: --grid ceil(N/16),M/16 --block 16,16; M and K multiples of 16, N any (40 shows it).
#define T 16

extern "C" __global__ void early_return_bar(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
#ifndef FIXED
	if (col >= N)
		return; // RACE: these threads never reach the barriers below
	int c = col;
#else
	int c = min(col, N - 1);
#endif
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		Bs[ty][tx] = B[(k0 + ty) * N + c];
		__syncthreads(); // RACE: reached by part of the block
		for (int k = 0; k < T; k++)
			acc += A[row * K + k0 + k] * Bs[k][tx];
		__syncthreads();
	}
#ifdef FIXED
	if (col < N)
#endif
		C[row * N + col] = acc;
}
