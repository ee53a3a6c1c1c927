// gpu-cublas-timing: why cuBLAS's time for one GEMM varies between runs (issue 27). Times
// cublasGemmEx (f16 in, f32 out, f32 compute, 4096^3 unless told) in ways that differ by one thing
// each, and prints the median and spread of each:
//   block        N calls back to back, one event pair around each
//   block-burst  the same, the GPU idle for 2 s first (a burst: the clock starts at its maximum)
//   alt-smem     each call after a kernel that asks for 200 KiB of shared memory (another carve-out)
//   alt-nosmem   each call after a kernel of the same length that uses none
//   offset-16    A, B and C 16 bytes past a 256-byte boundary (cuBLAS checks alignment per call)
//   steady       after 3 s of back-to-back calls (the power limit reached), then as block
// Built by `make gpu-cublas-timing` (nvcc, links cuBLAS); run by scripts/gpu-cublas-timing.sh.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define PROG "gpu-cublas-timing"
#include "gpu_check.h"
#define CHECKB(x)                                                                        \
	do {                                                                             \
		cublasStatus_t s_ = (x);                                                 \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                       \
			fprintf(stderr, "gpu-cublas-timing: %s: status %d\n", #x, (int)s_); \
			exit(1);                                                         \
		}                                                                        \
	} while (0)

// A kernel that only waits about `ns` nanoseconds, with or without a large shared-memory carve-out.
__global__ void wait_kernel(long long ns)
{
	extern __shared__ char s[];
	long long t0;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	for (;;) {
		long long t;
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		if (t - t0 > ns)
			break;
	}
	if (threadIdx.x == 0 && ns < 0)
		s[0] = 1;
}

struct gemm {
	cublasHandle_t h;
	int n;
	const void *A, *B;
	void *C;
};

static void call(const gemm &g)
{
	float one = 1, zero = 0;
	// row-major C = A*B is column-major C^T = B^T * A^T: B first, as the runner calls it
	CHECKB(cublasGemmEx(g.h, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.n, g.n, &one, g.B, CUDA_R_16F, g.n, g.A, CUDA_R_16F,
			    g.n, &zero, g.C, CUDA_R_32F, g.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

static void report(const char *name, std::vector<float> t, double flop)
{
	std::sort(t.begin(), t.end());
	float med = t[t.size() / 2], lo = t[t.size() / 10], hi = t[t.size() * 9 / 10];
	printf("%-12s %6zu calls  median %.4f ms (%.0f TFLOP/s)  p10 %.4f  p90 %.4f  spread %.1f%%\n", name, t.size(),
	       med, flop / (med * 1e-3) / 1e12, lo, hi, 100.0 * (hi - lo) / med);
	fflush(stdout);
}

// Times n calls of g; before each, `before` (may be NULL) runs the wait kernel with smem bytes.
static std::vector<float> timed(const gemm &g, int n, int before_smem, long long before_ns)
{
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	std::vector<float> t;
	for (int i = 0; i < n; i++) {
		if (before_smem >= 0)
			wait_kernel<<<132, 128, before_smem>>>(before_ns);
		CHECK(cudaEventRecord(a));
		call(g);
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms);
	}
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	return t;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4096, calls = argc > 2 ? atoi(argv[2]) : 200;
	double flop = 2.0 * n * n * n;
	size_t ab = (size_t)n * n * sizeof(__half), cb = (size_t)n * n * sizeof(float);
	char *A, *B, *C;
	CHECK(cudaMalloc(&A, ab + 256));
	CHECK(cudaMalloc(&B, ab + 256));
	CHECK(cudaMalloc(&C, cb + 256));
	std::vector<__half> h((size_t)n * n);
	for (size_t i = 0; i < h.size(); i++)
		h[i] = __float2half((float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f);
	CHECK(cudaMemcpy(A, h.data(), ab, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B, h.data(), ab, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(A + 256, h.data(), ab - 256, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(B + 256, h.data(), ab - 256, cudaMemcpyHostToDevice));
	CHECK(cudaFuncSetAttribute(wait_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
	gemm g;
	CHECKB(cublasCreate(&g.h));
	g.n = n, g.A = A, g.B = B, g.C = C;
	printf("cublasGemmEx f16 x f16 -> f32, %d^3, %d calls a mode\n", n, calls);

	timed(g, 20, -1, 0); // load the library's kernels
	sleep(2);
	report("block-burst", timed(g, calls, -1, 0), flop);
	report("block", timed(g, calls, -1, 0), flop);
	long long ns = 200000; // about one lesson-8 launch
	report("alt-smem", timed(g, calls, 200 * 1024, ns), flop);
	report("alt-nosmem", timed(g, calls, 0, ns), flop);
	gemm o = g;
	o.A = A + 16, o.B = B + 16, o.C = C + 16;
	report("offset-16", timed(o, calls, -1, 0), flop);
	// steady: 3 s of calls first
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	float ms = 0;
	CHECK(cudaEventRecord(e0));
	while (ms < 3000) {
		for (int i = 0; i < 50; i++)
			call(g);
		CHECK(cudaEventRecord(e1));
		CHECK(cudaEventSynchronize(e1));
		CHECK(cudaEventElapsedTime(&ms, e0, e1));
	}
	report("steady", timed(g, calls, -1, 0), flop);
	report("steady-alt", timed(g, calls, 200 * 1024, ns), flop);
	CHECKB(cublasDestroy(g.h));
	return 0;
}
