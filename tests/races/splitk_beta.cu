// splitk_beta: split-K in which the first slice applies beta, C = alpha*acc + beta*C, and the
// others add, C += alpha*acc, all with plain loads and stores (racy corpus, README.md). A block
// reads C while another writes it: slice 0 may read C after slice 1 added to it (and scale
// slice 1's sum by beta), and either may overwrite the other's sum.
// Fix (-DFIXED): the slices are the two halves of one block (--block 16,16,2, grid z 1), added
// through shared memory after a __syncthreads(); one thread reads C0 and writes the result.
// Launch: --args 'M N K alpha:1.5 A B beta:0.5 C' --grid N/16,M/16,S --block 16,16 (FIXED: --grid
// N/16,M/16 --block 16,16,2); M and N multiples of 16, K a multiple of the slices.
#define T 16

extern "C" __global__ void splitk_beta(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
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
	if (slice == 0)
		C[row * N + col] = alpha * acc + beta * C[row * N + col]; // RACE: reads and writes C ...
	else
		C[row * N + col] += alpha * acc; // RACE: ... that other blocks add to
#else
	__shared__ float part[T][T];
	if (slice == 1)
		part[threadIdx.y][threadIdx.x] = acc;
	__syncthreads();
	if (slice == 0)
		C[row * N + col] = alpha * (acc + part[threadIdx.y][threadIdx.x]) + beta * C[row * N + col];
#endif
}
