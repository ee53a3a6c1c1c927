// cpasync_nowait: a tile loaded with cp.async and read with no cp.async.wait_all (racy corpus, README.md).
// __syncthreads() orders the threads' instructions, not the copies: a copy may land after the
// barrier, after the reads of its bytes (read-after-write of an asynchronous copy).
// Fix (-DFIXED): cp.async.wait_all (each thread's copies have landed), then __syncthreads().
// Launch: --grid N/16,M/16 --block 16,16; M, N and K multiples of 16; sm_80.
#include "async.h"
#define T 16

extern "C" __global__ void cpasync_nowait(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[T][T], Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		CP_ASYNC4(&As[ty][tx], &A[row * K + k0 + tx]); // RACE: copies in flight ...
		CP_ASYNC4(&Bs[ty][tx], &B[(k0 + ty) * N + col]); // RACE
		CP_COMMIT();
#ifdef FIXED
		CP_WAIT_ALL();
#endif
		__syncthreads();
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; // RACE: ... read here
		__syncthreads();
	}
	C[row * N + col] = acc;
}
