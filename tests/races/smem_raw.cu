// smem_raw: the ordinary missing __syncthreads() of a shared-memory tiled SGEMM (racy corpus, README.md).
// Each thread stores one element of a 16x16 tile of A and of B, then reads a row of As and a
// column of Bs that other warps stored: without a barrier between, it may read them before they are.
// Fix (-DFIXED): __syncthreads() between the stores and the reads.
// Launch: --grid N/16,M/16 --block 16,16; M, N and K multiples of 16.
#define T 16

extern "C" __global__ void smem_raw(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[T][T], Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		As[ty][tx] = A[row * K + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * N + col]; // RACE: stored here
#ifdef FIXED
		__syncthreads();
#endif
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; // RACE: read here by other warps, maybe before the store
		__syncthreads();
	}
	C[row * N + col] = acc;
}
