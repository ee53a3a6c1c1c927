// f16_rowrow_smem: a student's WMMA GEMM with f16 accumulators and output, A (M x K) and B (K x N)
// both row-major, the m8n32k16 shape; each warp stages its 8x16 slice of A and 16x32 slice of B
// through shared memory, then loads its fragments from there. One warp per 8x32 tile of C;
// M a multiple of 8, N of 32, K of 16.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define WARPS 4

extern "C" __global__ void wmma_f16_rowrow(const half *A, const half *B, half *C, int M, int N, int K)
{
	__shared__ __align__(32) half As[WARPS][8 * 16];
	__shared__ __align__(32) half Bs[WARPS][16 * 32];
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int tm = blockIdx.y * 8;
	int tn = (blockIdx.x * WARPS + warp) * 32;
	if (tn >= N)
		return; /* the whole warp leaves: wmma needs all 32 lanes */
	wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 8, 32, 16, half> acc;
	wmma::fill_fragment(acc, __float2half(0.0f));
	for (int k = 0; k < K; k += 16) {
		for (int i = lane; i < 8 * 16; i += 32)
			As[warp][i] = A[(tm + i / 16) * K + k + i % 16];
		for (int i = lane; i < 16 * 32; i += 32)
			Bs[warp][i] = B[(k + i / 32) * N + tn + i % 32];
		__syncwarp();
		wmma::load_matrix_sync(a, As[warp], 16);
		wmma::load_matrix_sync(b, Bs[warp], 32);
		wmma::mma_sync(acc, a, b, acc);
		__syncwarp();
	}
	wmma::store_matrix_sync(C + tm * N + tn, acc, N, wmma::mem_row_major);
}
