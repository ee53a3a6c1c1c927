// dgemm_tiled: a 32x32 shared-memory tiled GEMM in f64: the f32 A and B tiles are widened to
// double as they are stored to shared memory, each thread accumulates in double (fma.rn.f64)
// and C = alpha*acc + beta*C is formed in double and rounded once to f32 (the runner's types are
// f32 in and out: there is no f64 --dtype, so the check is against cuBLAS's SGEMM, which the
// more exact double sum passes). Effect: f64 arithmetic (the H100's FP64 pipe, half the f32
// FMA rate) and 8-byte shared reads (a B-tile row read is two wavefronts).
// M, N and K must be multiples of 32. Block 32x32; grid N/32 x M/32.
#define T 32
extern "C" __global__ void heldout_dgemm_tiled(int M, int N, int K, float alpha, const float *A,
                                               const float *B, float beta, float *C)
{
	__shared__ double As[T][T];
	__shared__ double Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	double acc = 0.0;
	for (int k0 = 0; k0 < K; k0 += T) {
		As[ty][tx] = (double)A[row * K + k0 + tx];
		Bs[ty][tx] = (double)B[(k0 + ty) * N + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < T; k++)
			acc += As[ty][k] * Bs[k][tx]; /* As: a broadcast; Bs: 32 doubles, two wavefronts */
		__syncthreads();
	}
	C[row * N + col] = (float)((double)alpha * acc + (double)beta * (double)C[row * N + col]);
}
