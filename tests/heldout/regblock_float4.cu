// regblock_float4: 2D register blocking. A block of 256 threads computes a 64x64 tile of
// C = alpha*A*B + beta*C, each thread a 4x4 block of it held in registers, k in steps of 16.
// Both tiles come in with one 128-bit (float4) global load per thread: the A tile (64x16) is
// stored transposed (As[k][row]) so that the multiply reads 4 rows of A and 4 columns of B
// as two float4 shared loads per k and does 16 FMAs with them (3 wavefronts for the pair: A a
// broadcast, B 256 bytes). Storing the A tile transposed costs a 4-way bank conflict, once
// per 16 k steps. Effect: high arithmetic intensity per shared load, vector global and
// shared access.
// M and N must be multiples of 64, K of 16. Block 256; grid N/64 x M/64.
#define BM 64
#define BN 64
#define BK 16
extern "C" __global__ void heldout_regblock_float4(int M, int N, int K, float alpha, const float *A,
                                                   const float *B, float beta, float *C)
{
	__shared__ float4 As4[BK][BM / 4]; /* As[k][row], transposed, read 4 rows at a time */
	__shared__ float4 Bs4[BK][BN / 4]; /* Bs[k][col], as in memory */
	float *As = (float *)As4;
	int t = threadIdx.x;
	int tr = t / 16, tc = t % 16; /* this thread's 4x4 block: rows 4*tr.., columns 4*tc.. */
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	/* the float4 each thread loads: A row t/4, columns 4*(t%4)..; B row t/16, columns 4*(t%16).. */
	int ar = t / 4, ac = (t % 4) * 4;
	int br = t / 16, bc = t % 16;
	float acc[4][4] = {};
	for (int k0 = 0; k0 < K; k0 += BK) {
		float4 a = *(const float4 *)&A[(row0 + ar) * K + k0 + ac];
		As[(ac + 0) * BM + ar] = a.x;
		As[(ac + 1) * BM + ar] = a.y;
		As[(ac + 2) * BM + ar] = a.z;
		As[(ac + 3) * BM + ar] = a.w;
		Bs4[br][bc] = *(const float4 *)&B[(k0 + br) * N + col0 + bc * 4];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BK; k++) {
			float4 a4 = As4[k][tr], b4 = Bs4[k][tc];
			float av[4] = {a4.x, a4.y, a4.z, a4.w}, bv[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
			for (int i = 0; i < 4; i++)
#pragma unroll
				for (int j = 0; j < 4; j++)
					acc[i][j] += av[i] * bv[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 4; i++) {
		float4 *c = (float4 *)&C[(row0 + tr * 4 + i) * N + col0 + tc * 4];
		float4 old = *c;
		*c = make_float4(alpha * acc[i][0] + beta * old.x, alpha * acc[i][1] + beta * old.y,
				 alpha * acc[i][2] + beta * old.z, alpha * acc[i][3] + beta * old.w);
	}
}
