// The mistake: an f32 SGEMM that stores each product as a __half before
// adding it (a "packed" temporary): checked as f32 (tolerance 1e-4) it fails
// by a few 1e-4, consistent with products rounded to f16.
#include <cuda_fp16.h>
__global__ void sgemm_f16_products(const float *A, const float *B, float *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++) {
        __half p = __float2half(A[i * K + k] * B[k * N + j]);
        sum += __half2float(p);
    }
    C[i * N + j] = sum;
}
