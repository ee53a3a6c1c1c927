// half2_pairs: f16 inputs, f32 output, C = A*B. Each thread computes two adjacent columns of
// one row of C. Per pair of k steps it loads A[row][k..k+1] as one half2 (a broadcast across
// the warp) and B[k][col..col+1], B[k+1][col..col+1] as two half2 (coalesced), multiplies
// in packed half arithmetic (__hmul2, then __hfma2 for the second k step) and adds the
// half2 partial sum into two f32 accumulators. Accumulating in half2 over all of K fails the
// check at K = 4096 (emulated at 64x64x4096: rel. error 9.2e-3, the f16-in/f32-out tolerance
// is 1e-3); two k steps in half, the rest in f32, gives 2.6e-4 there. Effect: packed f16
// arithmetic (HMUL2/HFMA2) with 4-byte half2 loads.
// N and K must be even. Block 256 (32 column pairs x 8 rows); grid ceil(N/64) x ceil(M/8).
#include <cuda_fp16.h>
extern "C" __global__ void heldout_half2_pairs(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	int row = blockIdx.y * 8 + threadIdx.x / 32;
	int col = (blockIdx.x * 32 + threadIdx.x % 32) * 2;
	if (row >= M || col >= N)
		return;
	const __half2 *a = (const __half2 *)(A + row * K);
	const __half2 *b = (const __half2 *)(B + col);
	int n2 = N / 2; /* a row of B in half2 */
	float acc0 = 0.0f, acc1 = 0.0f;
	for (int k2 = 0; k2 < K / 2; k2++) {
		__half2 ak = a[k2];
		__half2 p = __hmul2(__low2half2(ak), b[(2 * k2) * n2]);
		p = __hfma2(__high2half2(ak), b[(2 * k2 + 1) * n2], p);
		float2 f = __half22float2(p);
		acc0 += f.x;
		acc1 += f.y;
	}
	C[row * N + col] = acc0;
	C[row * N + col + 1] = acc1;
}
