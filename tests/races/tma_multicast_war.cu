// tma_multicast_war: a TMA multicast into the peer block's shared memory while the peer still reads
// it (racy corpus, README.md). The two blocks of a cluster compute tiles of C one above the other,
// so they need the same tile of B: each loads half of its rows and multicasts them into both
// blocks (cp.async.bulk.tensor .multicast::cluster). The loop ends with __syncthreads(), which
// waits for this block only: a block that has read tile t multicasts tile t+1's half over the
// tile its peer is still reading (write-after-read across the cluster).
// Fix (-DFIXED): barrier.cluster at the end of the loop body, so that both blocks have read the
// tile before either multicasts the next one.
// Launch: --args 'tmap:A:16:16 tmap:B:16:8 C M N K' --grid N/16,M/16 --block 16,16 --cluster 1,2;
// N and K multiples of 16, M of 32; sm_90a.
#include "async.h"
#define T 16

extern "C" __global__ void tma_multicast_war(const __grid_constant__ TensorMap tmA,
					     const __grid_constant__ TensorMap tmB, float *C, int M, int N, int K)
{
	__shared__ __align__(128) float As[T][T];
	__shared__ __align__(128) float Bs[T][T]; // rows 0-7 multicast by rank 0, 8-15 by rank 1
	__shared__ __align__(8) unsigned long long full;
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * T + tx;
	int bm = blockIdx.y * T, bn = blockIdx.x * T;
	unsigned rank = CLUSTER_RANK();
	int nt = K / T;
	if (tid == 0) {
		MBAR_INIT(&full, 1);
		MBAR_FENCE_INIT();
	}
	CLUSTER_SYNC(); // both mbarriers are ready before either block multicasts into the other
	float acc = 0.0f;
	for (int t = 0; t < nt; t++) {
		if (tid == 0) {
			MBAR_EXPECT(&full, 2 * T * T * 4); // A's tile and both halves of B's
			TMA_LOAD_2D(As, &tmA, t * T, bm, &full);
			TMA_LOAD_2D_MULTICAST(Bs[rank * T / 2], &tmB, bn, t * T + rank * T / 2, &full, 3); // RACE: into the peer too ...
		}
		MBAR_WAIT(&full, t & 1);
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; // RACE: ... where it may still read the tile before
#ifdef FIXED
		CLUSTER_SYNC();
#else
		__syncthreads();
#endif
	}
	CLUSTER_SYNC(); // no block exits while its peer may still multicast into it
	C[(bm + ty) * N + bn + tx] = acc;
}
