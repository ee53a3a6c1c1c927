// tf32: a student's WMMA GEMM in tf32 (m16n16k8), A and B f32 in memory, rounded to tf32 element by
// element on the fragments (__float_to_tf32) as the CUDA Programming Guide asks; A row-major (M x K),
// B column-major (stored N x K: --bmajor k); C stored column-major through a shared staging tile,
// then copied out row-major. One warp per 16x16 tile of C; M, N multiples of 16, K of 8.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_tf32(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ __align__(32) float Cs[4][16 * 16];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int tm = blockIdx.y * 16;
	int tn = (blockIdx.x * 4 + warp) * 16;
	if (tn >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < K; k += 8) {
		wmma::load_matrix_sync(a, A + tm * K + k, K);
		wmma::load_matrix_sync(b, B + tn * K + k, K);
		for (int i = 0; i < a.num_elements; i++)
			a.x[i] = wmma::__float_to_tf32(a.x[i]);
		for (int i = 0; i < b.num_elements; i++)
			b.x[i] = wmma::__float_to_tf32(b.x[i]);
		wmma::mma_sync(acc, a, b, acc);
	}
	wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_col_major);
	__syncwarp();
	for (int i = lane; i < 256; i += 32)
		C[(tm + i % 16) * N + tn + i / 16] = Cs[warp][i];
}
