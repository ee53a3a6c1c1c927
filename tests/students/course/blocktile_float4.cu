// 2D blocktiling after siboehm's kernel 6, templated: a block computes a BM x BN tile of C with
// BM*BN/(TM*TN) threads, each a TM x TN tile in registers; A and B come in as float4 (A transposed
// into shared memory). The float4 loads need N and K multiples of 4, which the assert checks; M and
// N need not be multiples of the tile (loads past the edge give zeros, stores are guarded).
#include <cassert>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm2d(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    assert(K % 4 == 0 && N % 4 == 0 && "float4 loads need N and K multiples of 4");
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int threads = BM * BN / (TM * TN);
    int tid = threadIdx.x;
    int trow = tid / (BN / TN), tcol = tid % (BN / TN);
    int brow = blockIdx.y * BM, bcol = blockIdx.x * BN;
    float acc[TM][TN] = {};
    float a[TM], b[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = tid; i < BM * BK / 4; i += threads) {
            int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (brow + r < M && k0 + c < K)
                v = *reinterpret_cast<const float4 *>(&A[(brow + r) * K + k0 + c]);
            As[c + 0][r] = v.x;
            As[c + 1][r] = v.y;
            As[c + 2][r] = v.z;
            As[c + 3][r] = v.w;
        }
        for (int i = tid; i < BK * BN / 4; i += threads) {
            int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
            float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
            if (k0 + r < K && bcol + c < N)
                v = *reinterpret_cast<const float4 *>(&B[(k0 + r) * N + bcol + c]);
            *reinterpret_cast<float4 *>(&Bs[r][c]) = v;
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            for (int i = 0; i < TM; ++i)
                a[i] = As[k][trow * TM + i];
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][tcol * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) {
            int r = brow + trow * TM + i, c = bcol + tcol * TN + j;
            if (r < M && c < N)
                C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
        }
}

// The instance the course launches: 64 x 64 tiles, BK 8, 4 x 4 per thread, 256 threads.
template __global__ void sgemm2d<64, 64, 8, 4, 4>(int, int, int, float, const float *, const float *, float,
                                                  float *);
