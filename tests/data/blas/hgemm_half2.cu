// hgemm_half2.cu: f16 inputs, f32 output, BLAS signature; each thread computes two adjacent
// columns with half2 loads of B and half2 multiplies, accumulating in f32. Needs N even.
// Launch: block 16,16; grid ceil(N/32) x ceil(M/16).
#include <cuda_fp16.h>

__global__ void hgemm_half2(int M, int N, int K, float alpha, const __half *A, const __half *B, float beta,
                            float *C)
{
	const int c2 = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
	const int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r >= M || c2 >= N)
		return;
	float2 acc = make_float2(0.0f, 0.0f);
	for (int k = 0; k < K; ++k) {
		__half2 a = __half2half2(A[r * K + k]);
		__half2 b = *reinterpret_cast<const __half2 *>(&B[k * N + c2]);
		float2 p = __half22float2(__hmul2(a, b));
		acc.x += p.x;
		acc.y += p.y;
	}
	C[r * N + c2] = alpha * acc.x + beta * C[r * N + c2];
	C[r * N + c2 + 1] = alpha * acc.y + beta * C[r * N + c2 + 1];
}
