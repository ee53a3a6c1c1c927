// One warp per element of C, built with -G: the partial dot product and the warp's sum are __device__
// functions, and -G makes each a .func that the kernel calls (call.uni with .param arguments and a
// return value), __shfl_down_sync too. A block of 32 x 4 threads computes 4 elements of a row of C.
__device__ float partial_dot(const float *A, const float *B, int row, int col, int lane, int N, int K)
{
    float sum = 0.0f;
    for (int k = lane; k < K; k += 32)
        sum += A[row * K + k] * B[k * N + col];
    return sum;
}

__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

extern "C" __global__ void dot_device(const float *A, const float *B, float *C, int M, int N, int K)
{
    int lane = threadIdx.x;
    int row = blockIdx.y;
    int col = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;
    float sum = warp_sum(partial_dot(A, B, row, col, lane, N, K));
    if (lane == 0)
        C[row * N + col] = sum;
}
