// naive_rows: one thread per output of C = alpha*A*B + beta*C, 16x16 blocks, threadIdx.x
// walking the ROWS of C. The 16 lanes of a half-warp that share threadIdx.y read A at 16
// different rows (stride K floats apart: one 32-byte sector each, uncoalesced) and store C
// down a column; their B load is one address (a broadcast). Effect: uncoalesced global
// loads, like lesson 1, with a different block shape (two rows of threads per warp).
// Any M, N, K (bounds checked). Grid: ceil(M/16) x ceil(N/16).
extern "C" __global__ void heldout_naive_rows(int M, int N, int K, float alpha, const float *A,
                                              const float *B, float beta, float *C)
{
	int row = blockIdx.x * 16 + threadIdx.x;
	int col = blockIdx.y * 16 + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += A[row * K + k] * B[k * N + col];
	C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
