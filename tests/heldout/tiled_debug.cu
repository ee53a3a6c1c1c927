// tiled_debug: a plain 32x32 shared-memory tiled SGEMM, as a student writes it first, built
// with `nvcc -G` (scripts/heldout-ptx.sh's table): a debug build. Its PTX is unoptimised (every
// statement's values copied through fresh registers, shared and global memory reached by generic
// ld/st through cvta'd 64-bit addresses, the inner loop not unrolled) and says `.target sm_90,
// debug`, so the driver's JIT compiles it without optimisation too. Effect: the same algorithm
// as tiled_padded's at several times the instructions (the issue measured such a build at
// 419 ms at 4096^3 on the H100).
// M, N and K must be multiples of 32. Block 32x32; grid N/32 x M/32.
#define T 32
extern "C" __global__ void heldout_tiled_debug(int M, int N, int K, float alpha, const float *A,
                                               const float *B, float beta, float *C)
{
	__shared__ float As[T][T];
	__shared__ float Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		As[ty][tx] = A[row * K + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * N + col];
		__syncthreads();
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
