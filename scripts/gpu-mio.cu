// gpu-mio: how many warp instructions a cycle an SM's MIO takes of each kind the stall model sends there
// (src/model/stalls.c: shuffles and shared loads at one a cycle, MIO_PER_CYCLE), and whether global loads
// share that pipe or have their own (the model's LG queue). Every SM full (8 blocks of 256 threads, 64
// warps), each warp issuing independent instructions of one kind (or two kinds interleaved) in a loop;
// thread 0 of each block reads clock64() before and after, and %smid; an SM's rate is its blocks' warp
// instructions over the span from its first block's start to its last one's end (the median SM's).
// Kinds: shfl (__shfl_sync, 8 chains a thread), lds (ld.shared.u32, lanes on 32 banks: one wavefront),
// ldg (ld.global.ca.u32, the warp's 32 lanes on one 128-byte line that stays in L1: one line), ldg.128
// (16 bytes a lane: four lines), cp.async 4 B (.ca, one line in L1), and the pairs shfl+ldg, lds+ldg
// (two of the first to one ldg), ldmatrix.x4 (512 bytes, no conflict); last, mma.sync m16n8k16 (4 accumulators a warp), the tensor pipe's rate
// in the same clock (its FLOPs a cycle a sub-partition, MMA_FLOPS_PER_CYCLE). A pair that takes the sum
// of its parts' cycles shares their pipe; one that takes the larger does not. Prints a table.
//   make gpu-mio && build/gpu-mio   (where nvcc is; the GPU machine has it)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define PROG "gpu-mio"
#include "gpu_check.h"

enum { BLOCK = 256, PER_SM = 8, ITERS = 2048 };
enum { SHFL = 1, LDS = 2, LDG = 4, LDG128 = 8, CPA = 16, MMA = 32, LDSM = 64, LDGW = 128 };

// Each chain's next address adds the value it loaded (0: the memory holds zeros), so ptxas can neither
// merge nor hoist a load (plain or asm-volatile loads of fixed addresses it did both: 30 LDS a cycle).
template <int KIND> __global__ void k_mio(const unsigned *g, long long *cyc, float *sink)
{
	__shared__ __align__(16) unsigned s[1024];
	for (int i = threadIdx.x; i < 1024; i += BLOCK)
		s[i] = 0;
	__syncthreads();
	int lane = threadIdx.x & 31;
	unsigned sa = (unsigned)__cvta_generic_to_shared(s) + 4u * lane;
	const unsigned *ga = g + lane; // 8 lines, read by every warp: L1 hits after the first
	float v[8];
	unsigned ls[8], lg[8], q[4][4];
#pragma unroll
	for (int i = 0; i < 8; i++)
		v[i] = (float)(lane + i), ls[i] = 0, lg[i] = 0;
#pragma unroll
	for (int i = 0; i < 4; i++)
		q[i][0] = q[i][1] = q[i][2] = q[i][3] = 0;
	long long t0 = clock64();
	for (int it = 0; it < ITERS; it++) {
		if (KIND & SHFL) {
#pragma unroll
			for (int i = 0; i < 8; i++)
				v[i] = __shfl_sync(0xffffffffu, v[i], (lane + 1) & 31);
		}
		if (KIND & LDS) {
#pragma unroll
			for (int i = 0; i < 8; i++)
				asm volatile("ld.shared.u32 %0, [%1];" : "=r"(ls[i]) : "r"(sa + 128u * i + ls[i]) : "memory");
		}
		if (KIND & LDG) {
#pragma unroll
			for (int i = 0; i < (KIND == LDG ? 8 : 4); i++)
				asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(lg[i]) : "l"(ga + 32 * i + lg[i]) : "memory");
		}
		if (KIND & LDG128) { // 16 bytes a lane: a warp's 512 bytes, four lines
#pragma unroll
			for (int i = 0; i < 4; i++)
				asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
					     : "=r"(q[i][0]), "=r"(q[i][1]), "=r"(q[i][2]), "=r"(q[i][3])
					     : "l"(g + 4 * lane + 128 * i + q[i][0])
					     : "memory");
		}
		if (KIND & LDGW) { // as wmma.load's LDG.E from a row-major tile: 4 lanes a row, 8 rows a line apart
#pragma unroll
			for (int i = 0; i < 4; i++)
				asm volatile("ld.global.ca.u32 %0, [%1];"
					     : "=r"(q[i][0])
					     : "l"(g + 32 * (lane >> 2) + (lane & 3) + 4 * i + q[i][0])
					     : "memory");
		}
		if (KIND & LDSM) { // ldmatrix .x4: lane l's row 16 bytes at 16 l, four 8x8 matrices, 512 bytes
#pragma unroll
			for (int i = 0; i < 4; i++)
				asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
					     : "=r"(q[i][0]), "=r"(q[i][1]), "=r"(q[i][2]), "=r"(q[i][3])
					     : "r"(sa - 4u * lane + 16u * lane + 512u * (i & 1) + q[i][0])
					     : "memory");
		}
		if (KIND & CPA) { // global to shared without registers (LDGSTS): 4 bytes a lane, one line, in L1
#pragma unroll
			for (int i = 0; i < 8; i++)
				asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa + 128u * i),
					     "l"(ga + 32 * i + (it & 1)) : "memory");
			asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 4;" ::: "memory");
		}
	}
	if (KIND & CPA)
		asm volatile("cp.async.wait_all;" ::: "memory");
	if (KIND & MMA) { // the tensor pipe: 4 accumulators a warp, mma.sync.m16n8k16 f16 -> f32 into each
		float d[4][4] = {};
		unsigned a = lane, b = lane + 1;
		for (int it = 0; it < ITERS; it++)
#pragma unroll
			for (int i = 0; i < 4; i++)
				asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
					     "{%8, %9}, {%0, %1, %2, %3};"
					     : "+f"(d[i][0]), "+f"(d[i][1]), "+f"(d[i][2]), "+f"(d[i][3])
					     : "r"(a), "r"(b), "r"(a), "r"(b), "r"(a), "r"(b));
#pragma unroll
		for (int i = 0; i < 4; i++)
			v[i] += d[i][0] + d[i][1] + d[i][2] + d[i][3];
	}
	__syncthreads();
	long long t1 = clock64();
	float r = 0;
#pragma unroll
	for (int i = 0; i < 8; i++)
		r += v[i] + (float)ls[i] + (float)lg[i] + (float)q[i & 3][i >> 2];
	if (r == -1.0f)
		sink[0] = r;
	if (threadIdx.x == 0) {
		unsigned sm;
		asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
		cyc[3 * blockIdx.x] = t0, cyc[3 * blockIdx.x + 1] = t1, cyc[3 * blockIdx.x + 2] = sm;
	}
}

// Per SM, the span from its first block's start to its last block's end (clock64 is the SM's own
// counter) and the warp instructions its blocks issued: the SMs' median rate, and the median span.
template <int KIND> static double run(int sms, const unsigned *g, long long *dcyc, float *sink, double *cycles)
{
	int blocks = sms * PER_SM;
	k_mio<KIND><<<blocks, BLOCK>>>(g, dcyc, sink); // warm
	CHECK(cudaDeviceSynchronize());
	k_mio<KIND><<<blocks, BLOCK>>>(g, dcyc, sink);
	CHECK(cudaDeviceSynchronize());
	std::vector<long long> c(3 * blocks);
	CHECK(cudaMemcpy(c.data(), dcyc, 3 * blocks * sizeof(long long), cudaMemcpyDeviceToHost));
	std::vector<long long> lo(sms, -1), hi(sms, 0), n(sms, 0);
	for (int b = 0; b < blocks; b++) {
		int sm = (int)c[3 * b + 2];
		if (sm < 0 || sm >= sms)
			continue;
		lo[sm] = lo[sm] < 0 || c[3 * b] < lo[sm] ? c[3 * b] : lo[sm];
		hi[sm] = c[3 * b + 1] > hi[sm] ? c[3 * b + 1] : hi[sm];
		n[sm]++;
	}
	double per_iter = (KIND & SHFL ? 8 : 0) + (KIND & LDS ? 8 : 0) + (KIND & LDG ? (KIND == LDG ? 8 : 4) : 0) +
			  (KIND & LDG128 ? 4 : 0) + (KIND & CPA ? 8 : 0) + (KIND & MMA ? 4 : 0) + (KIND & LDSM ? 4 : 0) +
			  (KIND & LDGW ? 4 : 0);
	std::vector<double> rate, span;
	for (int sm = 0; sm < sms; sm++)
		if (n[sm]) {
			span.push_back((double)(hi[sm] - lo[sm]));
			rate.push_back((double)n[sm] * (BLOCK / 32) * ITERS * per_iter / span.back());
		}
	std::sort(rate.begin(), rate.end());
	std::sort(span.begin(), span.end());
	*cycles = span[span.size() / 2];
	return rate[rate.size() / 2];
}

int main()
{
	int dev = 0, sms = 0;
	CHECK(cudaGetDevice(&dev));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	cudaDeviceProp p;
	CHECK(cudaGetDeviceProperties(&p, dev));
	unsigned *g;
	float *sink;
	long long *dcyc;
	CHECK(cudaMalloc(&g, 16 * 32 * sizeof(unsigned)));
	CHECK(cudaMemset(g, 0, 16 * 32 * sizeof(unsigned)));
	CHECK(cudaMalloc(&sink, sizeof(float)));
	CHECK(cudaMalloc(&dcyc, 3 * sms * PER_SM * sizeof(long long)));
	cudaFuncAttributes fa;
	CHECK(cudaFuncGetAttributes(&fa, k_mio<SHFL | LDG>));
	struct {
		const char *name;
		double rate, cycles;
	} r[10];
	r[0].name = "shfl", r[0].rate = run<SHFL>(sms, g, dcyc, sink, &r[0].cycles);
	r[1].name = "lds", r[1].rate = run<LDS>(sms, g, dcyc, sink, &r[1].cycles);
	r[2].name = "ldg", r[2].rate = run<LDG>(sms, g, dcyc, sink, &r[2].cycles);
	r[3].name = "shfl+ldg", r[3].rate = run<SHFL | LDG>(sms, g, dcyc, sink, &r[3].cycles);
	r[4].name = "lds+ldg", r[4].rate = run<LDS | LDG>(sms, g, dcyc, sink, &r[4].cycles);
	r[5].name = "ldg.128", r[5].rate = run<LDG128>(sms, g, dcyc, sink, &r[5].cycles);
	r[6].name = "cp.async 4 B", r[6].rate = run<CPA>(sms, g, dcyc, sink, &r[6].cycles);
	r[7].name = "mma.sync.m16n8k16 f16->f32", r[7].rate = run<MMA>(sms, g, dcyc, sink, &r[7].cycles);
	r[8].name = "ldmatrix.x4", r[8].rate = run<LDSM>(sms, g, dcyc, sink, &r[8].cycles);
	r[9].name = "ldg, wmma's: 8 lines, 16 bytes each", r[9].rate = run<LDGW>(sms, g, dcyc, sink, &r[9].cycles);
	// a pair (8 of the first kind and 4 ldg a loop): its parts' cycles from their rates alone
	double w = (double)PER_SM * (BLOCK / 32) * ITERS;
	printf("%s, %d SMs; %d blocks of %d threads an SM (%d registers a thread), %d loops a warp\n", p.name, sms, PER_SM,
	       BLOCK, fa.numRegs, ITERS);
	printf("| kind | warp instructions a cycle an SM | cycles (median SM) | pair: sum of parts / larger part |\n|---|---|---|---|\n");
	for (int i = 0; i < 10; i++) {
		if (i < 3 || i > 4) {
			printf("| %s | %.3f | %.0f | |\n", r[i].name, r[i].rate, r[i].cycles);
			continue;
		}
		double a = w * 8 / r[i == 3 ? 0 : 1].rate, b = w * 4 / r[2].rate; // an SM's 8 blocks' worth
		printf("| %s | %.3f | %.0f | %.0f / %.0f |\n", r[i].name, r[i].rate, r[i].cycles, a + b, std::max(a, b));
	}
	printf("mma.sync: %.0f FLOPs a cycle a sub-partition (the stall model's MMA_FLOPS_PER_CYCLE: 680)\n",
	       r[7].rate * 4096 / 4);
	CHECK(cudaFree(g));
	CHECK(cudaFree(sink));
	CHECK(cudaFree(dcyc));
	return 0;
}
