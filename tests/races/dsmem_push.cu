// dsmem_push: each block of a cluster of two writes half of A's tile into its peer's shared memory
// (st.shared::cluster at a mapa address) and reads the whole tile from its own, with
// __syncthreads() where barrier.cluster is needed (racy corpus, README.md): a block may read its
// tile before the peer's half has arrived, and the peer may write the next step's half while the
// block still reads this one.
// Fix (-DFIXED): barrier.cluster after the stores and at the end of the loop body.
// Launch: --grid N/16,M/16 --block 16,16 --cluster 2; M and K multiples of 16, N of 32; sm_90a.
#include "async.h"
#define T 16
#define H (T / 2)

extern "C" __global__ void dsmem_push(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	unsigned rank = CLUSTER_RANK();
	int c = rank * H + tx; // this block loads columns rank*H .. of the tile
	unsigned peer = MAPA(&As[ty][c], rank ^ 1);
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		if (tx < H) {
			float a = A[row * K + k0 + c];
			As[ty][c] = a;
			ST_CLUSTER_F32(peer, a); // RACE: stored into the peer's tile ...
		}
#ifdef FIXED
		CLUSTER_SYNC();
#else
		__syncthreads();
#endif
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * B[(k0 + k) * N + col]; // RACE: ... where the peer reads
#ifdef FIXED
		CLUSTER_SYNC();
#else
		__syncthreads();
#endif
	}
	CLUSTER_SYNC(); // no block leaves while its peer may still write to it
	C[row * N + col] = acc;
}
