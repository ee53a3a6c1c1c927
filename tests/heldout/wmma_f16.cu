// wmma_f16: tensor cores through WMMA: one warp per 16x16 tile of C, f16 A and B, both
// row-major, f32 accumulators; per 16 k steps a load_matrix_sync of A's and B's 16x16 tiles
// straight from global memory (no shared-memory staging) and one mma_sync (m16n16k16:
// wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32). C = alpha*A*B + beta*C on the
// accumulator fragment's elements. Effect: tensor-core MMA fed from global memory: the HMMA
// pipe mostly idle behind load latency and the L1/L2 traffic of re-reading tiles.
// M, N and K must be multiples of 16. Block 128 (4 warps along N); grid N/64 x M/16 (N a
// multiple of 64, or the last block's extra warps leave).
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void heldout_wmma_f16(int M, int N, int K, float alpha, const half *A,
                                            const half *B, float beta, float *C)
{
	int tm = blockIdx.y * 16;
	int tn = (blockIdx.x * 4 + threadIdx.x / 32) * 16;
	if (tm >= M || tn >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c;
	wmma::fill_fragment(acc, 0.0f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tm * K + k, K);
		wmma::load_matrix_sync(b, B + k * N + tn, N);
		wmma::mma_sync(acc, a, b, acc);
	}
	wmma::load_matrix_sync(c, C + tm * N + tn, N, wmma::mem_row_major);
	for (int i = 0; i < c.num_elements; i++)
		c.x[i] = alpha * acc.x[i] + beta * c.x[i];
	wmma::store_matrix_sync(C + tm * N + tn, c, N, wmma::mem_row_major);
}
