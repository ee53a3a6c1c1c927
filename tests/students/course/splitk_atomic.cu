// Split-K: gridDim.z blocks share each 16 x 16 tile of C, each summing its slice of K, and add their
// partial sums into C with atomicAdd (atom.global.add.f32). C must already hold what they add to: run
// with beta 1, C = alpha*A*B + C0. The order of the additions varies, so the last bits may too.
extern "C" __global__ void splitk_atomic(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                         float *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int slice = (K + gridDim.z - 1) / gridDim.z;
    int k0 = blockIdx.z * slice, k1 = min(K, k0 + slice);
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = k0; k < k1; ++k)
            acc += A[row * K + k] * B[k * N + col];
        atomicAdd(&C[row * N + col], alpha * acc);
    }
}
