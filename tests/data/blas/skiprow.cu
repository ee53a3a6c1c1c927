// skiprow.cu: a deliberately broken BLAS-signature kernel: it never writes row 1 of C.
// The checks must fail it with beta: (row 1 keeps C0) and without (row 1 keeps the NaN
// poison). Launch: block 16,16; grid ceil(N/16) x ceil(M/16).
__global__ void sgemm_skiprow(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
	const int c = blockIdx.x * blockDim.x + threadIdx.x;
	const int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r < M && c < N && r != 1) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc += A[r * K + k] * B[k * N + c];
		C[r * N + c] = alpha * acc + beta * C[r * N + c];
	}
}
