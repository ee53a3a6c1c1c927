// dsmem_war: distributed shared memory overwritten while the peer block still reads it (racy corpus,
// README.md). As dsmem_raw, but the barrier missing is the one at the end of the loop body:
// __syncthreads() there lets this block store the next step's half of A while its peer is still
// reading the current one through ld.shared::cluster (write-after-read across the cluster).
// Fix (-DFIXED): barrier.cluster at the end of the loop body too.
// Launch: --grid N/16,M/16 --block 16,16 --cluster 2; M and K multiples of 16, N of 32; sm_90a.
#include "async.h"
#define T 16
#define H (T / 2)

extern "C" __global__ void dsmem_war(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float Ah[T][H]; // this block's half of A's tile: columns rank*H ..
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	unsigned rank = CLUSTER_RANK();
	unsigned peer = MAPA(&Ah[0][0], rank ^ 1);
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		if (tx < H)
			Ah[ty][tx] = A[row * K + k0 + rank * H + tx]; // RACE: the next step's store ...
		CLUSTER_SYNC();
		for (int k = 0; k < T; k++) {
			float a = k / H == (int)rank ? Ah[ty][k % H] : LD_CLUSTER_F32(peer + (ty * H + k % H) * 4); // RACE: ... over what the peer reads
			acc += a * B[(k0 + k) * N + col];
		}
#ifdef FIXED
		CLUSTER_SYNC();
#else
		__syncthreads();
#endif
	}
	CLUSTER_SYNC(); // no block leaves while its peer may read its shared memory
	C[row * N + col] = acc;
}
