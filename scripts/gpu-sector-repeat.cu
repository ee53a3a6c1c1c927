// gpu-sector-repeat: what a warp's K loads of one sector cost while its fill is on the way (issue 41: low_occ's
// tile copy reads each lane's 32 bytes of A as eight 4-byte loads, and ncu has its third load's shared store
// waiting a second whole latency). One warp; lane l reads its own 128-byte line (lanes STRIDE bytes apart,
// STRIDE 128: a coalesced row, 4096: a column, each lane a line of its own), K loads back to back at byte
// offsets 0, 4, 8, ... of its first sector (K <= 8), then sums them; clock64 before the first load and after
// the sum, cycles in the median of 15 rounds, each on lines no round has touched, brought into the L2 just
// before by ld.global.cg (which leaves the L1 out): every first load misses the L1 and hits the L2.
// Prints the cycles for K = 1..8 at each stride and, as a check, K loads of K different sectors of the line.
//   make gpu-sector-repeat && build/gpu-sector-repeat
#define PROG "gpu-sector-repeat"
#include <algorithm>
#include <cstring>
#include "gpu_check.h"

#define ROUNDS 15

// step: bytes between a lane's loads (4: one sector; 32: a sector each)
template <int K> __global__ void repeat(const char *buf, long long stride, int step, long long *cyc, float *out)
{
	const char *p = buf + threadIdx.x * stride;
	float v[8];
	long long t0 = clock64();
#pragma unroll
	for (int i = 0; i < K; i++)
		asm volatile("ld.global.f32 %0, [%1];" : "=f"(v[i]) : "l"(p + i * step) : "memory");
	float s = 0;
#pragma unroll
	for (int i = 0; i < K; i++)
		s += v[i];
	long long t1 = clock64();
	out[threadIdx.x] = s;
	if (threadIdx.x == 0)
		*cyc = t1 - t0;
}

__global__ void warm(const char *buf, long long stride, float *out)
{
	float v;
	asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(buf + threadIdx.x * stride) : "memory");
	out[32 + threadIdx.x] = v;
}

static size_t next_region; // each round's lines fresh: regions handed out in turn

template <int K> static long long run(char *buf, size_t region, long long stride, int step, long long *cyc, float *out)
{
	long long t[ROUNDS], h;
	for (int r = 0; r < ROUNDS; r++) {
		char *p = buf + next_region++ * region;
		warm<<<1, 32>>>(p, stride, out);
		repeat<K><<<1, 32>>>(p, stride, step, cyc, out);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
		t[r] = h;
	}
	std::sort(t, t + ROUNDS);
	return t[ROUNDS / 2];
}

int main()
{
	const size_t region = 32 * 4096, regions = 4 * 8 * ROUNDS; // a round's lines: 32 lanes, 4096 bytes apart at most
	char *buf;
	float *out;
	long long *cyc;
	CHECK(cudaMalloc(&buf, region * regions));
	CHECK(cudaMemset(buf, 0, region * regions));
	CHECK(cudaMalloc(&out, 64 * sizeof(float)));
	CHECK(cudaMalloc(&cyc, sizeof(long long)));
	const long long strides[] = {128, 4096};
	printf("stride  step  K=1  K=2  K=3  K=4  K=5  K=6  K=7  K=8   (cycles, median of %d)\n", ROUNDS);
	for (long long st : strides)
		for (int step : {4, 32}) {
			long long c[8] = {run<1>(buf, region, st, step, cyc, out), run<2>(buf, region, st, step, cyc, out),
					  run<3>(buf, region, st, step, cyc, out), run<4>(buf, region, st, step, cyc, out),
					  run<5>(buf, region, st, step, cyc, out), run<6>(buf, region, st, step, cyc, out),
					  run<7>(buf, region, st, step, cyc, out), run<8>(buf, region, st, step, cyc, out)};
			printf("%6lld  %4d", st, step);
			for (int k = 0; k < 8; k++)
				printf("  %4lld", c[k]);
			printf("\n");
		}
	return 0;
}
