// The mistake: an f32 SGEMM that "saves bandwidth" by rounding each input
// to bf16 before the product. Checked as f32 (tolerance 1e-4) it fails by
// about 3e-3: consistent with inputs rounded to bf16.
#include <cuda_bf16.h>
__global__ void sgemm_bf16_inputs(const float *A, const float *B, float *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++) {
        __nv_bfloat16 a = __float2bfloat16(A[i * K + k]), b = __float2bfloat16(B[k * N + j]);
        sum += __bfloat162float(a) * __bfloat162float(b);
    }
    C[i * N + j] = sum;
}
