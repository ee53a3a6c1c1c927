// The warp's votes and reductions, bit scans, copysignf, __saturatef and clock64 of one warp of 32
// threads, 16 words out per thread (tests/test_emu_atom.c checks each). Lanes 28..31 leave first, so the
// warp has 28 members; in[t] is t - 10.
extern "C" __global__ void warp_ops(unsigned *out, const float *in)
{
    int t = threadIdx.x;
    if (t >= 28)
        return;
    float x = in[t];
    unsigned *o = out + t * 16;
    o[0] = __ballot_sync(0x0fffffff, x > 0.0f);
    o[1] = __activemask();
    o[2] = __any_sync(0x0fffffff, t == 5);
    o[3] = __all_sync(0x0fffffff, t < 20);
    o[4] = __reduce_add_sync(0x0fffffff, (unsigned)t);
    o[5] = (unsigned)__reduce_min_sync(0x0fffffff, 10 - t);
    o[6] = __reduce_or_sync(0x0fffffff, 1u << (t % 8));
    o[7] = (unsigned)__ffs(t * 4);
    o[8] = (unsigned)__clz(t);
    o[9] = __float_as_uint(copysignf(2.5f, x));
    o[10] = __float_as_uint(__saturatef(x * 0.25f));
    long long c0 = clock64();
    o[11] = (unsigned)(clock64() > c0);
    if (t & 1)
        o[12] = __activemask();
    else
        o[12] = __reduce_max_sync(0x05555555, (unsigned)t);
    o[13] = (unsigned)__reduce_max_sync(0x0fffffff, 10 - t);
    o[14] = __reduce_xor_sync(0x0fffffff, (unsigned)t) ^ __reduce_and_sync(0x0fffffff, 0xf0u | (unsigned)t);
    o[15] = (unsigned)(31 - __clz(t + 1));
}
