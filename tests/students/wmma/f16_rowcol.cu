// f16_rowcol: a student's WMMA GEMM, one warp per 16x16 tile of C, f16 A row-major (M x K) and B
// column-major (stored N x K: --bmajor k), f32 accumulators; C = alpha*A*B + beta*C, beta's C
// read with load_matrix_sync and both scalings done on the fragments' elements. M, N, K multiples of 16.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_f16_rowcol(int M, int N, int K, float alpha, const half *A, const half *B,
					    float beta, float *C)
{
	int tm = blockIdx.y * 16;
	int tn = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * 16;
	if (tm >= M || tn >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c;
	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tm * K + k, K);
		wmma::load_matrix_sync(b, B + tn * K + k, K);
		wmma::mma_sync(acc, a, b, acc);
	}
	wmma::load_matrix_sync(c, C + tm * N + tn, N, wmma::mem_row_major);
	for (int i = 0; i < c.num_elements; i++)
		c.x[i] = alpha * acc.x[i] + beta * c.x[i];
	wmma::store_matrix_sync(C + tm * N + tn, c, N, wmma::mem_row_major);
}
