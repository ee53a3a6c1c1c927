// A -G build of __device__ functions: a recursive one (tri(n) = n + tri(n-1), nested n deep), one of two
// return paths, and __shfl_down_sync, each a .func the kernel calls. out[t] = tri(t % 8) + pick(t) +
// the warp's sum of t at lane 0 (tests/test_emu_atom.c checks it).
__device__ int tri(int n)
{
    if (n <= 0)
        return 0;
    return n + tri(n - 1);
}

__device__ int pick(int t)
{
    if (t & 1)
        return 100;
    return 200;
}

extern "C" __global__ void calls(int *out)
{
    int t = threadIdx.x;
    int v = t;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    out[t] = tri(t % 8) + pick(t) + (t == 0 ? v : 0);
}
