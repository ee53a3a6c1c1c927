// Every atomic function of CUDA C on global and shared memory, as nvcc -arch=sm_80 writes it (atom and
// red of each operation and type, .noftz.f16x2 and .f16 in inline asm, a cas.b16): tests/test_emu_atom.c
// checks that the emulator decodes each (its semantics are checked there one by one).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void atomics_all(int *i, unsigned *u, float *f, double *d, unsigned long long *ull, long long *ll,
                                 __half2 *h2, __nv_bfloat162 *b2, __half *h, unsigned short *us)
{
    __shared__ int si[32];
    __shared__ float sf[32];
    int t = threadIdx.x;
    si[t] = 0; sf[t] = 0;
    __syncthreads();
    atomicAdd(i, 1); atomicAdd(u, 2u); atomicAdd(f, 1.5f); atomicAdd(d, 2.5); atomicAdd(ull, 3ull);
    atomicAdd(h2, __floats2half2_rn(1.f, 2.f)); atomicAdd(b2, __floats2bfloat162_rn(1.f, 2.f)); atomicAdd(h, __float2half(1.f));
    atomicSub(i + 1, 1); atomicMin(i + 2, t); atomicMax(i + 3, t); atomicMin(u + 1, t); atomicMax(u + 2, t);
    atomicMin(ll, (long long)t); atomicMax(ull + 1, (unsigned long long)t);
    atomicInc(u + 3, 5u); atomicDec(u + 4, 5u); atomicAnd(i + 4, t); atomicOr(i + 5, t); atomicXor(i + 6, t);
    atomicExch(i + 7, t); atomicExch(f + 1, 2.f); atomicExch(ull + 2, 7ull);
    atomicCAS(i + 8, 0, t); atomicCAS(ull + 3, 0ull, 9ull); atomicCAS(us, (unsigned short)0, (unsigned short)1);
    atomicAdd_block(i + 9, 1); atomicAdd_system(i + 10, 1);
    atomicAdd(&si[t % 4], 1); atomicAdd(&sf[t % 4], 1.f); atomicMax(&si[4], t);
    int old = atomicAdd(i + 11, 1);
    __syncthreads();
    i[12 + t] = si[t % 8] + (int)sf[t % 8] + old;
}
