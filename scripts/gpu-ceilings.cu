// gpu-ceilings: the sustained rate of each pipe the time estimate (src/model/estimate.c) charges work
// to, measured on the GPU it runs on with every SM busy for about a second per test, so the GPU
// reaches the clock its power limit allows for that kind of work (a short burst runs faster).
// Built by `make gpu-ceilings`, run by scripts/gpu-ceilings.sh, which turns the output into rows of
// assets/measured-h100.tsv (metric ceiling.*). Each test prints its rate, the time of the measured
// launch and its shape.
//   build/gpu-ceilings [SECONDS] [TEST...]   (default 1 s each, every test)
//   issue   independent FFMAs: warp-level instructions per second (4 per clock per SM at most)
//   int     independent IMADs (the integer pipe: half the FP32 lanes on sm_90)
//   lsu     conflict-free 4-byte shared loads (8 per rep): L1 data-stage wavefronts per second (1 per clock per SM)
//   mma     mma.sync.m16n8k16 f16 x f16 + f32 from registers: FLOP/s
//   mma_data  the same with a GEMM's kind of operands: random f16 in (-1, 1), a different A and B
//           for each of the four mma in flight, so the multipliers' inputs change every
//           instruction as they do in a GEMM (the power, and so the clock, depends on it)
//   wgmma   wgmma.mma_async m64n128k16 f16 x f16 + f32, both operands in shared memory: FLOP/s (sm_90a)
//   wgmma_data  the same with a GEMM's kind of operands: random f16 in (-1, 1), a different A and B
//           tile for each of the four wgmma in flight (the power cap's clock for tensor work)
//   tma     cp.async.bulk copies L2 -> shared memory (the copy engine's path, which TMA tile loads
//           take), 32 KiB each, six in flight per SM, from a buffer a quarter of L2: bytes/s
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define PROG "gpu-ceilings"
#include "gpu_check.h"

// Each kernel writes its block 0's clock64 delta to cyc[0] and keeps its result alive through sink.

__global__ void k_ffma(int reps, float *sink, long long *cyc)
{
	enum { U = 8 };
	float a[U];
	for (int u = 0; u < U; u++)
		a[u] = threadIdx.x * 0.001f + u;
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
#pragma unroll
		for (int i = 0; i < 16; i++)
#pragma unroll
			for (int u = 0; u < U; u++)
				a[u] = fmaf(a[u], 0.999f, 0.5f);
	}
	long long t1 = clock64();
	float s = 0;
	for (int u = 0; u < U; u++)
		s += a[u];
	if (s == 1234.5f)
		sink[0] = s;
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cyc[0] = t1 - t0;
}

__global__ void k_imad(int reps, float *sink, long long *cyc)
{
	enum { U = 8 };
	unsigned a[U];
	for (int u = 0; u < U; u++)
		a[u] = threadIdx.x + u;
	unsigned m = 3 + (unsigned)reps % 2;
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
#pragma unroll
		for (int i = 0; i < 16; i++)
#pragma unroll
			for (int u = 0; u < U; u++)
				a[u] = a[u] * m + 7u;
	}
	long long t1 = clock64();
	unsigned s = 0;
	for (int u = 0; u < U; u++)
		s ^= a[u];
	if (s == 12345u)
		sink[0] = (float)s;
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cyc[0] = t1 - t0;
}

__global__ void k_lds(int reps, float *sink, long long *cyc)
{
	__shared__ float s[4096];
	for (int i = threadIdx.x; i < 4096; i += blockDim.x)
		s[i] = (float)i;
	__syncthreads();
	// eight independent conflict-free loads a rep (32 lanes, 32 consecutive words: 1 wavefront
	// each) at constant offsets from one moving base, so the loads, not the address arithmetic,
	// fill the issue slots: 8 wavefronts against about 11 instructions a rep
	float acc[8] = {0};
	const float *p = s + (threadIdx.x & 31);
	int o = 0;
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
#pragma unroll
		for (int u = 0; u < 8; u++)
			acc[u] += p[o + 32 * u];
		o = (o + 256) & 3840;
	}
	long long t1 = clock64();
	for (int u = 1; u < 8; u++)
		acc[0] += acc[u];
	if (acc[0] == 1234.5f)
		sink[0] = acc[0];
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cyc[0] = t1 - t0;
}

// A random f16 pair in (-1, 1): random sign and mantissa, exponent 1-14 (no zero, inf or NaN).
__device__ unsigned rand_f16x2(unsigned x)
{
	x = x * 2654435761u ^ (x >> 15);
	x = x * 2246822519u ^ (x >> 13);
	unsigned lo = (x & 0x83ffu) | ((1 + (x >> 10) % 14) << 10), hi = ((x >> 16) & 0x83ffu) | ((1 + (x >> 26) % 14) << 10);
	return lo | hi << 16;
}

// mma: every product 1.0 x (1.0 ^ lane bits), the same operands each time; mma_data (DATA): random
// operands, different for each of the four products in flight.
template <bool DATA>
__global__ void k_mma(int reps, float *sink, long long *cyc)
{
	enum { U = 4 };
	unsigned a[U][4], b[U][2], seed = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
	float d[U][4];
	for (int u = 0; u < U; u++) {
		for (int i = 0; i < 4; i++) {
			a[u][i] = DATA ? rand_f16x2(seed + u * 6 + i) : 0x3c003c00u ^ threadIdx.x;
			d[u][i] = 0;
		}
		for (int i = 0; i < 2; i++)
			b[u][i] = DATA ? rand_f16x2(seed + u * 6 + 4 + i) : 0x3c003c00u;
	}
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
#pragma unroll
		for (int u = 0; u < U; u++)
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
				     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
				     : "+f"(d[u][0]), "+f"(d[u][1]), "+f"(d[u][2]), "+f"(d[u][3])
				     : "r"(a[u][0]), "r"(a[u][1]), "r"(a[u][2]), "r"(a[u][3]), "r"(b[u][0]), "r"(b[u][1]));
	}
	long long t1 = clock64();
	float s = 0;
	for (int u = 0; u < U; u++)
		for (int i = 0; i < 4; i++)
			s += d[u][i];
	if (s == 1234.5f)
		sink[0] = s;
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cyc[0] = t1 - t0;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// A shared-memory matrix descriptor with no swizzle: start address, leading and stride byte offsets
// (each >> 4). The contents are whatever shared memory holds: only the rate is measured.
__device__ unsigned long long sdesc(const void *p, unsigned lbo, unsigned sbo)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(p);
	return (unsigned long long)((a >> 4) & 0x3fff) | ((unsigned long long)((lbo >> 4) & 0x3fff) << 16) |
	       ((unsigned long long)((sbo >> 4) & 0x3fff) << 32);
}

#define ACC8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define R8(i) "%" #i ", "
// wgmma: every operand 1.0, one A and one B tile for all four in flight; wgmma_data (DATA): random
// f16 in (-1, 1) and a different A and B tile for each of the four, as a GEMM's k-slices are.
template <bool DATA>
__global__ void k_wgmma(int reps, float *sink, long long *cyc)
{
	__shared__ __align__(1024) unsigned short sa[4][64 * 16], sb[4][128 * 16];
	unsigned seed = blockIdx.x * 977u;
	for (int u = 0; u < 4; u++) {
		for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
			sa[u][i] = DATA ? (unsigned short)rand_f16x2(seed + u * 65536 + i) : 0x3c00;
		for (int i = threadIdx.x; i < 128 * 16; i += blockDim.x)
			sb[u][i] = DATA ? (unsigned short)rand_f16x2(seed + u * 65536 + 4096 + i) : 0x3c00;
	}
	__syncthreads();
	asm volatile("fence.proxy.async.shared::cta;");
	float d[64];
	for (int i = 0; i < 64; i++)
		d[i] = 0;
	unsigned long long da[4], db[4];
	for (int u = 0; u < 4; u++) {
		da[u] = sdesc(sa[DATA ? u : 0], 128, 256);
		db[u] = sdesc(sb[DATA ? u : 0], 128, 256);
	}
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
		asm volatile("wgmma.fence.sync.aligned;");
#pragma unroll
		for (int u = 0; u < 4; u++)
			asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n"
				     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
				     "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
				     "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
				     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
				     "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
				     "%64, %65, p, 1, 1, 0, 0; }"
				     : ACC8(0), ACC8(8), ACC8(16), ACC8(24), ACC8(32), ACC8(40), ACC8(48), ACC8(56)
				     : "l"(da[u]), "l"(db[u]));
		asm volatile("wgmma.commit_group.sync.aligned;");
		asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	long long t1 = clock64();
	float s = 0;
	for (int i = 0; i < 64; i++)
		s += d[i];
	if (s == 1234.5f)
		sink[0] = s;
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cyc[0] = t1 - t0;
}
#else
template <bool DATA>
__global__ void k_wgmma(int, float *, long long *) {}
#endif

// The bulk-copy engine: one thread per block keeps BULK_STAGES copies of BULK_BYTES in flight, each
// completing on its own mbarrier; `reps` copies in all, from a buffer inside L2. The buffer is a
// global the host sets (bulk_src, bulk_chunks) so the kernel keeps the common signature.
enum { BULK_BYTES = 32768, BULK_STAGES = 6 };
__device__ const char *bulk_src;
__device__ unsigned bulk_chunks;

__global__ void k_bulk(int reps, float *sink, long long *cyc)
{
	extern __shared__ __align__(128) unsigned char buf[];
	__shared__ __align__(8) unsigned long long bar[BULK_STAGES];
	if (threadIdx.x != 0)
		return;
	for (int i = 0; i < BULK_STAGES; i++)
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar[i])));
	asm volatile("fence.mbarrier_init.release.cluster;");
	unsigned phase = 0;
	long long t0 = clock64();
	for (int r = 0; r < reps; r++) {
		int s = r % BULK_STAGES;
		unsigned b = (unsigned)__cvta_generic_to_shared(&bar[s]);
		if (r >= BULK_STAGES) { // wait for this stage's previous copy
			unsigned par = (phase >> s) & 1, done = 0;
			while (!done)
				asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
					     : "=r"(done)
					     : "r"(b), "r"(par)
					     : "memory");
			phase ^= 1u << s;
		}
		const char *src = bulk_src + (size_t)((blockIdx.x + (unsigned)r * gridDim.x) % bulk_chunks) * BULK_BYTES;
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"((unsigned)BULK_BYTES) : "memory");
		asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
				     (unsigned)__cvta_generic_to_shared(buf + s * BULK_BYTES)),
			     "l"(src), "r"((unsigned)BULK_BYTES), "r"(b)
			     : "memory");
	}
	for (int s = 0; s < BULK_STAGES && s < reps; s++) { // drain
		unsigned b = (unsigned)__cvta_generic_to_shared(&bar[s]), par = (phase >> s) & 1, done = 0;
		while (!done)
			asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
				     : "=r"(done)
				     : "r"(b), "r"(par)
				     : "memory");
	}
	long long t1 = clock64();
	if (buf[0] == 123 && buf[1] == 45)
		sink[0] = 1;
	if (blockIdx.x == 0)
		cyc[0] = t1 - t0;
}

typedef void (*kern)(int, float *, long long *);
struct test {
	const char *name, *unit;
	kern k;
	int threads, blocks_per_sm;
	double work_per_rep_per_thread; // units of work per rep per thread (a warp-level unit / 32 each)
	int smem;                       // dynamic shared memory per block
};

// Runs k with reps chosen so that one launch takes about `seconds`, after a warm-up of the same
// length (the clock settles under the power limit); returns the rate and the SM clock.
static void measure(const test &t, int sms, double seconds, float *sink, long long *cyc)
{
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	int blocks = sms * t.blocks_per_sm;
	int reps = 1000;
	float ms = 0;
	for (int tries = 0; tries < 12; tries++) { // grow reps to about `seconds`
		CHECK(cudaEventRecord(a));
		t.k<<<blocks, t.threads, t.smem>>>(reps, sink, cyc);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (ms > 1e3 * seconds * 0.5)
			break;
		double f = 1e3 * seconds / (ms > 0.01 ? ms : 0.01);
		reps = (int)(reps * (f > 16 ? 16 : f));
	}
	CHECK(cudaEventRecord(a)); // the measured launch, on a GPU already warm
	t.k<<<blocks, t.threads, t.smem>>>(reps, sink, cyc);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(b));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms, a, b));
	long long c = 0;
	CHECK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
	double work = t.work_per_rep_per_thread * reps * (double)blocks * t.threads;
	(void)c; // block 0's clock64 span: kept for a reader with a debugger; not a clock rate (SMs idle at the end)
	printf("%-6s %14.4g %-14s %8.1f ms  %d blocks x %d threads, %d reps\n", t.name, work / (ms * 1e-3), t.unit, ms,
	       blocks, t.threads, reps);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int sms = 0, major = 0, minor = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
	CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	float *sink;
	long long *cyc;
	CHECK(cudaMalloc(&sink, sizeof(float)));
	CHECK(cudaMalloc(&cyc, sizeof(long long)));
	const test tests[] = {
		{"issue", "warp-inst/s", k_ffma, 1024, 2, 16 * 8 / 32.0},
		{"int", "warp-inst/s", k_imad, 1024, 2, 16 * 8 / 32.0},
		{"lsu", "wavefronts/s", k_lds, 1024, 2, 8 / 32.0},
		{"mma", "FLOP/s", k_mma<false>, 256, 8, 4 * 4096 / 32.0},
		{"mma_data", "FLOP/s", k_mma<true>, 256, 8, 4 * 4096 / 32.0},
		{"wgmma", "FLOP/s", k_wgmma<false>, 128, 8, 4 * 2.0 * 64 * 128 * 16 / 128.0},
		{"wgmma_data", "FLOP/s", k_wgmma<true>, 128, 8, 4 * 2.0 * 64 * 128 * 16 / 128.0},
		{"tma", "GB/s", k_bulk, 32, 1, BULK_BYTES / 32.0 / 1e9, BULK_BYTES * BULK_STAGES},
	};
	int l2 = 0;
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	char *src;
	unsigned chunks = (unsigned)(l2 / 4 / BULK_BYTES);
	CHECK(cudaMalloc(&src, (size_t)chunks * BULK_BYTES));
	CHECK(cudaMemset(src, 1, (size_t)chunks * BULK_BYTES));
	CHECK(cudaMemcpyToSymbol(bulk_src, &src, sizeof src));
	CHECK(cudaMemcpyToSymbol(bulk_chunks, &chunks, sizeof chunks));
	CHECK(cudaFuncSetAttribute(k_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, BULK_BYTES * BULK_STAGES));
	printf("sm_%d%d, %d SMs, about %.1f s a test\n", major, minor, sms, seconds);
	for (const test &t : tests) {
		bool named = argc <= 2; // tests named after SECONDS run alone
		for (int i = 2; i < argc; i++)
			named |= !strcmp(argv[i], t.name);
		if (!named)
			continue;
		if ((!strncmp(t.name, "wgmma", 5) || !strcmp(t.name, "tma")) && major != 9) {
			printf("%-6s skipped: not sm_90\n", t.name);
			continue;
		}
		measure(t, sms, seconds, sink, cyc);
	}
	CHECK(cudaFree(src));
	CHECK(cudaFree(sink));
	CHECK(cudaFree(cyc));
	return 0;
}
