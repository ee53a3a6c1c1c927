// blocktiling.cu: a templated 2D-blocktiling SGEMM with launch bounds and bounds checks
// (any M, N, K), BLAS signature; its mangled name is longer than 70 characters.
// Launch: block (BM*BN)/(TM*TN), grid ceil(N/BN) x ceil(M/BM).
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
gemm2DBlocktilingWithBoundsChecks(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                  float *C)
{
	constexpr int threads = (BM * BN) / (TM * TN);
	__shared__ float As[BM * BK];
	__shared__ float Bs[BK * BN];
	const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	const int tr = threadIdx.x / (BN / TN), tc = threadIdx.x % (BN / TN);
	float acc[TM * TN] = {0.0f};
	float rm[TM], rn[TN];
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int i = threadIdx.x; i < BM * BK; i += threads) {
			int r = i / BK, c = i % BK;
			As[i] = row0 + r < M && k0 + c < K ? A[(row0 + r) * K + k0 + c] : 0.0f;
		}
		for (int i = threadIdx.x; i < BK * BN; i += threads) {
			int r = i / BN, c = i % BN;
			Bs[i] = k0 + r < K && col0 + c < N ? B[(k0 + r) * N + col0 + c] : 0.0f;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; ++k) {
#pragma unroll
			for (int i = 0; i < TM; ++i)
				rm[i] = As[(tr * TM + i) * BK + k];
#pragma unroll
			for (int j = 0; j < TN; ++j)
				rn[j] = Bs[k * BN + tc * TN + j];
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j)
					acc[i * TN + j] += rm[i] * rn[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) {
			int r = row0 + tr * TM + i, c = col0 + tc * TN + j;
			if (r < M && c < N)
				C[r * N + c] = alpha * acc[i * TN + j] + beta * C[r * N + c];
		}
}

template __global__ void gemm2DBlocktilingWithBoundsChecks<64, 64, 8, 4, 4>(int, int, int, float, const float *,
                                                                           const float *, float, float *);
