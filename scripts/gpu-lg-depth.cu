// gpu-lg-depth: how many global loads an SM holds before its warps wait at LG throttle (the stall model's
// LG queue, docs/model.md "Stall reasons", item 4). One block an SM of WARPS warps (past 32, hit and fill
// only: two blocks an SM of WARPS / 2, both resident, the second reading the first's lines; BLOCK_WARPS=B in
// the environment: blocks of B warps, WARPS / B of them an SM); each warp issues N
// independent loads back to back, each touching W 128-byte lines (lane l: line l % W), then adds them up
// and goes round again. MODE hit: every round reads the same N x W lines (all warps alike), so every line is
// an L1 hit; MODE miss: each warp and round reads fresh lines of an 8 MB ring that every SM walks alike, so
// every line misses the L1 (216 KB) and hits the L2; MODE fill: each round fresh lines of the ring, the same
// for all the block's warps, so the first warp to a line misses and the others find it there or on its way
// (a hit on a fill in flight). Run under Nsight Compute, which says where the warps wait (WarpStateStats):
//     ncu --section WarpStateStats --metrics l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,sm__cycles_elapsed.avg \
//         --page raw --csv build/gpu-lg-depth W N WARPS MODE
// scripts/gpu-lg-depth.sh runs the grid of shapes and prints each one's share of LG throttle and long
// scoreboard, the L1's hit rate, its data stage's wavefronts a cycle and the SM cycles a round.
// The kernels are extern "C" so that the stall model replays the same code: scripts/lg-depth-model.py runs
// `ptxtutor emulate --ptx` on this file's PTX (nvcc -ptx) for the same shapes.
#define PROG "gpu-lg-depth"
#include <cstdlib>
#include <cstring>
#include "gpu_check.h"

#define RING_LINES 65536 // 8 MB: far past the L1, well inside the L2

// mask is 0 (MODE hit) or RING_LINES - 1 (MODE miss, fill): ptxas cannot see which, so it keeps every round's
// loads; own is 1 where each warp reads lines of its own (miss), 0 where the block's warps share them (fill)
template <int N> __device__ void burst(const float *buf, int w, int rounds, int mask, int own, float *out)
{
	int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) * own, warps = own ? blockDim.x / 32 : 1;
	const float *p = buf + (lane % w) * 32 + lane / w; // lane l reads line l % w of each load's w lines
	float sum = 0;
	for (int r = 0; r < rounds; r++) {
		const float *q = p + (size_t)(((r * warps + warp) * N * w) & mask) * 32;
		float v[N];
#pragma unroll
		for (int i = 0; i < N; i++)
			asm volatile("ld.global.f32 %0, [%1];" : "=f"(v[i]) : "l"(q + i * w * 32));
#pragma unroll
		for (int i = 0; i < N; i++)
			sum += v[i];
	}
	if (sum == 12345.0f) // never: keeps the loads
		out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

#define KERNEL(n) \
	extern "C" __global__ void burst##n(const float *buf, int w, int rounds, int mask, int own, float *out) \
	{ burst<n>(buf, w, rounds, mask, own, out); }
KERNEL(4)
KERNEL(8)
KERNEL(16)
KERNEL(32)

int main(int argc, char **argv)
{
	if (argc != 5 || (strcmp(argv[4], "hit") && strcmp(argv[4], "miss") && strcmp(argv[4], "fill"))) {
		fprintf(stderr, "usage: %s W N WARPS hit|miss|fill  (W lines a load: 1..32; N loads a burst: 4, 8, 16, 32; "
			"WARPS an SM: 1..32, or 34..64 even for hit and fill)\n", PROG);
		return 2;
	}
	int w = atoi(argv[1]), n = atoi(argv[2]), warps = atoi(argv[3]), sms;
	int own = !strcmp(argv[4], "miss"), mask = strcmp(argv[4], "hit") ? RING_LINES - 1 : 0;
	int per_sm = warps > 32 ? 2 : 1; // blocks an SM
	if (getenv("BLOCK_WARPS") && atoi(getenv("BLOCK_WARPS")) > 0)
		per_sm = warps / atoi(getenv("BLOCK_WARPS"));
	if (w < 1 || w > 32 || warps < 1 || warps > 64 || per_sm < 1 || warps % per_sm || (per_sm > 1 && own)) {
		fprintf(stderr, "%s: W must be 1..32 and WARPS 1..32 (34..64 even, not for miss)\n", PROG);
		return 2;
	}
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	float *buf, *out;
	size_t bytes = (size_t)RING_LINES * 128 + 32 * 32 * 128;
	CHECK(cudaMalloc(&buf, bytes));
	CHECK(cudaMemset(buf, 0, bytes));
	CHECK(cudaMalloc(&out, (size_t)sms * warps * 32 * sizeof(float)));
	int rounds = 256, grid = sms * per_sm, threads = warps / per_sm * 32;
	switch (n) {
	case 4: burst4<<<grid, threads>>>(buf, w, rounds, mask, own, out); break;
	case 8: burst8<<<grid, threads>>>(buf, w, rounds, mask, own, out); break;
	case 16: burst16<<<grid, threads>>>(buf, w, rounds, mask, own, out); break;
	case 32: burst32<<<grid, threads>>>(buf, w, rounds, mask, own, out); break;
	default: fprintf(stderr, "%s: N must be 4, 8, 16 or 32\n", PROG); return 2;
	}
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	printf("W %d N %d warps %d %s: %d blocks, ok\n", w, n, warps, argv[4], grid);
	return 0;
}
