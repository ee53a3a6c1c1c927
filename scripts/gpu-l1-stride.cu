// gpu-l1-stride: how many L1 wavefronts one warp-wide global load costs when its 32 lanes read one
// 4-byte word each, STRIDE bytes apart (the access pattern of lesson 1's loads of A, where the
// stride is K*4 bytes). Run under Nsight Compute by scripts/gpu-l1.sh, which reads the requests,
// sectors and wavefronts of each launch; the program itself only launches, one launch per stride.
// Every block's 32 warps read the same addresses (as lesson 1's do), so after the first touch the
// lines are L1 hits and the cost is the L1 pipeline's, not DRAM's.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define PROG "gpu-l1-stride"
#include "gpu_check.h"

// Lane l reads word (i mod 8) of its own line, l*stride bytes from the base: one sector per lane
// per load. The load is written in PTX so the compiler neither widens nor hoists it.
__global__ void strided(const float *base, int stride_words, int iters, float *sink)
{
	const float *a = base + (size_t)(threadIdx.x & 31) * stride_words;
	float acc = 0;
	for (int i = 0; i < iters; i++) {
		float v;
		asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(a + (i & 7)));
		acc += v;
	}
	if (acc == 1234.5f) // never true: keeps the loads
		sink[0] = acc;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2048;
	const int strides[] = {4, 32, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
	const size_t bytes = (size_t)32 * 65536 + 4096;
	float *buf, *sink;
	CHECK(cudaMalloc(&buf, bytes));
	CHECK(cudaMemset(buf, 0, bytes));
	CHECK(cudaMalloc(&sink, sizeof(float)));
	int sms = 0;
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
		strided<<<sms * 2, 1024>>>(buf, strides[i] / 4, iters, sink);
		CHECK(cudaGetLastError());
		CHECK(cudaDeviceSynchronize());
		printf("stride %d\n", strides[i]);
	}
	return 0;
}
