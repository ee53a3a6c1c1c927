// coalesced_unroll2: one thread per output of C = A*B, lanes along the COLUMNS of C
// (coalesced B loads and C stores, A a broadcast), from a 1D block of 256 threads that
// covers 8 rows x 32 columns (row and column computed from threadIdx.x). The k loop is
// unrolled by hand two steps at a time, with two independent accumulators. Effect:
// coalesced global access; more loads in flight per thread than lesson 2.
// Any M, N, K (bounds checked; an odd K ends with one step). Grid: ceil(N/32) x ceil(M/8).
extern "C" __global__ void heldout_coalesced_unroll2(const float *A, const float *B, float *C, int M, int N, int K)
{
	int row = blockIdx.y * 8 + threadIdx.x / 32;
	int col = blockIdx.x * 32 + threadIdx.x % 32;
	if (row >= M || col >= N)
		return;
	const float *a = A + row * K;
	const float *b = B + col;
	float even = 0.0f, odd = 0.0f;
	int k = 0;
	for (; k + 1 < K; k += 2) {
		even += a[k] * b[k * N];
		odd += a[k + 1] * b[(k + 1) * N];
	}
	if (k < K)
		even += a[k] * b[k * N];
	C[row * N + col] = even + odd;
}
