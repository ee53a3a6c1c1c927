// gpu-power: the board power and SM clock each kind of work draws, alone, with every SM busy, for the
// estimate's clock model (src/model/power.c): the clock the power cap allows for a kernel's mix of
// tensor FLOPs on GEMM-like data, FFMAs, shared-memory wavefronts and L2/DRAM bytes. Each test runs
// for SECONDS after a warm-up as long, while a host thread samples NVML (loaded with dlopen, as the
// tutor loads the driver) every 10 ms: nvmlDeviceGetClockInfo(NVML_CLOCK_SM) and
// nvmlDeviceGetPowerUsage; block 0 reads clock64 and %globaltimer at both ends as a second clock.
// Built by `make gpu-power`, run by scripts/gpu-power.sh. Prints rows for assets/measured-h100.tsv
// (lesson 0, size 0: power_TEST_w, power_TEST_mhz, power_TEST_rate; power_limit_w, power_max_mhz),
// then a table.
//   build/gpu-power [SECONDS] [TEST...]   (default 1 s each, every test)
//   idle        __nanosleep on every SM: the board at its clock with no work (the model's floor)
//   ffma        independent FFMAs at full rate: warp instructions per second
//   lsu         conflict-free shared loads: L1/shared wavefronts per second
//   mma_data    mma.sync m16n8k16 on random f16 operands (as gpu-ceilings' mma_data): FLOP/s
//   wgmma_data  wgmma m64n128k16 on random f16 tiles (as gpu-ceilings' wgmma_data): FLOP/s
//   wgmma_75, wgmma_50  the same at about 75% and 50% of the first's FLOPs per clock: a wait of some
//               clocks after each step, its length found by bisection on short launches (the rows
//               say what each reached; the model reads the rate and the clock, not the label)
//   wgmma_f8    wgmma m64n128k32 e4m3 x e4m3 + f32 on random bytes (no NaN): FLOP/s, FP8's rate
//   l2          .cg float4 reads of a buffer a quarter of L2: GB/s from L2
//   dram        the same over 2 GiB: GB/s from DRAM
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

#define PROG "gpu-power"
#include "gpu_check.h"

// ---- NVML, the few declarations this needs (no nvml.h: the GPU machine has the library, not the headers)

typedef void *nvml_dev;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1 };
static struct {
	int (*init)(void);
	int (*by_pci)(const char *, nvml_dev *);
	int (*clock)(nvml_dev, int, unsigned *);
	int (*max_clock)(nvml_dev, int, unsigned *);
	int (*power)(nvml_dev, unsigned *);
	int (*limit)(nvml_dev, unsigned *);
	int (*name)(nvml_dev, char *, unsigned);
	int (*driver)(char *, unsigned);
	nvml_dev dev;
} nv;

static void *sym(void *h, const char *name)
{
	void *p = dlsym(h, name);
	if (!p) {
		fprintf(stderr, "%s: libnvidia-ml.so.1 has no %s\n", PROG, name);
		exit(1);
	}
	return p;
}

static void nvml_open(int cuda_dev)
{
	void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s: cannot load libnvidia-ml.so.1 (%s): the power and clock need NVML\n", PROG, dlerror());
		exit(1);
	}
	nv.init = (int (*)(void))sym(h, "nvmlInit_v2");
	nv.by_pci = (int (*)(const char *, nvml_dev *))sym(h, "nvmlDeviceGetHandleByPciBusId_v2");
	nv.clock = (int (*)(nvml_dev, int, unsigned *))sym(h, "nvmlDeviceGetClockInfo");
	nv.max_clock = (int (*)(nvml_dev, int, unsigned *))sym(h, "nvmlDeviceGetMaxClockInfo");
	nv.power = (int (*)(nvml_dev, unsigned *))sym(h, "nvmlDeviceGetPowerUsage");
	nv.limit = (int (*)(nvml_dev, unsigned *))sym(h, "nvmlDeviceGetEnforcedPowerLimit");
	nv.name = (int (*)(nvml_dev, char *, unsigned))sym(h, "nvmlDeviceGetName");
	nv.driver = (int (*)(char *, unsigned))sym(h, "nvmlSystemGetDriverVersion");
	char bus[32];
	CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_dev)); // NVML's order need not be CUDA's
	if (nv.init() != NVML_SUCCESS || nv.by_pci(bus, &nv.dev) != NVML_SUCCESS) {
		fprintf(stderr, "%s: NVML cannot open the GPU at %s\n", PROG, bus);
		exit(1);
	}
}

// ---- the kernels: each runs `reps` steps; block 0's thread 0 writes clock64 and %globaltimer at both ends

struct span {
	long long c0, c1;
	unsigned long long t0, t1;
};
__device__ span g_span;
__device__ const float4 *g_buf; // the memory tests' buffer and its float4s
__device__ size_t g_n4;

__device__ unsigned long long globaltimer()
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}
#define SPAN_BEGIN                                                    \
	long long c0_ = clock64();                                    \
	unsigned long long t0_ = globaltimer();
#define SPAN_END                                                                          \
	if (blockIdx.x == 0 && threadIdx.x == 0)                                          \
		g_span = span{c0_, clock64(), t0_, globaltimer()};

__global__ void k_idle(long long reps, int, float *)
{
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++)
		__nanosleep(1000);
	SPAN_END
}

__global__ void k_ffma(long long reps, int, float *sink)
{
	enum { U = 8 };
	float a[U];
	for (int u = 0; u < U; u++)
		a[u] = threadIdx.x * 0.001f + u;
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++) {
#pragma unroll
		for (int i = 0; i < 16; i++)
#pragma unroll
			for (int u = 0; u < U; u++)
				a[u] = fmaf(a[u], 0.999f, 0.5f);
	}
	SPAN_END
	float s = 0;
	for (int u = 0; u < U; u++)
		s += a[u];
	if (s == 1234.5f)
		sink[0] = s;
}

__global__ void k_lds(long long reps, int, float *sink)
{
	__shared__ float s[4096];
	for (int i = threadIdx.x; i < 4096; i += blockDim.x)
		s[i] = (float)i;
	__syncthreads();
	float acc[8] = {0};
	const float *p = s + (threadIdx.x & 31);
	int o = 0;
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++) {
#pragma unroll
		for (int u = 0; u < 8; u++)
			acc[u] += p[o + 32 * u];
		o = (o + 256) & 3840;
	}
	SPAN_END
	for (int u = 1; u < 8; u++)
		acc[0] += acc[u];
	if (acc[0] == 1234.5f)
		sink[0] = acc[0];
}

// A random f16 pair in (-1, 1): random sign and mantissa, exponent 1-14 (no zero, inf or NaN).
__device__ unsigned rand_f16x2(unsigned x)
{
	x = x * 2654435761u ^ (x >> 15);
	x = x * 2246822519u ^ (x >> 13);
	unsigned lo = (x & 0x83ffu) | ((1 + (x >> 10) % 14) << 10), hi = ((x >> 16) & 0x83ffu) | ((1 + (x >> 26) % 14) << 10);
	return lo | hi << 16;
}

__global__ void k_mma(long long reps, int, float *sink)
{
	enum { U = 4 };
	unsigned a[U][4], b[U][2], seed = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
	float d[U][4];
	for (int u = 0; u < U; u++) {
		for (int i = 0; i < 4; i++) {
			a[u][i] = rand_f16x2(seed + u * 6 + i);
			d[u][i] = 0;
		}
		for (int i = 0; i < 2; i++)
			b[u][i] = rand_f16x2(seed + u * 6 + 4 + i);
	}
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++) {
#pragma unroll
		for (int u = 0; u < U; u++)
			asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
				     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
				     : "+f"(d[u][0]), "+f"(d[u][1]), "+f"(d[u][2]), "+f"(d[u][3])
				     : "r"(a[u][0]), "r"(a[u][1]), "r"(a[u][2]), "r"(a[u][3]), "r"(b[u][0]), "r"(b[u][1]));
	}
	SPAN_END
	float s = 0;
	for (int u = 0; u < U; u++)
		for (int i = 0; i < 4; i++)
			s += d[u][i];
	if (s == 1234.5f)
		sink[0] = s;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// Two random e4m3 bytes from random bits: any sign, exponent and mantissa but S.1111.111, e4m3's NaN.
__device__ unsigned short e4m3x2(unsigned x)
{
	unsigned lo = x & 0xffu, hi = (x >> 8) & 0xffu;
	lo ^= (lo & 0x7fu) == 0x7fu;
	hi ^= (hi & 0x7fu) == 0x7fu;
	return (unsigned short)(lo | hi << 8);
}

__device__ unsigned long long sdesc(const void *p, unsigned lbo, unsigned sbo)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(p);
	return (unsigned long long)((a >> 4) & 0x3fff) | ((unsigned long long)((lbo >> 4) & 0x3fff) << 16) |
	       ((unsigned long long)((sbo >> 4) & 0x3fff) << 32);
}

#define ACC64                                                                                         \
	"{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                     \
	"%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "            \
	"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "            \
	"%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define ACC8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
// As gpu-ceilings' wgmma_data (random f16 tiles, a different A and B for each of four in flight);
// `spin` > 0: a wait of that many clocks (a clock64 loop) after each step of four, which lowers the
// FLOPs per clock (a __nanosleep did not: its lengths are too coarse, the first run's 513 and 1021 ns
// gave the same rate). F8: e4m3
// operands, m64n128k32 (the same bytes a tile, twice the FLOPs), random bytes but no NaN.
template <bool F8>
__global__ void k_wgmma(long long reps, int spin, float *sink)
{
	__shared__ __align__(1024) unsigned short sa[4][64 * 16], sb[4][128 * 16];
	unsigned seed = blockIdx.x * 977u;
	for (int u = 0; u < 4; u++) {
		for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
			sa[u][i] = F8 ? e4m3x2(rand_f16x2(seed + u * 65536 + i)) : (unsigned short)rand_f16x2(seed + u * 65536 + i);
		for (int i = threadIdx.x; i < 128 * 16; i += blockDim.x)
			sb[u][i] = F8 ? e4m3x2(rand_f16x2(seed + u * 65536 + 4096 + i))
				      : (unsigned short)rand_f16x2(seed + u * 65536 + 4096 + i);
	}
	__syncthreads();
	asm volatile("fence.proxy.async.shared::cta;");
	float d[64];
	for (int i = 0; i < 64; i++)
		d[i] = 0;
	unsigned long long da[4], db[4];
	for (int u = 0; u < 4; u++) {
		da[u] = sdesc(sa[u], 128, 256);
		db[u] = sdesc(sb[u], 128, 256);
	}
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++) {
		asm volatile("wgmma.fence.sync.aligned;");
#pragma unroll
		for (int u = 0; u < 4; u++) {
			if constexpr (F8)
				asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n"
					     "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 " ACC64 ", %64, %65, p, 1, 1; }"
					     : ACC8(0), ACC8(8), ACC8(16), ACC8(24), ACC8(32), ACC8(40), ACC8(48), ACC8(56)
					     : "l"(da[u]), "l"(db[u]));
			else
				asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n"
					     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " ACC64 ", %64, %65, p, 1, 1, 0, 0; }"
					     : ACC8(0), ACC8(8), ACC8(16), ACC8(24), ACC8(32), ACC8(40), ACC8(48), ACC8(56)
					     : "l"(da[u]), "l"(db[u]));
		}
		asm volatile("wgmma.commit_group.sync.aligned;");
		asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
		if (spin > 0) {
			long long until = clock64() + spin;
			while (clock64() < until)
				;
		}
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	SPAN_END
	float s = 0;
	for (int i = 0; i < 64; i++)
		s += d[i];
	if (s == 1234.5f)
		sink[0] = s;
}
#else
template <bool F8>
__global__ void k_wgmma(long long, int, float *) {}
#endif

// `reps` passes over g_buf with .cg float4 loads, eight in flight per lane (gpu-bandwidth's read).
__global__ void k_read(long long reps, int, float *sink)
{
	enum { U = 8 };
	float acc[U] = {0};
	const float4 *buf = g_buf;
	size_t n4 = g_n4, stride = (size_t)gridDim.x * blockDim.x;
	SPAN_BEGIN
	for (long long r = 0; r < reps; r++) {
		size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
		for (; i + (U - 1) * stride < n4; i += U * stride) {
			float4 v[U];
#pragma unroll
			for (int u = 0; u < U; u++)
				v[u] = __ldcg(buf + i + u * stride);
#pragma unroll
			for (int u = 0; u < U; u++)
				acc[u] += v[u].x + v[u].y + v[u].z + v[u].w;
		}
	}
	SPAN_END
	float total = 0;
	for (int u = 0; u < U; u++)
		total += acc[u];
	if (total == 1234.5f)
		sink[0] = total;
}

// ---- the host: one launch of about `seconds`, NVML sampled beside it

typedef void (*kern)(long long, int, float *);
struct test {
	const char *name, *unit;
	kern k;
	int threads, blocks_per_sm;
	double work;      // units of work a step, per thread (rates in `unit`); for the memory tests, per pass
	double target;    // wgmma at a fraction of the full test's FLOPs per clock; 0: as fast as it goes
	const char *what; // for the row's command column
	size_t bytes;     // the memory tests' buffer; 0: none
};

struct result {
	double rate, per_clock, mhz_nvml, mhz_timer, watts, launch_ms;
	int samples, knob;
	long long reps;
};

static double median(std::vector<double> v)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

// One launch of reps steps; NVML sampled while it runs when `sample`.
static void launch(const test &t, int sms, long long reps, int knob, float *sink, bool sample, result &r)
{
	std::atomic<bool> run(true);
	std::vector<double> mhz, watts;
	std::thread sampler;
	if (sample)
		sampler = std::thread([&] {
			while (run.load()) {
				unsigned c = 0, p = 0;
				if (nv.clock(nv.dev, NVML_CLOCK_SM, &c) == NVML_SUCCESS && nv.power(nv.dev, &p) == NVML_SUCCESS) {
					mhz.push_back(c);
					watts.push_back(p / 1e3);
				}
				std::this_thread::sleep_for(std::chrono::milliseconds(10));
			}
		});
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaEventRecord(a));
	t.k<<<sms * t.blocks_per_sm, t.threads>>>(reps, knob, sink);
	CHECK(cudaGetLastError());
	CHECK(cudaEventRecord(b));
	CHECK(cudaEventSynchronize(b));
	float ms = 0;
	CHECK(cudaEventElapsedTime(&ms, a, b));
	run = false;
	if (sample)
		sampler.join();
	span s;
	CHECK(cudaMemcpyFromSymbol(&s, g_span, sizeof s));
	r.launch_ms = ms;
	r.reps = reps;
	r.knob = knob;
	r.rate = t.work * (double)reps * sms * t.blocks_per_sm * t.threads / (ms * 1e-3);
	r.mhz_timer = s.t1 > s.t0 ? 1e3 * (double)(s.c1 - s.c0) / (double)(s.t1 - s.t0) : 0;
	r.per_clock = r.mhz_timer > 0 ? r.rate / (r.mhz_timer * 1e6) : 0;
	r.mhz_nvml = median(mhz);
	r.watts = median(watts);
	r.samples = (int)mhz.size();
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
}

// The steps that make one launch about `seconds` long (grown from a short launch).
static long long reps_for(const test &t, int sms, int knob, double seconds, float *sink)
{
	long long reps = t.bytes ? 1 : 1000;
	result r;
	for (int tries = 0; tries < 16; tries++) {
		launch(t, sms, reps, knob, sink, false, r);
		if (r.launch_ms > 1e3 * seconds * 0.5)
			break;
		double f = 1e3 * seconds / (r.launch_ms > 0.01 ? r.launch_ms : 0.01);
		reps = (long long)(reps * (f > 16 ? 16 : f)) + 1;
	}
	return reps;
}

// The wait (clocks a step) that brings the wgmma test to `target` of full_per_clock FLOPs a clock:
// bisection on launches of a tenth of `seconds` (the FLOPs per clock fall as the wait grows).
static int knob_for(const test &t, int sms, double target, double full_per_clock, double seconds, float *sink)
{
	int lo = 0, hi = 20000;
	for (int i = 0; i < 12 && hi - lo > 8; i++) {
		int mid = (lo + hi) / 2;
		long long reps = reps_for(t, sms, mid, seconds / 10, sink);
		result r;
		launch(t, sms, reps, mid, sink, false, r);
		if (r.per_clock > target * full_per_clock)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int main(int argc, char **argv)
{
	int sms = 0, major = 0, minor = 0, l2 = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
	CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	if (!(seconds > 0)) {
		fprintf(stderr, "%s: SECONDS must be a positive number\n", PROG);
		return 2;
	}
	nvml_open(0);
	char gpu[96] = "?", driver[80] = "?";
	nv.name(nv.dev, gpu, sizeof gpu);
	nv.driver(driver, sizeof driver);
	unsigned limit_mw = 0, max_mhz = 0;
	nv.limit(nv.dev, &limit_mw);
	nv.max_clock(nv.dev, NVML_CLOCK_SM, &max_mhz);
	float *sink;
	CHECK(cudaMalloc(&sink, sizeof(float)));
	const test tests[] = {
		{"idle", "steps/s", k_idle, 32, 1, 1, 0, "__nanosleep on every SM, no work", 0},
		{"ffma", "warp-inst/s", k_ffma, 1024, 2, 16 * 8 / 32.0, 0, "independent FFMAs at full rate", 0},
		{"lsu", "wavefronts/s", k_lds, 1024, 2, 8 / 32.0, 0, "conflict-free shared loads at full rate", 0},
		{"mma_data", "FLOP/s", k_mma, 256, 8, 4 * 4096 / 32.0, 0, "mma.sync m16n8k16 on random f16 operands", 0},
		{"wgmma_data", "FLOP/s", k_wgmma<false>, 128, 8, 4 * 2.0 * 64 * 128 * 16 / 128.0, 0,
		 "wgmma m64n128k16 on random f16 tiles, full rate", 0},
		{"wgmma_75", "FLOP/s", k_wgmma<false>, 128, 8, 4 * 2.0 * 64 * 128 * 16 / 128.0, 0.75,
		 "wgmma on random f16 tiles, about 75% of full rate a clock", 0},
		{"wgmma_50", "FLOP/s", k_wgmma<false>, 128, 8, 4 * 2.0 * 64 * 128 * 16 / 128.0, 0.5,
		 "wgmma on random f16 tiles, about 50% of full rate a clock", 0},
		{"wgmma_f8", "FLOP/s", k_wgmma<true>, 128, 8, 4 * 2.0 * 64 * 128 * 32 / 128.0, 0,
		 "wgmma m64n128k32 on random e4m3 tiles, full rate", 0},
		// 256 threads, not 1024: a pass must cover whole strides of eight loads a lane, and a quarter of
		// L2 is smaller than eight of 1024 x 2 x SMs float4s (the first run of this read nothing)
		{"l2", "GB/s", k_read, 256, 2, 0, 0, ".cg float4 reads of a quarter of L2", (size_t)l2 / 4},
		{"dram", "GB/s", k_read, 1024, 2, 0, 0, ".cg float4 reads of 2 GiB", (size_t)2 << 30},
	};
	const int ntests = sizeof tests / sizeof tests[0];
	result res[sizeof tests / sizeof tests[0]];
	bool ran[sizeof tests / sizeof tests[0]] = {};
	double wgmma_full = 0; // FLOPs a clock of the full-rate wgmma test, the others' reference
	time_t now = time(NULL);
	char date[16];
	strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
	for (int i = 0; i < ntests; i++) {
		test t = tests[i];
		bool named = argc <= 2;
		for (int a = 2; a < argc; a++)
			named |= !strcmp(argv[a], t.name);
		if (!named)
			continue;
		if (!strncmp(t.name, "wgmma", 5) && !(major == 9 && minor == 0)) {
			fprintf(stderr, "%s: %s skipped: wgmma needs sm_90\n", PROG, t.name);
			continue;
		}
		float4 *buf = NULL;
		if (t.bytes) {
			size_t n4 = t.bytes / sizeof(float4);
			CHECK(cudaMalloc(&buf, n4 * sizeof(float4)));
			CHECK(cudaMemset(buf, 0, n4 * sizeof(float4)));
			CHECK(cudaMemcpyToSymbol(g_buf, &buf, sizeof buf));
			CHECK(cudaMemcpyToSymbol(g_n4, &n4, sizeof n4));
			// a pass reads the whole buffer once (k_read's loop covers whole strides of eight)
			size_t stride = (size_t)sms * t.blocks_per_sm * t.threads, whole = n4 / (8 * stride) * (8 * stride);
			t.work = (double)whole * 16 / 1e9 / ((double)sms * t.blocks_per_sm * t.threads);
			if (whole == 0) {
				fprintf(stderr, "%s: %s: %zu bytes are fewer than one pass of the grid's loads\n", PROG, t.name,
					t.bytes);
				exit(1);
			}
		}
		int knob = 0;
		if (t.target > 0) {
			if (!(wgmma_full > 0)) {
				fprintf(stderr, "%s: %s skipped: it needs wgmma_data first\n", PROG, t.name);
				continue;
			}
			knob = knob_for(t, sms, t.target, wgmma_full, seconds, sink);
		}
		long long reps = reps_for(t, sms, knob, seconds, sink);
		launch(t, sms, reps, knob, sink, false, res[i]);  // the warm-up: the clock settles under the cap
		launch(t, sms, reps, knob, sink, true, res[i]);   // the measured launch
		ran[i] = true;
		if (!strcmp(t.name, "wgmma_data"))
			wgmma_full = res[i].per_clock;
		if (buf)
			CHECK(cudaFree(buf));
		const result &r = res[i];
		const char *fmt = "%s\t%s\t%s\tbuild/gpu-power %g (scripts/gpu-power.sh): %s; %.0f ms, %d NVML samples, "
				  "clock64 over %%globaltimer %.0f MHz%s\t0\t0\tpower_%s_%s\t%.4g\t%s\n";
		char extra[64] = "";
		if (knob)
			snprintf(extra, sizeof extra, ", a wait of %d clocks a step", knob);
		printf(fmt, gpu, driver, date, seconds, t.what, r.launch_ms, r.samples, r.mhz_timer, extra, t.name, "w",
		       r.watts, "W");
		printf(fmt, gpu, driver, date, seconds, t.what, r.launch_ms, r.samples, r.mhz_timer, extra, t.name, "mhz",
		       r.mhz_nvml, "count");
		if (t.k != k_idle) // the idle board does no work: no rate
			printf(fmt, gpu, driver, date, seconds, t.what, r.launch_ms, r.samples, r.mhz_timer, extra, t.name,
			       "rate", r.rate, t.unit);
		fflush(stdout);
	}
	printf("%s\t%s\t%s\tbuild/gpu-power (scripts/gpu-power.sh): nvmlDeviceGetEnforcedPowerLimit\t0\t0\tpower_limit_w\t%.4g\tW\n",
	       gpu, driver, date, limit_mw / 1e3);
	printf("%s\t%s\t%s\tbuild/gpu-power (scripts/gpu-power.sh): nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM)\t0\t0\tpower_max_mhz\t%u\tcount\n",
	       gpu, driver, date, max_mhz);
	printf("\n%s, sm_%d%d, %d SMs, power limit %.0f W, max SM clock %u MHz, %.1f s a test\n", gpu, major, minor, sms,
	       limit_mw / 1e3, max_mhz, seconds);
	printf("%-11s %12s %-13s %11s %9s %9s %8s %7s\n", "test", "rate", "unit", "per clock", "MHz nvml", "MHz timer", "W",
	       "wait");
	for (int i = 0; i < ntests; i++)
		if (ran[i])
			printf("%-11s %12.4g %-13s %11.4g %9.0f %9.0f %8.1f %7d\n", tests[i].name, res[i].rate, tests[i].unit,
			       res[i].per_clock, res[i].mhz_nvml, res[i].mhz_timer, res[i].watts, res[i].knob);
	CHECK(cudaFree(sink));
	return 0;
}
