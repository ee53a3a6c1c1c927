// Kernels with a deliberate mistake each, for the CUDA line a message names
// (tests/e2e_culines.sh): C = A * B, row-major, M x K times K x N.

extern "C" __global__ void gemm_ok(const float *A, const float *B, float *C, int M, int N, int K)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[row * K + k] * B[k * N + col];
	C[row * N + col] = acc;
}

// One row too far: the last row reads past the end of A.
extern "C" __global__ void gemm_oob(const float *A, const float *B, float *C, int M, int N, int K)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[(row + 1) * K + k] * B[k * N + col];
	C[row * N + col] = acc;
}

// A tile of B staged in shared memory with no __syncthreads() between the
// writes and the reads: a thread reads what another warp writes.
extern "C" __global__ void gemm_race(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float tile[16][16];
	int row = blockIdx.y * 16 + threadIdx.y;
	int col = blockIdx.x * 16 + threadIdx.x;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 16) {
		tile[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * N + col];
		for (int k = 0; k < 16; k++)
			acc += A[row * K + k0 + k] * tile[k][threadIdx.x];
	}
	C[row * N + col] = acc;
}

// Waits for a flag no one sets: C starts as NaN, never 1.
extern "C" __global__ void gemm_spin(const float *A, const float *B, float *C, int M, int N, int K)
{
	volatile float *flag = C;
	while (flag[0] != 1.0f)
		;
	C[0] = A[0] * B[0];
}
