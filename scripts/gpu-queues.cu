// gpu-queues: how much work the SM's LG and MIO queues hold before a warp must wait to issue (lg_throttle,
// mio_throttle), and how fast they drain: the depths the stall model takes (src/model/stalls.c LG_ENTRIES
// and MIO_ENTRIES, instructions a sub-partition; docs/model.md "Stall reasons"). One warp alone on the GPU issues a burst of K
// independent loads, each as costly as a load can be (LG: 32 lanes on 32 different 128-byte lines, all
// in L1 after a warm pass; MIO: 32 lanes on one shared-memory bank, 32 wavefronts), between two
// clock64() reads, results unread until after. While the queue has room a load issues in a few cycles;
// once it is full each waits for 32 lines (wavefronts) to drain: the issue time bends at the depth.
// Then bursts of K wgmma.mma_async from one warpgroup (or two, or committed in groups of four): the cycles
// between two HGMMAs before the bend are the stall model's WGMMA_ISSUE_PER_N; where it bends, the
// sub-partition's queue of them (docs/benchmarks.md, 2026-11-28). Prints each burst's cycles, then
// "queue_lg" (the largest burst before the bend, in loads), "queue_mio" (the depth, in cycles of work) and
// "drain_lg", "drain_mio" (cycles a unit past the bend), and a table beside the model's; exits 1 when
// either depth, in loads, is off the model's (LG_ENTRIES, MIO_ENTRIES) by more than half.
//   make gpu-queues && build/gpu-queues   (where nvcc is; the GPU machine has it)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define PROG "gpu-queues"
#include "gpu_check.h"

enum { MODEL_LG = 32, MODEL_MIO = 6 }; // the model's: LG_ENTRIES, MIO_ENTRIES (instructions a sub-partition)

// K loads, load i of lane l at line 32 i + l (a 32-float stride: 128 bytes): every load 32 lines, every
// line its own, all in L1 after the warm pass. (Until 2026-11-28 the loads repeated four rows of lines:
// ptxas merged the repeats, no load was left between the two clock reads, and every burst took 2
// cycles. The timed loads' address depends on the first clock read, so ptxas neither merges them with
// the warm pass's nor moves them above it.)
template <int K> __global__ void k_lg(const float *p, long long *cyc, float *sink)
{
	const float *a = p + (threadIdx.x % 32) * 32; // every warp the same lines (all in L1)
	float r[K], warm = 0;
#pragma unroll
	for (int i = 0; i < K; i++) // the warm pass: every line in L1
		asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(r[i]) : "l"(a + i * 1024) : "memory");
#pragma unroll
	for (int i = 0; i < K; i++)
		warm += r[i];
	long long t0, t1;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) : "f"(warm) : "memory");
	const float *b = a + (t0 >> 62); // a, unknown to the compiler: the loads are not the warm pass's again
#pragma unroll
	for (int i = 0; i < K; i++)
		asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(r[i]) : "l"(b + i * 1024) : "memory");
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
	float s = warm;
#pragma unroll
	for (int i = 0; i < K; i++)
		s += r[i];
	sink[threadIdx.x] = s;
	if (threadIdx.x % 32 == 0) // each warp's own burst
		cyc[threadIdx.x / 32] = t1 - t0;
}

// K shared loads, load i of lane l at word 32 l + 33 i: one bank a load (bank i mod 32), 32 wavefronts,
// every load its own words and none next to another's (two loads of the same addresses were merged into
// one LDS.64, neighbouring words into LDS.128).
template <int K> __global__ void k_mio(long long *cyc, float *sink)
{
	__shared__ float s[32 * 32 + 33 * 32];
	for (int i = threadIdx.x; i < 32 * 32 + 33 * 32; i += 32)
		s[i] = (float)i;
	__syncwarp();
	unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 32]);
	float r[K];
	long long t0, t1;
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
#pragma unroll
	for (int i = 0; i < K; i++)
		asm volatile("ld.shared.f32 %0, [%1];" : "=f"(r[i]) : "r"(a + i * 33 * 4) : "memory");
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
	float v = 0;
#pragma unroll
	for (int i = 0; i < K; i++)
		v += r[i];
	sink[threadIdx.x] = v;
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0;
}

// K wgmma.mma_async m64nNk16 (f16 in, f32 accumulators, both operands in shared memory, no swizzle: the
// contents are whatever shared memory holds, only issue times are measured) issued back to back by one
// warpgroup between two clock64() reads, all on one accumulator as a GEMM's k-slices are, then one
// commit and a wait outside the timing. An HGMMA issues while the tensor pipe's queue has room; past
// that it waits (Nsight Compute: mio_throttle) for one ahead to start: N = 128 takes 64 SM cycles at
// the dense peak (4096 FLOPs a cycle an SM), N = 256 128.
#include "gpu_wgmma.h"
template <int K, int N, int G> __global__ void k_wgmma(long long *cyc, float *sink)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	__shared__ __align__(1024) unsigned short sa[64 * 16], sb[256 * 16];
	wg_operands(sa, sb);
	float d[N / 2];
	for (int i = 0; i < N / 2; i++)
		d[i] = 0;
	unsigned long long da = sdesc((unsigned)__cvta_generic_to_shared(sa), 128, 256),
			   db = sdesc((unsigned)__cvta_generic_to_shared(sb), 128, 256);
	long long t0, t1;
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0)::"memory");
#pragma unroll
	for (int i = 0; i < K; i++) {
		if (N == 128)
			asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n" WG_N128 " }"
				     : A8(0), A8(8), A8(16), A8(24), A8(32), A8(40), A8(48), A8(56)
				     : "l"(da), "l"(db) : "memory");
		else
			asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n" WG_N256 " }"
				     : A8(0), A8(8), A8(16), A8(24), A8(32), A8(40), A8(48), A8(56), A8(64), A8(72),
				       A8(80), A8(88), A8(96), A8(104), A8(112), A8(120)
				     : "l"(da), "l"(db) : "memory");
		if (G && i % G == G - 1) // a group of G committed, as a GEMM's k-tiles are
			asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
	}
	asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1)::"memory");
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	float v = 0;
	for (int i = 0; i < N / 2; i++)
		v += d[i];
	sink[threadIdx.x] = v;
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0;
#endif
}

static long long get(long long *cyc)
{
	long long c = 0;
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
	return c;
}

template <int K> static long long lg(const float *p, long long *cyc, float *sink, int warps = 1)
{
	for (int rep = 0; rep < 3; rep++) // the first launches load the code and raise the clock; the last is kept
		k_lg<K><<<1, 32 * warps>>>(p, cyc, sink);
	return get(cyc);
}

template <int K> static long long mio(long long *cyc, float *sink)
{
	for (int rep = 0; rep < 3; rep++)
		k_mio<K><<<1, 32>>>(cyc, sink);
	return get(cyc);
}

template <int K, int N, int G = 0> static long long wg(long long *cyc, float *sink, int groups = 1)
{
	for (int rep = 0; rep < 3; rep++)
		k_wgmma<K, N, G><<<1, 128 * groups>>>(cyc, sink);
	return get(cyc);
}

enum { NK = 10 };
static const int ks[NK] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};

// From a burst's cycles t[] at ks[]: the drain r, cycles a unit, from the slope over the last half (32
// units a load); and the depth. Past the bend load j issues once the backlog, 32 j units less what
// drained, is under the depth D: t(j) = r (32 j - D) + t(1), so D (in cycles of work, r a unit) is
// r 32 K - (t(K) - t(1)) at the largest K. A slope under 8 cycles a load: no bend, D > r 32 K.
static void fit(const long long *t, double *drain, double *depth)
{
	double per_load = (double)(t[NK - 1] - t[NK / 2]) / (ks[NK - 1] - ks[NK / 2]);
	*drain = per_load / 32;
	*depth = per_load < 8 ? -1 : per_load * ks[NK - 1] - (double)(t[NK - 1] - t[0]);
}

// The largest burst that issues before the bend, in loads: the last before a step whose loads cost more than
// 24 cycles each (past the bend a load waits for one to drain, 32 cycles; before it a few). The LG queue's
// bend is late (24-32 loads), where the fit's line through the second half would read it as a few loads' work.
static int before_bend(const long long *t)
{
	for (int i = 1; i < NK; i++)
		if (t[i] - t[i - 1] > 24 * (ks[i] - ks[i - 1]))
			return ks[i - 1];
	return ks[NK - 1];
}

int main()
{
	float *p, *sink;
	long long *cyc;
	CHECK(cudaMalloc(&p, (size_t)32 * 1024 * 4));
	CHECK(cudaMemset(p, 0, (size_t)32 * 1024 * 4));
	CHECK(cudaMalloc(&sink, 512 * sizeof(float)));
	CHECK(cudaMalloc(&cyc, 16 * sizeof(long long)));
	long long tl[NK] = {lg<1>(p, cyc, sink),  lg<2>(p, cyc, sink),  lg<3>(p, cyc, sink),  lg<4>(p, cyc, sink),
			    lg<6>(p, cyc, sink),  lg<8>(p, cyc, sink),  lg<12>(p, cyc, sink), lg<16>(p, cyc, sink),
			    lg<24>(p, cyc, sink), lg<32>(p, cyc, sink)};
	long long tm[NK] = {mio<1>(cyc, sink),  mio<2>(cyc, sink),  mio<3>(cyc, sink),  mio<4>(cyc, sink),
			    mio<6>(cyc, sink),  mio<8>(cyc, sink),  mio<12>(cyc, sink), mio<16>(cyc, sink),
			    mio<24>(cyc, sink), mio<32>(cyc, sink)};
	// LG bursts from several warps at once (warp w on sub-partition w mod 4), warp 0's cycles: where the
	// bend moves with the warps says whose queue it is (the SM's, a sub-partition's, a warp's)
	{
		const int ws[] = {1, 2, 4, 8, 16};
		long long tlw[5][NK];
		for (int i = 0; i < 5; i++) {
			int w = ws[i];
			long long r[NK] = {lg<1>(p, cyc, sink, w),  lg<2>(p, cyc, sink, w),  lg<3>(p, cyc, sink, w),
					   lg<4>(p, cyc, sink, w),  lg<6>(p, cyc, sink, w),  lg<8>(p, cyc, sink, w),
					   lg<12>(p, cyc, sink, w), lg<16>(p, cyc, sink, w), lg<24>(p, cyc, sink, w),
					   lg<32>(p, cyc, sink, w)};
			memcpy(tlw[i], r, sizeof r);
		}
		printf("burst  lg_1_warp  lg_2_warps  lg_4_warps  lg_8_warps  lg_16_warps\n");
		for (int k = 0; k < NK; k++)
			printf("%5d  %9lld  %10lld  %10lld  %10lld  %11lld\n", ks[k], tlw[0][k], tlw[1][k], tlw[2][k], tlw[3][k], tlw[4][k]);
	}
	long long tw[2][NK] = {{wg<1, 128>(cyc, sink), wg<2, 128>(cyc, sink), wg<3, 128>(cyc, sink), wg<4, 128>(cyc, sink),
				wg<6, 128>(cyc, sink), wg<8, 128>(cyc, sink), wg<12, 128>(cyc, sink), wg<16, 128>(cyc, sink),
				wg<24, 128>(cyc, sink), wg<32, 128>(cyc, sink)},
			       {wg<1, 256>(cyc, sink), wg<2, 256>(cyc, sink), wg<3, 256>(cyc, sink), wg<4, 256>(cyc, sink),
				wg<6, 256>(cyc, sink), wg<8, 256>(cyc, sink), wg<12, 256>(cyc, sink), wg<16, 256>(cyc, sink),
				wg<24, 256>(cyc, sink), wg<32, 256>(cyc, sink)}};
	long long t2[NK] = {wg<1, 256>(cyc, sink, 2), wg<2, 256>(cyc, sink, 2), wg<3, 256>(cyc, sink, 2), wg<4, 256>(cyc, sink, 2),
			    wg<6, 256>(cyc, sink, 2), wg<8, 256>(cyc, sink, 2), wg<12, 256>(cyc, sink, 2), wg<16, 256>(cyc, sink, 2),
			    wg<24, 256>(cyc, sink, 2), wg<32, 256>(cyc, sink, 2)};
	long long tg[NK] = {wg<1, 256, 4>(cyc, sink), wg<2, 256, 4>(cyc, sink), wg<3, 256, 4>(cyc, sink), wg<4, 256, 4>(cyc, sink),
			    wg<6, 256, 4>(cyc, sink), wg<8, 256, 4>(cyc, sink), wg<12, 256, 4>(cyc, sink), wg<16, 256, 4>(cyc, sink),
			    wg<24, 256, 4>(cyc, sink), wg<32, 256, 4>(cyc, sink)};
	long long tg2[NK] = {wg<1, 256, 4>(cyc, sink, 2), wg<2, 256, 4>(cyc, sink, 2), wg<3, 256, 4>(cyc, sink, 2), wg<4, 256, 4>(cyc, sink, 2),
			     wg<6, 256, 4>(cyc, sink, 2), wg<8, 256, 4>(cyc, sink, 2), wg<12, 256, 4>(cyc, sink, 2), wg<16, 256, 4>(cyc, sink, 2),
			     wg<24, 256, 4>(cyc, sink, 2), wg<32, 256, 4>(cyc, sink, 2)};
	printf("burst  wgmma_n128  wgmma_n256  n256_two_warpgroups  n256_groups_of_4  n256_groups_of_4_two_warpgroups\n");
	for (int i = 0; i < NK; i++)
		printf("%5d  %10lld  %10lld  %19lld  %16lld  %31lld\n", ks[i], tw[0][i], tw[1][i], t2[i], tg[i], tg2[i]);
	double dl, ql, dm, qm;
	fit(tl, &dl, &ql); /* its drain; the depth from before_bend */
	fit(tm, &dm, &qm);
	printf("burst  lg_cycles  mio_cycles\n");
	for (int i = 0; i < NK; i++)
		printf("%5d  %9lld  %10lld\n", ks[i], tl[i], tm[i]);
	int lg_loads = before_bend(tl);
	printf("queue_lg %d loads\nqueue_mio %.0f cycles\ndrain_lg %.2f cycles\ndrain_mio %.2f cycles\n", lg_loads, qm, dl, dm);
	printf("(a depth of -1: no bend within %d loads, deeper than that)\n", ks[NK - 1]);
	printf("\n| queue | depth | the model's | drain (cycles a unit) | model |\n|---|---|---|---|---|\n");
	printf("| LG | %d loads before the bend | %d instructions | %.2f | 1 |\n| MIO | %.0f cycles of work (%.1f loads of 32) | %d instructions | %.2f | 1 |\n",
	       lg_loads, MODEL_LG, dl, qm, qm / 32, MODEL_MIO, dm);
	int off = lg_loads < MODEL_LG * 0.5 || lg_loads > MODEL_LG * 1.5 || qm / 32 < MODEL_MIO * 0.5 || qm / 32 > MODEL_MIO * 1.5;
	if (off)
		printf("a depth is off the model's (LG_ENTRIES, MIO_ENTRIES in src/model/stalls.c): see docs/benchmarks.md\n");
	return off;
}
