// gpu-latency: how many SM clock cycles one dependent instruction takes, for each kind the stall model
// (issue 41, docs/model.md "Stall reasons") charges waiting to: one warp runs a chain of N instructions,
// each needing the one before, between two clock64() reads; cycles / N is the latency. Memory latencies
// are pointer chases (each load's address is the value the load before returned) over footprints sized
// for the level: shared memory, L1 (16 KiB, ld.global.ca, after a pass that fills it), L2 (8 MiB,
// ld.global.cg so L1 is bypassed), DRAM (random 256-byte lines over 1 GiB, ld.global.cg: TLB misses
// included, as a GEMM streaming a large matrix meets some). bar: a bar.sync of 8 warps, cycles each.
// Prints "latency_NAME CYCLES cycles" rows for assets/measured-h100.tsv (metric latency_NAME, lesson 0).
//   make gpu-latency && build/gpu-latency   (where nvcc is; the GPU machine has it)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define PROG "gpu-latency"
#include "gpu_check.h"

enum { N = 4096 };

// The global timer, ns: with clock64 it gives the SM clock the chain ran at.
__device__ __forceinline__ long long gtimer()
{
	long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

// A chain of N of one instruction on one register; the result is written so nothing is removed.
#define CHAIN(name, decl, init, asmtext, cons)                                                 \
	__global__ void name(long long *cyc, float *sink)                                     \
	{                                                                                     \
		decl x = init;                                                                \
		long long g0 = gtimer(), t0 = clock64();                                      \
		for (int i = 0; i < N / 16; i++) {                                            \
			_Pragma("unroll") for (int u = 0; u < 16; u++) asm volatile(asmtext : cons); \
		}                                                                             \
		long long t1 = clock64(), g1 = gtimer();                                      \
		sink[threadIdx.x] = (float)x;                                                 \
		if (threadIdx.x == 0)                                                         \
			cyc[0] = t1 - t0, cyc[1] = g1 - g0;                                   \
	}

CHAIN(k_ffma, float, 1.0f + threadIdx.x, "fma.rn.f32 %0, %0, 0f3F800001, 0f3F000000;", "+f"(x))
CHAIN(k_imad, int, (int)threadIdx.x, "mad.lo.s32 %0, %0, 3, 7;", "+r"(x))
CHAIN(k_mufu, float, 0.5f + 1e-7f * threadIdx.x, "ex2.approx.f32 %0, %0;", "+f"(x)) // not a constant: ptxas folds those
CHAIN(k_shfl, int, (int)threadIdx.x, "shfl.sync.bfly.b32 %0, %0, 1, 31, -1;", "+r"(x))

__global__ void k_mma(long long *cyc, float *sink)
{
	float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
	unsigned a = 0x3c003c00u, b = 0x3c003c00u;
	long long g0 = gtimer(), t0 = clock64();
	for (int i = 0; i < N / 16; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, "
				     "{%0,%1,%2,%3};"
				     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
				     : "r"(a), "r"(b));
	}
	long long t1 = clock64(), g1 = gtimer();
	sink[threadIdx.x] = d0 + d1 + d2 + d3;
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0, cyc[1] = g1 - g0;
}

// Shared memory: a cycle of indices 32 words apart (one bank), chased by lane 0 of one warp.
__global__ void k_lds(long long *cyc, float *sink)
{
	__shared__ unsigned s[4096];
	for (int i = threadIdx.x; i < 4096; i += blockDim.x)
		s[i] = (i + 32) % 4096;
	__syncthreads();
	unsigned j = 0;
	long long g0 = gtimer(), t0 = clock64();
	for (int i = 0; i < N / 16; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			asm volatile("ld.shared.u32 %0, [%1];" : "=r"(j) : "r"((unsigned)__cvta_generic_to_shared(&s[j])));
	}
	long long t1 = clock64(), g1 = gtimer();
	sink[threadIdx.x] = (float)j;
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0, cyc[1] = g1 - g0;
}

// Global memory: p holds a cycle of addresses; CA = 1 caches in L1 (.ca), 0 bypasses it (.cg).
template <int CA> __device__ __forceinline__ void step(unsigned long long &a)
{
	if (CA)
		asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(a));
	else
		asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(a));
}

template <int CA>
__global__ void k_chase(const unsigned long long *p, int warm, long long *cyc, float *sink)
{
	unsigned long long a = (unsigned long long)p;
	for (int i = 0; i < warm; i++) // one pass over the footprint first: the level holds it
		step<CA>(a);
	long long g0 = gtimer(), t0 = clock64();
	for (int i = 0; i < N / 16; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			step<CA>(a);
	}
	long long t1 = clock64(), g1 = gtimer();
	sink[threadIdx.x] = (float)(a & 0xff);
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0, cyc[1] = g1 - g0;
}

// bar.sync across 8 warps, back to back.
__global__ void k_bar(long long *cyc, float *sink)
{
	long long g0 = gtimer(), t0 = clock64();
	for (int i = 0; i < N / 16; i++) {
#pragma unroll
		for (int u = 0; u < 16; u++)
			asm volatile("bar.sync 0;" ::: "memory");
	}
	long long t1 = clock64(), g1 = gtimer();
	sink[threadIdx.x] = 0;
	if (threadIdx.x == 0)
		cyc[0] = t1 - t0, cyc[1] = g1 - g0;
}

// A cycle through `lines` lines `stride` bytes apart in buf, in a random order (or in order).
static unsigned long long *make_chase(size_t bytes, size_t stride, bool random, int *lines_out)
{
	size_t lines = bytes / stride;
	unsigned long long *d;
	CHECK(cudaMalloc(&d, bytes));
	std::vector<size_t> order(lines);
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	if (random) {
		srand(12345);
		for (size_t i = lines - 1; i > 0; i--) {
			size_t j = ((size_t)rand() * 65536u + (size_t)rand()) % (i + 1);
			size_t t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
	}
	std::vector<unsigned long long> h(bytes / 8, 0);
	for (size_t i = 0; i < lines; i++)
		h[order[i] * stride / 8] = (unsigned long long)d + order[(i + 1) % lines] * stride;
	CHECK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
	*lines_out = (int)lines;
	return d;
}

// Prints a row: cycles per instruction, and the SM clock the chain ran at (cycles / globaltimer ns).
static void report(const char *name, long long *cyc)
{
	long long c[2] = {0, 0};
	CHECK(cudaMemcpy(c, cyc, sizeof c, cudaMemcpyDeviceToHost));
	printf("latency_%s %.1f cycles (%.0f ns, at %.0f MHz)\n", name, (double)c[0] / N, (double)c[1] / N,
	       c[1] > 0 ? 1e3 * c[0] / c[1] : 0.0);
}

static void run(const char *name, void (*k)(long long *, float *), int threads, long long *cyc, float *sink)
{
	for (int rep = 0; rep < 3; rep++) { // the first launches load the code and raise the clock; the last is kept
		k<<<1, threads>>>(cyc, sink);
		CHECK(cudaDeviceSynchronize());
	}
	report(name, cyc);
}

// A DRAM chase runs once: a second launch walks the same lines, which the first left in L2. The
// chase of `before` (a launch on another array) just ahead keeps the clock up.
template <int CA>
static void run_chase(const char *name, const unsigned long long *p, int warm, int reps, long long *cyc, float *sink,
		      const unsigned long long *before)
{
	if (before)
		k_chase<0><<<1, 1>>>(before, 0, cyc, sink);
	for (int rep = 0; rep < reps; rep++)
		k_chase<CA><<<1, 1>>>(p, warm, cyc, sink);
	CHECK(cudaDeviceSynchronize());
	report(name, cyc);
}

int main()
{
	long long *cyc;
	float *sink;
	CHECK(cudaMalloc(&cyc, 2 * sizeof(long long)));
	CHECK(cudaMalloc(&sink, 1024 * sizeof(float)));
	const struct {
		const char *name;
		void (*k)(long long *, float *);
		int threads;
	} chains[] = {
		{"ffma", k_ffma, 32}, {"imad", k_imad, 32}, {"mufu", k_mufu, 32}, {"shfl", k_shfl, 32},
		{"mma", k_mma, 32},   {"lds", k_lds, 32},   {"bar", k_bar, 256},
		// the same barrier with 2, 4, 16 and 32 warps: whether its release grows with the warps it frees
		{"bar_2w", k_bar, 64}, {"bar_4w", k_bar, 128}, {"bar_16w", k_bar, 512}, {"bar_32w", k_bar, 1024},
	};
	for (auto &c : chains)
		run(c.name, c.k, c.threads, cyc, sink);
	int lines;
	unsigned long long *l1 = make_chase(16 << 10, 128, false, &lines);
	run_chase<1>("l1", l1, lines, 3, cyc, sink, nullptr);
	unsigned long long *l2s = make_chase(1 << 20, 256, true, &lines);
	run_chase<0>("l2_1mib", l2s, lines, 3, cyc, sink, nullptr);
	unsigned long long *l2 = make_chase(8 << 20, 256, true, &lines);
	run_chase<0>("l2", l2, lines, 3, cyc, sink, nullptr);
	unsigned long long *dram = make_chase((size_t)1 << 30, 256, true, &lines);
	run_chase<0>("dram", dram, 0, 1, cyc, sink, l2);
	unsigned long long *dram4 = make_chase((size_t)4 << 30, 4096, true, &lines);
	run_chase<0>("dram_4gib", dram4, 0, 1, cyc, sink, l2);
	return 0;
}
