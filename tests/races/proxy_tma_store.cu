// proxy_tma_store: C's tile written to shared memory with ordinary stores, then stored to global
// memory by TMA with no fence.proxy.async (racy corpus, README.md). The copy engine reads shared
// memory through the async proxy; without the fence the generic-proxy stores need not be visible
// to it, even after __syncthreads().
// Fix (-DFIXED): each thread runs fence.proxy.async.shared::cta after its store, before the barrier.
// Launch: --args 'A B tmap:C:16:16 M N K' --grid N/16,M/16 --block 16,16; M, N and K multiples of
// 16; sm_90a.
#include "async.h"
#define T 16

extern "C" __global__ void proxy_tma_store(const float *A, const float *B, const __grid_constant__ TensorMap tmC,
					   int M, int N, int K)
{
	__shared__ __align__(128) float Cs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[row * K + k] * B[k * N + col];
	Cs[ty][tx] = acc; // RACE: a generic-proxy store ...
#ifdef FIXED
	FENCE_PROXY_ASYNC();
#endif
	__syncthreads();
	if (tx == 0 && ty == 0) {
		TMA_STORE_2D(&tmC, blockIdx.x * T, blockIdx.y * T, Cs); // RACE: ... read by the async proxy
		TMA_COMMIT();
		TMA_WAIT_ALL();
	}
}
