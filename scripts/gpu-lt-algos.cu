// gpu-lt-algos: what NVIDIA's own kernels reach for one GEMM on this GPU (issue 27's peer for lesson 8).
// Every cuBLASLt algorithm and configuration (tile, stages) that cublasLtMatmulAlgoCheck accepts for
// f16 x f16 -> f32 (f32 compute, column-major N x N, no transposes: the shape `bench 8` asks cuBLAS for)
// is run once with CUPTI watching, which gives the name of the kernel it launched, and timed in a short
// burst. Then the fastest configurations of each kind of kernel named on the command line (a substring
// of the kernel name: sm80 for the mma.sync kernels cuBLASLt ships for Ampere and runs on Hopper, sm90
// for the wgmma ones) are timed steady: after SECONDS of the same work, the median of 7 blocks of about
// 25 ms, as `ptxtutor bench` times. Prints one row per configuration; timing only, no check of C.
//   build/gpu-lt-algos [N] [SECONDS] [TOP] [KIND...]      (4096, 1.0, 4, sm80 sm90)
// With --ptx FILE ENTRY BM BN THREADS SMEM first (a kernel of the course's ABI, f16 in, f32 out, grid
// N/BN x N/BM), the fastest configuration of the first KIND is timed against that kernel instead, side
// by side: after SECONDS of each, 7 rounds of a block of ours then a block of theirs, medians.
// Built by `make gpu-lt-algos` (nvcc, cuBLASLt, CUPTI); docs/benchmarks.md has what it measured.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <cublasLt.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cupti.h>

#define PROG "gpu-lt-algos"
#include "gpu_check.h"
#define CHECKL(x)                                                                          \
	do {                                                                               \
		cublasStatus_t s_ = (x);                                                   \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
			fprintf(stderr, "gpu-lt-algos: %s: status %d\n", #x, (int)s_);     \
			exit(1);                                                           \
		}                                                                          \
	} while (0)

static char launched[512]; // the kernel the last watched launch started (CUPTI)

static void CUPTIAPI on_api(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *data)
{
	const CUpti_CallbackData *cb = (const CUpti_CallbackData *)data;
	if (cb->callbackSite == CUPTI_API_ENTER && cb->symbolName)
		snprintf(launched, sizeof launched, "%s", cb->symbolName);
}

struct gemm {
	cublasLtHandle_t lt;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t a, b, c;
	void *A, *B, *C, *ws;
	size_t ws_bytes;
	float one = 1, zero = 0;
	cudaStream_t s;
	cublasStatus_t run(const cublasLtMatmulAlgo_t *algo)
	{
		return cublasLtMatmul(lt, op, &one, A, a, B, b, &zero, C, c, C, c, algo, ws, ws_bytes, s);
	}
};

struct config {
	int id, tile, stages;
	cublasLtMatmulAlgo_t algo;
	std::string kernel;
	double burst_ms = 0, steady_ms = 0;
};

// Milliseconds a launch, over n launches back to back between one pair of events.
template <class Launch> static double time_ms(cudaStream_t s, int n, Launch launch)
{
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	CHECK(cudaEventRecord(e0, s));
	for (int i = 0; i < n; i++)
		launch();
	CHECK(cudaEventRecord(e1, s));
	CHECK(cudaEventSynchronize(e1));
	float ms = 0;
	CHECK(cudaEventElapsedTime(&ms, e0, e1));
	CHECK(cudaEventDestroy(e0));
	CHECK(cudaEventDestroy(e1));
	return ms / n;
}

static double time_ms(gemm &g, const cublasLtMatmulAlgo_t *algo, int n)
{
	return time_ms(g.s, n, [&] { g.run(algo); });
}

// Steady: SECONDS of the same work untimed, then the median of 7 blocks of about 25 ms.
static double steady_ms(gemm &g, const cublasLtMatmulAlgo_t *algo, double seconds, double burst)
{
	int per_block = std::max(1, (int)(25.0 / burst));
	time_ms(g, algo, std::max(1, (int)(seconds * 1e3 / burst)));
	std::vector<double> t;
	for (int r = 0; r < 7; r++)
		t.push_back(time_ms(g, algo, per_block));
	std::sort(t.begin(), t.end());
	return t[3];
}

static std::vector<config> configs(gemm &g)
{
	int ids[256], n = 0;
	CHECKL(cublasLtMatmulAlgoGetIds(g.lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F,
					CUDA_R_32F, 256, ids, &n));
	std::vector<config> out;
	for (int i = 0; i < n; i++) {
		cublasLtMatmulAlgo_t algo;
		if (cublasLtMatmulAlgoInit(g.lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F,
					   CUDA_R_32F, ids[i], &algo) != CUBLAS_STATUS_SUCCESS)
			continue;
		uint32_t tiles[128], stages[128];
		size_t nt = 0, ns = 0;
		cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, tiles, sizeof tiles, &nt);
		cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_STAGES_IDS, stages, sizeof stages, &ns);
		nt /= sizeof tiles[0];
		ns /= sizeof stages[0];
		if (!nt)
			tiles[nt++] = CUBLASLT_MATMUL_TILE_UNDEFINED;
		if (!ns)
			stages[ns++] = CUBLASLT_MATMUL_STAGES_UNDEFINED;
		for (size_t t = 0; t < nt; t++)
			for (size_t s = 0; s < ns; s++) {
				config c{ids[i], (int)tiles[t], (int)stages[s], algo};
				cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tiles[t],
								     sizeof tiles[t]);
				cublasLtMatmulAlgoConfigSetAttribute(&c.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages[s],
								     sizeof stages[s]);
				cublasLtMatmulHeuristicResult_t res;
				if (cublasLtMatmulAlgoCheck(g.lt, g.op, g.a, g.b, g.c, g.c, &c.algo, &res) ==
					    CUBLAS_STATUS_SUCCESS &&
				    res.workspaceSize <= g.ws_bytes)
					out.push_back(c);
			}
	}
	return out;
}

// The course's kernel: PTX JIT-compiled by the driver, launched on gemm g's buffers (A and B read as
// row-major N x N f16, C written as row-major f32: for timing, the same bytes).
struct ptx_kernel {
	CUfunction f;
	unsigned gx, gy, threads, smem;
};

static ptx_kernel load_ptx(char **a)
{
	FILE *f = fopen(a[0], "rb");
	if (!f) {
		fprintf(stderr, "gpu-lt-algos: %s: cannot read\n", a[0]);
		exit(1);
	}
	std::string text;
	for (int ch; (ch = fgetc(f)) != EOF;)
		text += (char)ch;
	fclose(f);
	CHECK(cudaFree(0)); // the runtime's context, which the driver calls below use
	CUmodule m;
	ptx_kernel k{};
	if (cuModuleLoadData(&m, text.c_str()) != CUDA_SUCCESS || cuModuleGetFunction(&k.f, m, a[1]) != CUDA_SUCCESS) {
		fprintf(stderr, "gpu-lt-algos: %s: the JIT or entry %s failed\n", a[0], a[1]);
		exit(1);
	}
	k.gx = atoi(a[3]), k.gy = atoi(a[2]), k.threads = atoi(a[4]), k.smem = atoi(a[5]);
	cuFuncSetAttribute(k.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)k.smem);
	return k;
}

static double time_ptx_ms(gemm &g, const ptx_kernel &k, unsigned N, int n)
{
	unsigned M = N, K = N;
	void *args[] = {&g.A, &g.B, &g.C, &M, &N, &K};
	return time_ms(g.s, n, [&] {
		if (cuLaunchKernel(k.f, N / k.gx, N / k.gy, 1, k.threads, 1, 1, k.smem, g.s, args, nullptr) != CUDA_SUCCESS) {
			fprintf(stderr, "gpu-lt-algos: the PTX kernel did not launch\n");
			exit(1);
		}
	});
}

// Ours and theirs side by side, as `ptxtutor bench` times ours and cuBLAS.
static void side_by_side(gemm &g, const ptx_kernel &k, const config &c, int N, double seconds)
{
	double ours = time_ptx_ms(g, k, N, 3), theirs = time_ms(g, &c.algo, 3);
	int bo = std::max(1, (int)(25.0 / ours)), bt = std::max(1, (int)(25.0 / theirs));
	time_ptx_ms(g, k, N, std::max(1, (int)(seconds * 1e3 / ours)));
	time_ms(g, &c.algo, std::max(1, (int)(seconds * 1e3 / theirs)));
	std::vector<double> to, tt;
	for (int r = 0; r < 7; r++) {
		to.push_back(time_ptx_ms(g, k, N, bo));
		tt.push_back(time_ms(g, &c.algo, bt));
	}
	std::sort(to.begin(), to.end());
	std::sort(tt.begin(), tt.end());
	double flop = 2.0 * N * N * (double)N;
	printf("ours   %10.4f ms %9.1f TFLOP/s  spread %.1f%%\n", to[3], flop / to[3] / 1e9,
	       100 * (to[6] - to[0]) / to[3]);
	printf("theirs %10.4f ms %9.1f TFLOP/s  spread %.1f%%  %s\n", tt[3], flop / tt[3] / 1e9,
	       100 * (tt[6] - tt[0]) / tt[3], c.kernel.c_str());
	printf("ours / theirs: %.1f%% of their speed\n", 100 * tt[3] / to[3]);
}

int main(int argc, char **argv)
{
	char **ptx = nullptr;
	if (argc > 7 && !strcmp(argv[1], "--ptx")) {
		ptx = argv + 2;
		argv += 7;
		argc -= 7;
	}
	int N = argc > 1 ? atoi(argv[1]) : 4096, top = argc > 3 ? atoi(argv[3]) : 4;
	double seconds = argc > 2 ? atof(argv[2]) : 1.0;
	std::vector<std::string> kinds;
	for (int i = 4; i < argc; i++)
		kinds.push_back(argv[i]);
	if (kinds.empty())
		kinds = {"sm80", "sm90"};
	double flop = 2.0 * N * N * (double)N;

	gemm g;
	g.ws_bytes = 32 << 20;
	CHECK(cudaStreamCreate(&g.s));
	CHECK(cudaMalloc(&g.A, (size_t)N * N * 2));
	CHECK(cudaMalloc(&g.B, (size_t)N * N * 2));
	CHECK(cudaMalloc(&g.C, (size_t)N * N * 4));
	CHECK(cudaMalloc(&g.ws, g.ws_bytes));
	std::vector<__half> h((size_t)N * N);
	srand(1);
	for (auto &x : h)
		x = __float2half((float)rand() / RAND_MAX * 2 - 1);
	CHECK(cudaMemcpy(g.A, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(g.B, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
	CHECKL(cublasLtCreate(&g.lt));
	CHECKL(cublasLtMatmulDescCreate(&g.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
	CHECKL(cublasLtMatrixLayoutCreate(&g.a, CUDA_R_16F, N, N, N));
	CHECKL(cublasLtMatrixLayoutCreate(&g.b, CUDA_R_16F, N, N, N));
	CHECKL(cublasLtMatrixLayoutCreate(&g.c, CUDA_R_32F, N, N, N));

	CUpti_SubscriberHandle sub;
	if (cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_api, nullptr) != CUPTI_SUCCESS) {
		fprintf(stderr, "gpu-lt-algos: CUPTI is not available (libcupti on LD_LIBRARY_PATH?)\n");
		return 1;
	}
	ptx_kernel k{};
	if (ptx)
		k = load_ptx(ptx);
	std::vector<config> all = configs(g), ran;
	for (config &c : all) { // one watched launch for the kernel's name, then a burst of 3
		launched[0] = 0;
		cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API);
		cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
		cublasStatus_t st = g.run(&c.algo);
		CHECK(cudaStreamSynchronize(g.s));
		cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_DRIVER_API);
		cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
		if (st != CUBLAS_STATUS_SUCCESS || !launched[0])
			continue;
		c.kernel = launched;
		c.burst_ms = time_ms(g, &c.algo, 3);
		ran.push_back(c);
	}
	std::sort(ran.begin(), ran.end(), [](const config &x, const config &y) { return x.burst_ms < y.burst_ms; });
	printf("%d configurations ran (of %zu accepted), %dx%dx%d f16 x f16 -> f32\n", (int)ran.size(), all.size(), N,
	       N, N);
	std::vector<std::string> seen; // every kernel once, fastest configuration first
	for (const config &c : ran)
		if (std::find(seen.begin(), seen.end(), c.kernel) == seen.end()) {
			seen.push_back(c.kernel);
			printf("  %8.1f TFLOP/s burst  %s\n", flop / c.burst_ms / 1e9, c.kernel.c_str());
		}
	if (ptx) {
		for (config &c : ran)
			if (c.kernel.find(kinds[0]) != std::string::npos) {
				side_by_side(g, k, c, N, seconds);
				return 0;
			}
		fprintf(stderr, "gpu-lt-algos: no kernel named *%s* ran\n", kinds[0].c_str());
		return 1;
	}
	printf("%-6s %4s %4s %6s %10s %10s %9s  %s\n", "kind", "algo", "tile", "stages", "burst ms", "steady ms",
	       "TFLOP/s", "kernel");
	for (const std::string &kind : kinds) {
		int shown = 0;
		for (config &c : ran) {
			if (c.kernel.find(kind) == std::string::npos || shown++ >= top)
				continue;
			c.steady_ms = steady_ms(g, &c.algo, seconds, c.burst_ms);
			printf("%-6s %4d %4d %6d %10.4f %10.4f %9.1f  %s\n", kind.c_str(), c.id, c.tile, c.stages,
			       c.burst_ms, c.steady_ms, flop / c.steady_ms / 1e9, c.kernel.c_str());
			fflush(stdout);
		}
		if (!shown)
			printf("%-6s none of the %d kernels that ran has it in its name\n", kind.c_str(), (int)ran.size());
	}
	return 0;
}
