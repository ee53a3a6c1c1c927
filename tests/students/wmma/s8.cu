// s8: a student's WMMA GEMM in 8-bit integers, s32 accumulators with .satfinite off (wrapping, as
// mma_sync's default), m16n16k16, A (M x K) row-major, B column-major (stored N x K), C = A*B as s32.
// One warp per 16x16 tile of C; M, N, K multiples of 16. ptxtutor has no s8 dtype yet: the unit test
// tests/test_emu_wmma.c runs it through the emulator against an integer reference.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_s8(const signed char *A, const signed char *B, int *C, int M, int N, int K)
{
	int tm = blockIdx.y * 16;
	int tn = (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * 16;
	if (tn >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
	wmma::fill_fragment(acc, 0);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tm * K + k, K);
		wmma::load_matrix_sync(b, B + tn * K + k, K);
		wmma::mma_sync(acc, a, b, acc);
	}
	wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}
