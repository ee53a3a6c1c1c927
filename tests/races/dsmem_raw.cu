// dsmem_raw: distributed shared memory read with no cluster barrier after the peer's stores (racy
// corpus, README.md). The two blocks of a cluster compute neighbouring 16x16 tiles of the same rows
// of C, so they need the same tile of A: each loads half its columns and reads the other half from
// its peer's shared memory (mapa + ld.shared::cluster). __syncthreads() orders this block only: the
// peer's half may not be stored yet.
// Fix (-DFIXED): barrier.cluster (arrive.release + wait.acquire) between the stores and the reads.
// Launch: --grid N/16,M/16 --block 16,16 --cluster 2; M and K multiples of 16, N of 32; sm_90a.
#include "async.h"
#define T 16
#define H (T / 2)

extern "C" __global__ void dsmem_raw(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float Ah[T][H]; // this block's half of A's tile: columns rank*H ..
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	unsigned rank = CLUSTER_RANK();
	unsigned peer = MAPA(&Ah[0][0], rank ^ 1);
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		if (tx < H)
			Ah[ty][tx] = A[row * K + k0 + rank * H + tx]; // RACE: stored here ...
#ifdef FIXED
		CLUSTER_SYNC();
#else
		__syncthreads();
#endif
		for (int k = 0; k < T; k++) {
			float a = k / H == (int)rank ? Ah[ty][k % H] : LD_CLUSTER_F32(peer + (ty * H + k % H) * 4); // RACE: ... read by the peer
			acc += a * B[(k0 + k) * N + col];
		}
		CLUSTER_SYNC(); // both blocks have read both halves before the next stores
	}
	C[row * N + col] = acc;
}
