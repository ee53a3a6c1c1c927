// gpu-bandwidth: measures the L2 -> SM, shared-memory and DRAM read bandwidth of the GPU it runs on,
// for assets/gpus.tsv's l2_gbs, smem_gbs and bw_gbs (built by `make gpu-bandwidth`, run by
// scripts/gpu-bandwidth.sh). Each test reads with every SM, many times, and keeps the best of 7 runs.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define PROG "gpu-bandwidth"
#include "gpu_check.h"

// Reads n4 float4 `reps` times with .cg loads (L2 only, never L1): after the first pass a buffer
// smaller than L2 is served by L2, so the rate is L2 -> SM bandwidth; a buffer far larger than L2
// measures DRAM.
__global__ void read_global(const float4 *buf, size_t n4, int reps, float *sink)
{
	// Eight independent loads in flight per lane per step (one accumulator each), so the rate
	// is the memory system's, not one dependent chain's latency.
	enum { U = 8 };
	float acc[U] = {0};
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (int r = 0; r < reps; r++) {
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
		for (; i < n4; i += stride) {
			float4 v = __ldcg(buf + i);
			acc[0] += v.x + v.y + v.z + v.w;
		}
	}
	float total = 0;
	for (int u = 0; u < U; u++)
		total += acc[u];
	if (total == 1234.5f) // never true: keeps the loads
		sink[0] = total;
}

// Reads 16 bytes a lane from shared memory, consecutive lanes consecutive float4s (no bank
// conflict: a warp's 512 bytes are 4 wavefronts of 128 bytes).
__global__ void read_shared(int reps, float *sink)
{
	__shared__ float4 s[2048];
	for (int i = threadIdx.x; i < 2048; i += blockDim.x)
		s[i] = make_float4((float)i, 1, 2, 3);
	__syncthreads();
	float acc = 0;
	int at = threadIdx.x;
#pragma unroll 8
	for (int r = 0; r < reps; r++) {
		float4 v = s[(at + 32 * r) & 2047];
		acc += v.x + v.y + v.z + v.w;
	}
	if (acc == 1234.5f)
		sink[0] = acc;
}

static float best_ms(void (*launch)(void *), void *arg)
{
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	launch(arg); // warm-up, and fills L2
	CHECK(cudaDeviceSynchronize());
	float best = 1e30f;
	for (int i = 0; i < 7; i++) {
		float ms;
		CHECK(cudaEventRecord(a));
		launch(arg);
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (ms < best)
			best = ms;
	}
	return best;
}

struct global_arg {
	const float4 *buf;
	size_t n4;
	int reps, blocks;
	float *sink;
};
static void launch_global(void *p)
{
	global_arg *g = (global_arg *)p;
	read_global<<<g->blocks, 512>>>(g->buf, g->n4, g->reps, g->sink);
	CHECK(cudaGetLastError());
}

struct shared_arg {
	int reps, blocks;
	float *sink;
};
static void launch_shared(void *p)
{
	shared_arg *s = (shared_arg *)p;
	read_shared<<<s->blocks, 1024>>>(s->reps, s->sink);
	CHECK(cudaGetLastError());
}

int main(void)
{
	int dev = 0, sms = 0, khz = 0, l2 = 0;
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, dev));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
	CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	float *sink;
	CHECK(cudaMalloc(&sink, sizeof(float)));
	printf("gpu %s, %d SMs, max clock %d MHz, L2 %d KiB\n", prop.name, sms, khz / 1000, l2 / 1024);

	// L2: a quarter of L2 (well inside it, and inside one partition's half on H100), read 200 times.
	size_t l2_bytes = (size_t)l2 / 4 / 16 * 16;
	float4 *buf;
	size_t dram_bytes = (size_t)2 << 30;
	CHECK(cudaMalloc(&buf, dram_bytes));
	CHECK(cudaMemset(buf, 0, dram_bytes));
	global_arg gl = {buf, l2_bytes / 16, 200, sms * 4, sink};
	float l2_ms = best_ms(launch_global, &gl);
	double l2_gbs = (double)l2_bytes * gl.reps / (l2_ms * 1e6);

	global_arg dr = {buf, dram_bytes / 16, 1, sms * 4, sink};
	float dr_ms = best_ms(launch_global, &dr);
	double dram_gbs = (double)dram_bytes / (dr_ms * 1e6);

	shared_arg sh = {4096, sms * 2, sink};
	float sh_ms = best_ms(launch_shared, &sh);
	double sh_gbs = (double)sh.blocks * 1024 * 16 * sh.reps / (sh_ms * 1e6);

	double per_clk = 1e9 / (sms * (khz * 1e3)); // GB/s -> bytes per SM per clock at the max clock
	printf("\n%-10s %12s %16s\n", "level", "GB/s", "B/clk/SM (max)");
	printf("%-10s %12.0f %16.1f\n", "DRAM", dram_gbs, dram_gbs * per_clk);
	printf("%-10s %12.0f %16.1f\n", "L2", l2_gbs, l2_gbs * per_clk);
	printf("%-10s %12.0f %16.1f\n", "shared", sh_gbs, sh_gbs * per_clk);
	CHECK(cudaFree(buf));
	CHECK(cudaFree(sink));
	return 0;
}
