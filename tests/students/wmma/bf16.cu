// bf16: a student's WMMA GEMM in bf16 with f32 accumulators, the m32n8k16 shape, A (M x K) row-major,
// B (K x N) row-major, C = A*B. One warp per 32x8 tile of C; M a multiple of 32, N of 8, K of 16.
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K)
{
	int tm = blockIdx.y * 32;
	int tn = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * 8;
	if (tn >= N)
		return;
	wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tm * K + k, K);
		wmma::load_matrix_sync(b, B + k * N + tn, N);
		wmma::mma_sync(acc, a, b, acc);
	}
	wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}
