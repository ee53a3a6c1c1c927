// gpu-lg-depth: how many global loads an SM holds before its warps wait at LG throttle (the stall model's
// LG queue, docs/model.md "Stall reasons", item 4). One block an SM of WARPS warps; each warp issues N
// independent loads back to back, each touching W 128-byte lines (lane l: line l % W), then adds them up
// and goes round again, 256 times, every line an L1 hit (all warps read the same N x W lines). Run under
// Nsight Compute, which says where the warps wait (WarpStateStats):
//     ncu --section WarpStateStats --metrics l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,sm__cycles_elapsed.avg \
//         --page raw --csv build/gpu-lg-depth W N WARPS
// scripts/gpu-lg-depth.sh runs the grid of W, N and WARPS and prints each one's share of LG throttle and
// long scoreboard beside the wavefronts the SM's warps had asked for at once (WARPS x N x W).
#define PROG "gpu-lg-depth"
#include "gpu_check.h"

template <int N> __global__ void burst(const float *buf, int w, int rounds, int zero, float *out)
{
	int lane = threadIdx.x % 32;
	const float *p = buf + (lane % w) * 32 + lane / w; // lane l reads line l % w of each load's w lines
	float sum = 0;
	for (int r = 0; r < rounds; r++) {
		const float *q = p + r * zero; // the same lines every round, which ptxas cannot see (zero is 0)
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

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s W N WARPS  (W lines a load: 1..32; N loads a burst: 4, 8, 16, 32; WARPS an SM)\n", PROG);
		return 2;
	}
	int w = atoi(argv[1]), n = atoi(argv[2]), warps = atoi(argv[3]), sms;
	if (w < 1 || w > 32 || warps < 1 || warps > 32) {
		fprintf(stderr, "%s: W must be 1..32 and WARPS 1..32\n", PROG);
		return 2;
	}
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	float *buf, *out;
	CHECK(cudaMalloc(&buf, 32 * 32 * 128 + 8));
	CHECK(cudaMemset(buf, 0, 32 * 32 * 128 + 8));
	CHECK(cudaMalloc(&out, (size_t)sms * warps * 32 * sizeof(float)));
	int rounds = 256;
	switch (n) {
	case 4: burst<4><<<sms, warps * 32>>>(buf, w, rounds, 0, out); break;
	case 8: burst<8><<<sms, warps * 32>>>(buf, w, rounds, 0, out); break;
	case 16: burst<16><<<sms, warps * 32>>>(buf, w, rounds, 0, out); break;
	case 32: burst<32><<<sms, warps * 32>>>(buf, w, rounds, 0, out); break;
	default: fprintf(stderr, "%s: N must be 4, 8, 16 or 32\n", PROG); return 2;
	}
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	printf("W %d N %d warps %d: %d blocks, ok\n", w, n, warps, sms);
	return 0;
}
