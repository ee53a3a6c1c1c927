// divergent_bar: __syncthreads() inside a branch that half the block takes (racy corpus,
// README.md). The upper half of the block (threadIdx.y < 8) loads B's 16x16 tile, two rows a
// thread, and waits at a barrier inside the branch; the lower half skips it and reads the tile.
// On the GPU both are "bar.sync 0": the lower half's arrival at the trailing barrier may release
// the upper half's, so the lower half reads the tile before it is stored.
// Fix (-DFIXED): the barrier after the branch, where every thread reaches it.
// Launch: --grid N/16,M/16 --block 16,16; M, N and K multiples of 16.
#define T 16

extern "C" __global__ void divergent_bar(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		if (ty < T / 2) {
			Bs[2 * ty][tx] = B[(k0 + 2 * ty) * N + col]; // RACE: the upper half stores the tile ...
			Bs[2 * ty + 1][tx] = B[(k0 + 2 * ty + 1) * N + col];
#ifndef FIXED
			__syncthreads(); // RACE: reached by the upper half only
#endif
		}
#ifdef FIXED
		__syncthreads();
#endif
		for (int k = 0; k < T; k++)
			acc += A[row * K + k0 + k] * Bs[k][tx]; // RACE: ... the lower half reads before the stores
		__syncthreads(); // RACE: where the lower half arrives
	}
	C[row * N + col] = acc;
}
