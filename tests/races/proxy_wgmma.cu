// proxy_wgmma: A's and B's tiles stored to shared memory with ordinary stores, then read by wgmma
// with no fence.proxy.async (racy corpus, README.md). wgmma reads its shared operands through the
// async proxy: without the fence the generic-proxy stores need not be visible to it, even after
// __syncthreads().
// Fix (-DFIXED): each thread runs fence.proxy.async.shared::cta after its stores, before the barrier.
// One warpgroup (128 threads) computes a 64x8 tile of C with wgmma.m64n8k16 (f16 in, f32 out); the
// tiles lie as 8x8 core matrices of 16-byte rows, K-adjacent ones 128 bytes apart, M-adjacent 256.
// Launch: --dtype f16 --grid N/8,M/64 --block 128; M a multiple of 64, N of 8, K of 16; sm_90a.
#include "async.h"

extern "C" __global__ void proxy_wgmma(const unsigned short *A, const unsigned short *B, float *C, int M, int N, int K)
{
	__shared__ __align__(128) unsigned short As[64 * 16];
	__shared__ __align__(128) unsigned short Bs[8 * 16]; // B's tile transposed: K-major
	int t = threadIdx.x, warp = t / 32, lane = t % 32;
	int bm = blockIdx.y * 64, bn = blockIdx.x * 8;
	int ar = t % 64, ac = t / 64; // this thread's 16-byte row of A: row ar, k-chunk ac
	int bn_ = t % 8, bk = t / 8;  // and its element of B
	float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	unsigned long long da = WG_DESC(As, 128, 256), db = WG_DESC(Bs, 128, 256);
	for (int k0 = 0; k0 < K; k0 += 16) {
		*(uint4 *)&As[(ar / 8) * 128 + ac * 64 + (ar % 8) * 8] =
			*(const uint4 *)&A[(bm + ar) * K + k0 + ac * 8]; // RACE: generic stores ...
		Bs[(bk / 8) * 64 + bn_ * 8 + bk % 8] = B[(k0 + bk) * N + bn + bn_]; // RACE
#ifdef FIXED
		FENCE_PROXY_ASYNC();
#endif
		__syncthreads();
		WGMMA_M64N8K16_F16(d, da, db); // RACE: ... read by wgmma through the async proxy
		__syncthreads();
	}
	int r = bm + warp * 16 + lane / 4, c = bn + (lane % 4) * 2;
	C[r * N + c] = d[0];
	C[r * N + c + 1] = d[1];
	C[(r + 8) * N + c] = d[2];
	C[(r + 8) * N + c + 1] = d[3];
}
