// shfl_mask: __shfl_sync with a member mask that leaves out lanes which execute it (racy corpus,
// README.md). Each warp computes 32 columns of one row of C; lane j loads A's element k0+j of the
// row and the warp broadcasts it with a shuffle. The mask 0x0000ffff, kept from a 16-lane version,
// names lanes 0-15 only while all 32 lanes shuffle (and read lanes 16-31): undefined in the PTX ISA.
// Fix (-DFIXED): the full mask, 0xffffffff.
// Launch: --grid N/32,M/8 --block 32,8; M a multiple of 8, N and K of 32.
#ifdef FIXED
#define MASK 0xffffffffu
#else
#define MASK 0x0000ffffu
#endif

extern "C" __global__ void shfl_mask(const float *A, const float *B, float *C, int M, int N, int K)
{
	int lane = threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * 32 + lane;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += 32) {
		float a = A[row * K + k0 + lane];
		for (int j = 0; j < 32; j++)
			acc += __shfl_sync(MASK, a, j) * B[(k0 + j) * N + col]; // RACE: lanes 16-31 are not in MASK
	}
	C[row * N + col] = acc;
}
