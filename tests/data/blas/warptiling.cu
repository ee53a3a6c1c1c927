// warptiling.cu: a templated warptiling SGEMM with float4 global loads, a transposed A tile
// and a warp shuffle, BLAS signature. Needs K and N multiples of 4 (16-byte rows);
// M, N, K need not be multiples of the tiles. Launch: block 128, grid ceil(N/64) x ceil(M/64).
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN>
__global__ void __launch_bounds__(128)
sgemmWarptiling(int M, int N, int K, float alpha, const float *__restrict__ A, const float *__restrict__ B,
                float beta, float *C)
{
	__shared__ float As[BK * BM]; /* transposed: As[k][m] */
	__shared__ float Bs[BK * BN];
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	const int wr = warp / (BN / WN), wc = warp % (BN / WN);
	/* each lane owns a TM x TN block of its warp's WM x WN tile */
	const int lr = lane / (WN / TN), lc = lane % (WN / TN);
	const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	float acc[TM][TN] = {};
	for (int k0 = 0; k0 < K; k0 += BK) {
		/* A: BM rows of BK floats, a float4 per thread and step */
		for (int i = threadIdx.x; i < BM * BK / 4; i += 128) {
			int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
			float4 v = make_float4(0, 0, 0, 0);
			if (row0 + r < M && k0 + c < K)
				v = *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + k0 + c]);
			As[(c + 0) * BM + r] = v.x;
			As[(c + 1) * BM + r] = v.y;
			As[(c + 2) * BM + r] = v.z;
			As[(c + 3) * BM + r] = v.w;
		}
		for (int i = threadIdx.x; i < BK * BN / 4; i += 128) {
			int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
			float4 v = make_float4(0, 0, 0, 0);
			if (k0 + r < K && col0 + c < N)
				v = __ldg(reinterpret_cast<const float4 *>(&B[(k0 + r) * N + col0 + c]));
			*reinterpret_cast<float4 *>(&Bs[r * BN + c]) = v;
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; ++k) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; ++i)
				a[i] = As[k * BM + wr * WM + lr * TM + i];
#pragma unroll
			for (int j = 0; j < TN; ++j)
				b[j] = Bs[k * BN + wc * WN + lc * TN + j];
#pragma unroll
			for (int i = 0; i < TM; ++i)
#pragma unroll
				for (int j = 0; j < TN; ++j)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
	/* lane 0's row of the warp tile, passed round by a shuffle: alpha read once per warp */
	float al = __shfl_sync(0xffffffffu, alpha, 0);
#pragma unroll
	for (int i = 0; i < TM; ++i)
#pragma unroll
		for (int j = 0; j < TN; ++j) {
			int r = row0 + wr * WM + lr * TM + i, c = col0 + wc * WN + lc * TN + j;
			if (r < M && c < N)
				C[r * N + c] = al * acc[i][j] + beta * C[r * N + c];
		}
}

template __global__ void sgemmWarptiling<64, 64, 8, 32, 32, 4, 8>(int, int, int, float, const float *,
                                                                 const float *, float, float *);
