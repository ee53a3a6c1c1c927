// mixed.cu: a module with a GEMM entry beside a non-GEMM entry that uses bit instructions
// (popc, brev, bfe, bfi, prmt, funnel shifts, min/max, selp, division), so the emulator must
// run the one without tripping over the other. Launch the GEMM: block 16,16,
// grid ceil(N/16) x ceil(M/16).
__global__ void sgemm_beside_bits(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                  float *C)
{
	const int c = blockIdx.x * blockDim.x + threadIdx.x;
	const int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r < M && c < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; ++k)
			acc = fmaf(A[r * K + k], B[k * N + c], acc);
		C[r * N + c] = alpha * acc + beta * C[r * N + c];
	}
}

/* Not a GEMM: scrambles bits of x into out, one element per thread. */
__global__ void bit_tricks(const unsigned *x, unsigned *out, float *f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned v = x[i];
	unsigned w = __brev(v) ^ (unsigned)__popc(v);
	w = __byte_perm(w, v, 0x5140);
	w ^= __funnelshift_l(v, w, i & 31);
	unsigned field = (v >> 5) & 0x3ff;
	w = (w & ~(0x3ffu << 11)) | (field << 11);
	w = max(w, v) - min(w, v);
	out[i] = w;
	f[i] = (float)w / (float)(v | 1u) + __fdividef(1.0f, (float)(i + 1)) + rsqrtf((float)(v & 0xffff) + 1.0f);
}
