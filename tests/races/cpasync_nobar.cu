// cpasync_nobar: cp.async.wait_all with no __syncthreads() after it (racy corpus, README.md).
// The wait retires only this thread's own copies: a warp goes on to read elements that other
// warps' copies have not written yet (read-after-write of an asynchronous copy).
// Fix (-DFIXED): __syncthreads() after the wait, so every thread's copies have landed.
// Launch: --grid N/16,M/16 --block 16,16; M, N and K multiples of 16; sm_80.
#include "async.h"
#define T 16

extern "C" __global__ void cpasync_nobar(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[T][T], Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		CP_ASYNC4(&As[ty][tx], &A[row * K + k0 + tx]); // RACE: another warp's copies ...
		CP_ASYNC4(&Bs[ty][tx], &B[(k0 + ty) * N + col]); // RACE
		CP_COMMIT();
		CP_WAIT_ALL();
#ifdef FIXED
		__syncthreads();
#endif
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; // RACE: ... read here
		__syncthreads();
	}
	C[row * N + col] = acc;
}
