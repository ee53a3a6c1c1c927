// tma_db_war: the double-buffered SGEMM of cpasync_db_war with TMA copies and mbarriers, and the
// same missing barrier (racy corpus, README.md). Thread 0 issues the copy of tile t+2 into stage
// t%2 as soon as its own warp has read tile t there, while slower warps may still be reading it:
// the mbarrier says when a copy has landed, not when the stage is free (write-after-read).
// Fix (-DFIXED): __syncthreads() after the reads, before thread 0 issues the next copy.
// Launch: --args 'tmap:A:16:16 tmap:B:16:16 C M N K' --grid N/16,M/16 --block 16,16; M, N and K
// multiples of 16; sm_90a.
#include "async.h"
#define T 16

extern "C" __global__ void tma_db_war(const __grid_constant__ TensorMap tmA, const __grid_constant__ TensorMap tmB,
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
		MBAR_WAIT(&full[s], (t >> 1) & 1);
		for (int k = 0; k < T; k++)
			acc += As[s][ty][k] * Bs[s][k][tx]; // RACE: slower warps still read stage s ...
#ifdef FIXED
		__syncthreads();
#endif
		if (tid == 0 && t + 2 < nt) {
			MBAR_EXPECT(&full[s], 2 * T * T * 4);
			TMA_LOAD_2D(As[s], &tmA, (t + 2) * T, bm, &full[s]); // RACE: ... when tile t+2's copy lands there
			TMA_LOAD_2D(Bs[s], &tmB, bn, (t + 2) * T, &full[s]); // RACE
		}
	}
	C[(bm + ty) * N + bn + tx] = acc;
}
