// kernels.cu: GEMM kernels with signatures unlike the lesson ABI, compiled with
// `nvcc -ptx` (see README.md here) to prove that `ptxtutor run --ptx --args`
// runs PTX this project did not write by hand.
#include <cuda_fp16.h>

// BLAS-style: sizes first, then alpha, A, B, beta, C (beta == 0 never reads C).
extern "C" __global__ void gemm_alpha_beta(int M, int N, int K, float alpha, const float *A,
                                           const float *B, float beta, float *C)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; ++k)
		acc += A[row * K + k] * B[k * N + col];
	C[row * N + col] = beta == 0.0f ? alpha * acc : alpha * acc + beta * C[row * N + col];
}

// Sizes baked in at compile time, as many blog kernels do: only the buffers are passed.
#define FIXED 1024
extern "C" __global__ void gemm_fixed_1024(const float *__restrict__ A, const float *__restrict__ B,
                                          float *__restrict__ C)
{
	__shared__ float As[32][33], Bs[32][33];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
	float acc = 0.0f;
	for (int t = 0; t < FIXED; t += 32) {
		As[ty][tx] = A[row * FIXED + t + tx];
		Bs[ty][tx] = B[(t + ty) * FIXED + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 32; ++k)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[row * FIXED + col] = acc;
}

// f16 inputs, f32 output, output first and the sizes in another order.
extern "C" __global__ void hgemm_out_first(float *C, const __half *A, const __half *B, unsigned K,
                                          unsigned N, unsigned M)
{
	unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (unsigned k = 0; k < K; ++k)
		acc = fmaf(__half2float(A[row * K + k]), __half2float(B[k * N + col]), acc);
	C[row * N + col] = acc;
}
