// gpu_check.h: the one error check of the standalone measurement programs (scripts/gpu-*.cu, each built alone
// by nvcc): a program defines PROG, its name, before it includes this; a CUDA runtime call that fails prints
// "PROG: the call: the error" and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                      \
	do {                                                                          \
		cudaError_t e_ = (x);                                                 \
		if (e_ != cudaSuccess) {                                              \
			fprintf(stderr, "%s: %s: %s\n", PROG, #x, cudaGetErrorString(e_)); \
			exit(1);                                                      \
		}                                                                     \
	} while (0)
