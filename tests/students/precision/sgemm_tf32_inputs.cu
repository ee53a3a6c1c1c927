// The mistake: an f32 SGEMM whose inputs go through tf32 (cvt.rna.tf32.f32,
// as a tensor-core path does) while the run is checked as f32: consistent
// with inputs rounded to tf32. (Run as --dtype tf32 it verifies.)
__device__ float to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}
__global__ void sgemm_tf32_inputs(const float *A, const float *B, float *C, int M, int N, int K)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= M || j >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += to_tf32(A[i * K + k]) * to_tf32(B[k * N + j]);
    C[i * N + j] = sum;
}
