// syncwarp_mask: __syncwarp with a member mask that leaves out lanes which take part in the
// exchange it should order (racy corpus, README.md). Each warp computes 32 columns of one row of
// C; lane j stores A's element k0+j of the row in shared memory and every lane reads all 32. The
// mask 0x0000ffff orders lanes 0-15 only: lanes 16-31 may read before lanes 0-15 stored, or store
// the next chunk while lanes 0-15 still read (bar.warp.sync with a lane left out).
// Fix (-DFIXED): __syncwarp() with the full mask.
// Launch: --grid N/32,M/8 --block 32,8; M a multiple of 8, N and K of 32.
#ifdef FIXED
#define MASK 0xffffffffu
#else
#define MASK 0x0000ffffu
#endif

extern "C" __global__ void syncwarp_mask(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float as[8][32];
	int lane = threadIdx.x, w = threadIdx.y;
	int row = blockIdx.y * blockDim.y + w, col = blockIdx.x * 32 + lane;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 32) {
		as[w][lane] = A[row * K + k0 + lane]; // RACE: stored by every lane ...
		__syncwarp(MASK); // RACE: orders lanes 0-15 only
		for (int j = 0; j < 32; j++)
			acc += as[w][j] * B[(k0 + j) * N + col]; // RACE: ... and read by every lane
		__syncwarp(MASK); // RACE: and lanes 16-31 may store the next chunk while others read
	}
	C[row * N + col] = acc;
}
