// splitk_plain: split-K with a plain += to C instead of atomicAdd (racy corpus, README.md).
// gridDim.z blocks share each 16x16 tile of C, each summing its K/gridDim.z slice; their
// load-add-store sequences on the same C element interleave and one block's sum is lost.
// C += A*B: run with beta:1 (C starts as C0 and is checked against A*B + C0).
// Fix (-DFIXED): the slices are the two halves of one block (--block 16,16,2, grid z 1),
// added through shared memory after a __syncthreads(); one thread writes each element.
// Launch: --args 'M N K alpha:1 A B beta:1 C' --grid N/16,M/16,S --block 16,16 (FIXED: --grid
// N/16,M/16 --block 16,16,2); M and N multiples of 16, K a multiple of the slices.
#define T 16

extern "C" __global__ void splitk_plain(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
					float *C)
{
	int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
#ifndef FIXED
	int slice = blockIdx.z, slices = gridDim.z;
#else
	int slice = threadIdx.z, slices = blockDim.z;
#endif
	int kn = K / slices, kb = slice * kn;
	float acc = 0.0f;
	for (int k = kb; k < kb + kn; k++)
		acc += A[row * K + k] * B[k * N + col];
#ifndef FIXED
	C[row * N + col] += alpha * acc; // RACE: another block's += on the same element
#else
	__shared__ float part[T][T];
	if (slice == 1)
		part[threadIdx.y][threadIdx.x] = acc;
	__syncthreads();
	if (slice == 0)
		C[row * N + col] += alpha * (acc + part[threadIdx.y][threadIdx.x]);
#endif
}
