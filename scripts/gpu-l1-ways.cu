// gpu-l1-ways: how many 128-byte lines the L1 keeps when they lie STRIDE bytes apart (issue 41: the stall
// model's L1 is fully associative; warp_dot reads B down a column, 16 KB a lane apart). One thread walks a
// ring of LINES pointers, each in its own line, STRIDE bytes apart, round and round; after a warm round it
// times 4096 dependent loads with clock64(). The mean cycles a load: the L1's latency where the ring stays
// in it, the L2's where its lines evict each other. Prints one row a stride, one column a ring size.
//     build/gpu-l1-ways [fine] [default]   (fine: ring sizes around the capacity; default: the driver's
//                                           shared-memory carveout, not the least)
#define PROG "gpu-l1-ways"
#include <cstring>
#include "gpu_check.h"

__global__ void chase(const unsigned long long *ring, int steps, unsigned long long *out, long long *cycles)
{
	unsigned long long p = (unsigned long long)ring;
	for (int i = 0; i < steps; i++) // warm: bring the ring in
		p = *(const unsigned long long *)p;
	long long t0 = clock64();
	for (int i = 0; i < 4096; i++)
		p = *(const unsigned long long *)p;
	long long t1 = clock64();
	*out = p;
	*cycles = t1 - t0;
}

int main(int argc, char **argv)
{
	int fine = 0, deflt = 0;
	for (int a = 1; a < argc; a++)
		fine |= !strcmp(argv[a], "fine"), deflt |= !strcmp(argv[a], "default");
	static const long long strides_all[] = {128, 256, 1024, 4096, 8192, 16384, 32768, 65536, 524288};
	static const long long strides_fine[] = {128, 16384};
	static const int lines_all[] = {8, 16, 32, 64, 128, 256, 512, 1024, 1536, 1792, 2048, 4096};
	static const int lines_fine[] = {1408, 1472, 1536, 1568, 1600, 1632, 1664, 1696, 1728, 1760, 1792};
	const long long *strides = fine ? strides_fine : strides_all;
	const int *lines = fine ? lines_fine : lines_all;
	const int ns = fine ? 2 : 9, nl = fine ? 11 : 12;
	size_t bytes = (size_t)524288 * 4096 + 4096;
	char *buf;
	unsigned long long *out;
	long long *cyc;
	CHECK(cudaMalloc(&buf, bytes));
	CHECK(cudaMalloc(&out, sizeof *out));
	CHECK(cudaMalloc(&cyc, sizeof *cyc));
	if (!deflt)
		CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
	printf("stride\\lines");
	for (int j = 0; j < nl; j++)
		printf("\t%d", lines[j]);
	printf("\n");
	for (int i = 0; i < ns; i++) {
		printf("%lld", strides[i]);
		for (int j = 0; j < nl; j++) {
			if ((size_t)strides[i] * lines[j] > bytes - 4096) {
				printf("\t-");
				continue;
			}
			// the ring: line q points at line q + 1, the last at the first
			unsigned long long base = (unsigned long long)buf;
			for (int q = 0; q < lines[j]; q++) {
				unsigned long long next = base + (unsigned long long)strides[i] * ((q + 1) % lines[j]);
				CHECK(cudaMemcpy(buf + (size_t)strides[i] * q, &next, sizeof next, cudaMemcpyHostToDevice));
			}
			chase<<<1, 1>>>((const unsigned long long *)buf, 2 * lines[j], out, cyc);
			CHECK(cudaGetLastError());
			long long c;
			CHECK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
			printf("\t%.0f", c / 4096.0);
		}
		printf("\n");
	}
	return 0;
}
