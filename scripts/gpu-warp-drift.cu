// gpu-warp-drift: how far apart the eight warps of a block of tests/heldout/warp_dot run (issue 41: its L1
// hits 44% of sectors over the whole grid and 87.5% over one row of blocks, where the stall model's warps,
// in step, hit 94%). The same kernel (one warp an element of C, lanes strided over k, B read one sector a
// lane), each warp's lane 0 reading clock64() every 16 of its K/32 steps; every 64th row of blocks keeps
// them. For each kept block and checkpoint: the spread of its warps' clocks over the block's mean cycles a
// step, i.e. how many k steps the last warp is behind the first. Prints, for the whole grid (M = N = K) and
// for one row of blocks (M = 1): the median and 90th percentile of that lag at the last checkpoint and at
// the middle one, and the cycles a step.
//     build/gpu-warp-drift [N]   (default 4096)
#define PROG "gpu-warp-drift"
#include <algorithm>
#include <vector>
#include "gpu_check.h"

#define CP 8 // checkpoints: after 16, 32, ..., 128 of the K/32 steps (K = 4096)

__global__ void warp_dot(int M, int N, int K, const float *A, const float *B, float *C, long long *rec, int keep)
{
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	int row = blockIdx.y, col = blockIdx.x * 8 + warp;
	if (row >= M || col >= N)
		return;
	bool kept = row % keep == 0;
	long long *r = rec + ((size_t)(row / keep) * gridDim.x + blockIdx.x) * 8 * (CP + 1) + warp * (CP + 1);
	if (kept && lane == 0)
		r[0] = clock64();
	float sum = 0.0f;
	int steps = (K + 31) / 32, every = steps / CP > 0 ? steps / CP : 1;
	for (int s = 0; s < steps; s++) {
		int k = lane + 32 * s;
		if (k < K)
			sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
		if (kept && lane == 0 && (s + 1) % every == 0 && (s + 1) / every <= CP)
			r[(s + 1) / every] = clock64();
	}
	for (int off = 16; off > 0; off /= 2)
		sum += __shfl_down_sync(0xffffffffu, sum, off);
	if (lane == 0)
		C[(size_t)row * N + col] = sum;
}

static double pct(std::vector<double> v, double p)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	return v[(size_t)(p * (v.size() - 1))];
}

static void run(int M, int N, int K, const float *A, const float *B, float *C)
{
	int keep = M >= 64 ? 64 : 1, rows = (M + keep - 1) / keep;
	dim3 grid((N + 7) / 8, M);
	size_t n = (size_t)rows * grid.x * 8 * (CP + 1);
	long long *rec;
	CHECK(cudaMalloc(&rec, n * sizeof *rec));
	CHECK(cudaMemset(rec, 0, n * sizeof *rec));
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	CHECK(cudaEventRecord(e0));
	warp_dot<<<grid, 256>>>(M, N, K, A, B, C, rec, keep);
	CHECK(cudaEventRecord(e1));
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	float ms;
	CHECK(cudaEventElapsedTime(&ms, e0, e1));
	std::vector<long long> h(n);
	CHECK(cudaMemcpy(h.data(), rec, n * sizeof *rec, cudaMemcpyDeviceToHost));
	std::vector<double> lag_end, lag_mid, step;
	int steps = (K + 31) / 32, every = steps / CP;
	for (size_t b = 0; b < (size_t)rows * grid.x; b++) {
		const long long *r = &h[b * 8 * (CP + 1)];
		double t0 = 0, t1 = 0;
		for (int w = 0; w < 8; w++)
			t0 += r[w * (CP + 1)], t1 += r[w * (CP + 1) + CP];
		double per = (t1 - t0) / 8 / (every * CP); // the block's mean cycles a step
		if (!(per > 0))
			continue;
		step.push_back(per);
		for (int c : {CP / 2, CP}) {
			long long lo = r[c], hi = r[c];
			for (int w = 1; w < 8; w++)
				lo = std::min(lo, r[w * (CP + 1) + c]), hi = std::max(hi, r[w * (CP + 1) + c]);
			(c == CP ? lag_end : lag_mid).push_back((hi - lo) / per);
		}
	}
	printf("M=%d N=%d K=%d: %.2f ms, %zu blocks kept; cycles a step median %.0f; lag of the block's last warp in "
	       "k steps: middle median %.1f p90 %.1f, end median %.1f p90 %.1f\n",
	       M, N, K, ms, step.size(), pct(step, 0.5), pct(lag_mid, 0.5), pct(lag_mid, 0.9), pct(lag_end, 0.5),
	       pct(lag_end, 0.9));
	CHECK(cudaFree(rec));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4096;
	float *A, *B, *C;
	CHECK(cudaMalloc(&A, (size_t)n * n * sizeof *A));
	CHECK(cudaMalloc(&B, (size_t)n * n * sizeof *B));
	CHECK(cudaMalloc(&C, (size_t)n * n * sizeof *C));
	CHECK(cudaMemset(A, 0, (size_t)n * n * sizeof *A));
	CHECK(cudaMemset(B, 0, (size_t)n * n * sizeof *B));
	run(n, n, n, A, B, C); // warm
	run(n, n, n, A, B, C);
	run(1, n, n, A, B, C);
	run(8, n, n, A, B, C);
	return 0;
}
