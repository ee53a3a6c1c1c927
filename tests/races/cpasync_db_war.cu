// cpasync_db_war: the cp.async double-buffered SGEMM with the trailing __syncthreads() of its main
// loop left out (racy corpus, README.md; issue 40's first example). A fast warp issues the copy of
// the next tile into the stage that slower warps are still reading (write-after-read: an
// asynchronous write lands in bytes another warp has not finished reading).
// Fix (-DFIXED): __syncthreads() at the end of the loop body, so that no warp issues a copy into a
// stage before every warp has read it.
// Block tile 64x64, BK = 8, 256 threads each computing 4x4 of C; 16-byte copies.
// Launch: --grid N/64,M/64 --block 16,16; M and N multiples of 64, K a multiple of 8; sm_80.
#include "async.h"
#define BM 64
#define BN 64
#define BK 8

extern "C" __global__ void cpasync_db_war(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ __align__(16) float As[2][BM][BK];
	__shared__ __align__(16) float Bs[2][BK][BN];
	int tid = threadIdx.y * 16 + threadIdx.x;
	int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	// Threads 0-127 copy 4 floats of A's tile each (row i/2, column (i%2)*4), 128-255 4 of B's
	// (row i/16, column (i%16)*4); a stage of either is 512 floats.
	int i = tid & 127;
	const float *src = tid < 128 ? &A[(bm + i / 2) * K + (i % 2) * 4] : &B[(i / 16) * N + bn + (i % 16) * 4];
	float *dst = tid < 128 ? &As[0][i / 2][(i % 2) * 4] : &Bs[0][i / 16][(i % 16) * 4];
	int step = tid < 128 ? BK : BK * N;
	float acc[4][4] = {};
	int nt = K / BK;

	CP_ASYNC16(dst, src);
	CP_COMMIT();
	for (int t = 0; t < nt; t++) {
		if (t + 1 < nt)
			CP_ASYNC16(dst + ((t + 1) & 1) * BM * BK, src + (t + 1) * step); // RACE: the next tile's copy ...
		CP_COMMIT();
		CP_WAIT(1); // tile t has landed (this thread's part) ...
		__syncthreads(); // ... and every thread's
		for (int k = 0; k < BK; k++) {
			float a[4], b[4];
			for (int r = 0; r < 4; r++)
				a[r] = As[t & 1][threadIdx.y * 4 + r][k]; // RACE: ... lands where slower warps still read
			for (int c = 0; c < 4; c++)
				b[c] = Bs[t & 1][k][threadIdx.x * 4 + c]; // RACE
			for (int r = 0; r < 4; r++)
				for (int c = 0; c < 4; c++)
					acc[r][c] += a[r] * b[c];
		}
#ifdef FIXED
		__syncthreads();
#endif
	}
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			C[(bm + threadIdx.y * 4 + r) * N + bn + threadIdx.x * 4 + c] = acc[r][c];
}
