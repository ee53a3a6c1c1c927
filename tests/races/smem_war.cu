// smem_war: the trailing __syncthreads() of a shared-memory tiled SGEMM left out (racy corpus, README.md).
// A fast warp stores the next k-step's tile over the one slower warps are still reading.
// Fix (-DFIXED): __syncthreads() at the end of the loop body, after the reads.
// Launch: --grid N/16,M/16 --block 16,16; M, N and K multiples of 16.
#define T 16

extern "C" __global__ void smem_war(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[T][T], Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		As[ty][tx] = A[row * K + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * N + col]; // RACE: the next step's store ...
		__syncthreads();
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; // RACE: ... over what other warps still read here
#ifdef FIXED
		__syncthreads();
#endif
	}
	C[row * N + col] = acc;
}
