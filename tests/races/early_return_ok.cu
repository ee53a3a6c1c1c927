// early_return_ok: a control, not a race (racy corpus, README.md). Threads past N's edge return
// at the top and the rest meet __syncthreads(). CUDA calls a barrier in conditional code undefined,
// but in PTX it is defined: "as threads exit, barriers waiting on all threads are checked to see if
// the exiting threads are the only threads that have not yet made it to a barrier ... the barrier
// is released" (PTX ISA, exit), and bar.sync waits "for all non-exited threads from its warp".
// So the emulator must report nothing here, and the GPU verifies it. Only B's tile is in shared
// memory, each column read by the threads that store it, so no value depends on a returned thread.
// Launch: --grid ceil(N/16),M/16 --block 16,16; M and K multiples of 16, N any (40 shows it).
#define T 16

extern "C" __global__ void early_return_ok(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float Bs[T][T];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
	if (col >= N)
		return; // these threads exit: the barriers below do not wait for them
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += T) {
		Bs[ty][tx] = B[(k0 + ty) * N + col];
		__syncthreads();
		for (int k = 0; k < T; k++)
			acc += A[row * K + k0 + k] * Bs[k][tx];
		__syncthreads();
	}
	C[row * N + col] = acc;
}
