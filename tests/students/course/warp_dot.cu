// One warp per element of C: the 32 lanes stride along K, then __shfl_down_sync halves the partial
// sums five times and lane 0 stores. A block of 32 x 4 threads computes 4 elements of a row of C.
extern "C" __global__ void warp_dot(const float *A, const float *B, float *C, int M, int N, int K)
{
    int lane = threadIdx.x;
    int row = blockIdx.y;
    int col = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = lane; k < K; k += 32)
        sum += A[row * K + k] * B[k * N + col];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if (lane == 0)
        C[row * N + col] = sum;
}
