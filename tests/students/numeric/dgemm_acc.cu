// A student's SGEMM that accumulates in double: C = alpha*A*B + beta*C, row-major, one thread per C element.
extern "C" __global__ void dgemm_acc(int M, int N, int K, float alpha, const float *A, const float *B,
                                     float beta, float *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k)
            acc += (double)A[row * K + k] * (double)B[k * N + col];
        C[row * N + col] = (float)((double)alpha * acc + (double)beta * (double)C[row * N + col]);
    }
}
