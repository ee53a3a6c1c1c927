// gpu-wgmma-stalls: what Nsight Compute calls a warp's wait at an HGMMA, for the stall model's charge of a
// wgmma's issue (src/model/stalls.c wg_behind; docs/model.md "Stall reasons", item 4). One block an SM,
// each warpgroup looping over groups of G wgmma.mma_async m64n256k16 (f16 in, f32 accumulators, both
// operands in shared memory), each group committed and waited to W groups in flight:
//   a: one warpgroup (one warp a sub-partition), G 4, W 0     c: one warpgroup, G 4, W 1
//   b: two warpgroups (two a sub-partition), G 4, W 1, as lessons 9-11's consumers
// Prints each launch's time per HGMMA. The answer is in ncu's samples of the HGMMA instructions:
//   make gpu-wgmma-stalls && ncu --section SourceCounters --section WarpStateStats -s 2 -c 1 -o wg_b \
//       build/gpu-wgmma-stalls b && ncu -i wg_b.ncu-rep --page source --csv --print-source sass
// (H200, 2026-11-28: the HGMMAs of a 91% wait, of b 81% mio_throttle, of c 90% wait). The model replays the same PTX (`nvcc -ptx`
// of this file, then `ptxtutor emulate --ptx F --entry ... --grid 132 --block 128|256 --args "C M"
// --size 1024 --stalls`: M is the loop count).
#define PROG "gpu-wgmma-stalls"
#include "gpu_check.h"

#include "gpu_wgmma.h"

template <int G, int W> __device__ void loop(float *sink, int reps)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	__shared__ __align__(1024) unsigned short sa[64 * 16], sb[256 * 16];
	wg_operands(sa, sb);
	float d[128];
	for (int i = 0; i < 128; i++)
		d[i] = 0;
	unsigned long long da = sdesc((unsigned)__cvta_generic_to_shared(sa), 128, 256),
			   db = sdesc((unsigned)__cvta_generic_to_shared(sb), 128, 256);
	for (int r = 0; r < reps; r++) {
		asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
		for (int i = 0; i < G; i++)
			asm volatile("{ .reg .pred p; setp.ne.b32 p, 1, 0;\n" WG_N256 " }"
				     : A8(0), A8(8), A8(16), A8(24), A8(32), A8(40), A8(48), A8(56), A8(64), A8(72),
				       A8(80), A8(88), A8(96), A8(104), A8(112), A8(120)
				     : "l"(da), "l"(db) : "memory");
		asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
		if (W == 0)
			asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
		else
			asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
	float v = 0;
	for (int i = 0; i < 128; i++)
		v += d[i];
	sink[blockIdx.x * blockDim.x + threadIdx.x] = v;
#endif
}
__global__ void k_wg_a(float *s, int reps) { loop<4, 0>(s, reps); }
__global__ void k_wg_b(float *s, int reps) { loop<4, 1>(s, reps); }
__global__ void k_wg_c(float *s, int reps) { loop<4, 1>(s, reps); }

int main(int argc, char **argv)
{
	char v = argc > 1 ? argv[1][0] : 'a';
	int reps = argc > 2 ? atoi(argv[2]) : 4000, sms = 0;
	if (v < 'a' || v > 'c' || reps <= 0) {
		fprintf(stderr, "usage: %s a|b|c [loops]\n", PROG);
		return 2;
	}
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	float *s;
	CHECK(cudaMalloc(&s, sizeof(float) * sms * 256));
	cudaEvent_t e0, e1;
	CHECK(cudaEventCreate(&e0));
	CHECK(cudaEventCreate(&e1));
	int warpgroups = v == 'b' ? 2 : 1;
	for (int rep = 0; rep < 3; rep++) { // the first launches load the code and raise the clock
		CHECK(cudaEventRecord(e0));
		if (v == 'a')
			k_wg_a<<<sms, 128>>>(s, reps);
		else if (v == 'b')
			k_wg_b<<<sms, 256>>>(s, reps);
		else
			k_wg_c<<<sms, 128>>>(s, reps);
		CHECK(cudaGetLastError());
		CHECK(cudaEventRecord(e1));
		CHECK(cudaEventSynchronize(e1));
		float ms;
		CHECK(cudaEventElapsedTime(&ms, e0, e1));
		double hgmmas = (double)reps * 4 * warpgroups; // a block's (an SM's)
		printf("%c: %.3f ms, %.0f HGMMAs an SM, %.1f ns an HGMMA\n", v, ms, hgmmas, ms * 1e6 / hgmmas);
	}
	return 0;
}
