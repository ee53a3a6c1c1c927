// Each thread computes 4 outputs of a row into a local array indexed at run time.
#define TM 4
extern "C" __global__ void gemm_local_array(const float *A, const float *B, float *C, int M, int N, int K)
{
    float acc[TM];
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row0 = (blockIdx.y * blockDim.y + threadIdx.y) * TM;
    for (int i = 0; i < TM; i++)
        acc[i] = 0.0f;
    for (int k = 0; k < K; k++) {
        float b = B[k * N + col];
        int i = k % TM;                  // a run-time index: acc stays in local memory
        for (int j = 0; j < TM; j++, i = (i + 1) % TM)
            acc[i] += A[(row0 + i) * K + k] * b;
    }
    for (int i = 0; i < TM; i++)
        if (row0 + i < M && col < N)
            C[(row0 + i) * N + col] = acc[i];
}
