// gpu-fma-pipe: what the FMA pipe's two halves take a cycle (issue 41: half2_pairs' IMAD.WIDE lines wait at
// math pipe throttle among its HFMA2s). Every SM full (32 warps an SM), each warp 8 independent chains of one
// instruction kind, or two kinds alternating; warp instructions a cycle an SM (the median SM's span, clock64
// and %smid) for FFMA, IMAD (mad.lo.s32), IMAD.WIDE (mad.wide.s32, in ptxas's form: with its 64-bit add on
// the ALU), HFMA2 (fma.rn.f16x2), and pairs. A pipe of 16 lanes a sub-partition takes 2 cycles a warp
// instruction: 2.0 an SM. (A stream of add.s32, or of a pointer's mad.wide.u32 by a constant stride, ptxas
// folds into fewer instructions: no rate of its own here.)
//   make gpu-fma-pipe && build/gpu-fma-pipe
#define PROG "gpu-fma-pipe"
#include <algorithm>
#include <cstring>
#include "gpu_check.h"

#define ITERS 2048
#define WARPS 32

enum { K_FFMA, K_IMAD, K_IMADW, K_HFMA2, K_NONE };

template <int K> __device__ __forceinline__ void op(float &f, int &i, long long &l, unsigned &h, int x)
{
	if (K == K_FFMA)
		asm volatile("fma.rn.f32 %0, %0, %0, 0f3F800000;" : "+f"(f));
	if (K == K_IMAD)
		asm volatile("mad.lo.s32 %0, %0, %1, %1;" : "+r"(i) : "r"(x));
	if (K == K_IMADW)
		// ptxas makes it an IMAD.WIDE with no addend and a 64-bit add on the ALU (IADD3, IADD3.X): ptxas's
		// own form of a 64-bit multiply-add, as in half2_pairs
		asm volatile("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %0; mad.wide.s32 %0, lo, %1, %0;}" : "+l"(l) : "r"(x));
	if (K == K_HFMA2)
		asm volatile("fma.rn.f16x2 %0, %0, %0, %0;" : "+r"(h));
}

// 8 chains of kind A, then (B != K_NONE) 8 of kind B, each step
template <int A, int B> __global__ void stream(long long *cyc, unsigned *smid, int x, float *out)
{
	float f[8];
	int i[8];
	long long l[8];
	unsigned h[8];
	for (int c = 0; c < 8; c++)
		f[c] = threadIdx.x + c, i[c] = threadIdx.x + c, l[c] = threadIdx.x + c, h[c] = threadIdx.x * 3u + c;
	__syncthreads();
	long long t0 = clock64();
	for (int it = 0; it < ITERS; it++) {
#pragma unroll
		for (int c = 0; c < 8; c++) {
			op<A>(f[c], i[c], l[c], h[c], x);
			if (B != K_NONE)
				op<B>(f[c], i[c], l[c], h[c], x);
		}
	}
	__syncthreads();
	long long t1 = clock64();
	float s = 0;
	for (int c = 0; c < 8; c++)
		s += f[c] + i[c] + (float)l[c] + h[c];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
	if (threadIdx.x == 0) {
		unsigned id;
		asm("mov.u32 %0, %%smid;" : "=r"(id));
		cyc[blockIdx.x] = t1 - t0, smid[blockIdx.x] = id;
	}
}

template <int A, int B> static double rate(int sms, long long *cyc, unsigned *smid, float *out)
{
	stream<A, B><<<sms, WARPS * 32>>>(cyc, smid, 3, out); // warm
	stream<A, B><<<sms, WARPS * 32>>>(cyc, smid, 3, out);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	long long *h = new long long[sms];
	CHECK(cudaMemcpy(h, cyc, sms * sizeof *h, cudaMemcpyDeviceToHost));
	std::sort(h, h + sms);
	double insts = (double)WARPS * ITERS * 8 * (B != K_NONE ? 2 : 1);
	double r = insts / h[sms / 2];
	delete[] h;
	return r;
}

int main()
{
	int sms;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	long long *cyc;
	unsigned *smid;
	float *out;
	CHECK(cudaMalloc(&cyc, sms * sizeof(long long)));
	CHECK(cudaMalloc(&smid, sms * sizeof(unsigned)));
	CHECK(cudaMalloc(&out, (size_t)sms * WARPS * 32 * sizeof(float)));
	printf("kind                 warp instructions a cycle an SM (%d warps an SM, median SM)\n", WARPS);
	printf("%-20s %.3f\n", "FFMA", rate<K_FFMA, K_NONE>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "IMAD", rate<K_IMAD, K_NONE>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "IMAD.WIDE", rate<K_IMADW, K_NONE>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "HFMA2", rate<K_HFMA2, K_NONE>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "FFMA+IMAD", rate<K_FFMA, K_IMAD>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "HFMA2+IMAD.WIDE", rate<K_HFMA2, K_IMADW>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "HFMA2+IMAD", rate<K_HFMA2, K_IMAD>(sms, cyc, smid, out));
	printf("%-20s %.3f\n", "FFMA+IMAD.WIDE", rate<K_FFMA, K_IMADW>(sms, cyc, smid, out));
	return 0;
}
