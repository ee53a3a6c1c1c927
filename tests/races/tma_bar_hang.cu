// tma_bar_hang: tma_db_war "fixed" the wrong way (racy corpus, README.md): the __syncthreads() that
// should let thread 0 reuse a stage is put inside thread 0's branch, where no other thread reaches
// it. Thread 0 waits there for the block; the other warps go on to wait on the mbarrier of tile
// t+2, which thread 0 has not issued: a barrier reached by part of the block, a hang on the GPU.
// Fix (-DFIXED): the barrier before the branch, reached by every thread (tma_db_war's fix).
// Launch: --args 'tmap:A:16:16 tmap:B:16:16 C M N K' --grid N/16,M/16 --block 16,16; M, N and K
// multiples of 16, K at least 48; sm_90a.
#include "async.h"
#define T 16

extern "C" __global__ void tma_bar_hang(const __grid_constant__ TensorMap tmA, const __grid_constant__ TensorMap tmB,
					float *C, int M, int N, int K)
{
	__shared__ __align__(128) float As[2][T][T];
	__shared__ __align__(128) float Bs[2][T][T];
	__shared__ __align__(8) unsigned long long full[2];
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
	int bm = blockIdx.y * T, bn = blockIdx.x * T;
	int nt = K / T;
	if (tid == 0) {
		MBAR_INIT(&full[0], 1);
		MBAR_INIT(&full[1], 1);
		MBAR_FENCE_INIT();
	}
	__syncthreads();
	if (tid == 0)
		for (int t = 0; t < 2 && t < nt; t++) {
			MBAR_EXPECT(&full[t], 2 * T * T * 4);
			TMA_LOAD_2D(As[t], &tmA, t * T, bm, &full[t]);
			TMA_LOAD_2D(Bs[t], &tmB, bn, t * T, &full[t]);
		}
	float acc = 0.0f;
	for (int t = 0; t < nt; t++) {
		int s = t & 1;
		MBAR_WAIT(&full[s], (t >> 1) & 1); // RACE: the other warps wait here for tile t+2 ...
		for (int k = 0; k < T; k++)
			acc += As[s][ty][k] * Bs[s][k][tx];
#ifdef FIXED
		__syncthreads();
#endif
		if (tid == 0 && t + 2 < nt) {
#ifndef FIXED
			__syncthreads(); // RACE: ... while thread 0 waits here for them
#endif
			MBAR_EXPECT(&full[s], 2 * T * T * 4);
			TMA_LOAD_2D(As[s], &tmA, (t + 2) * T, bm, &full[s]);
			TMA_LOAD_2D(Bs[s], &tmB, bn, (t + 2) * T, &full[s]);
		}
	}
	C[(bm + ty) * N + bn + tx] = acc;
}
