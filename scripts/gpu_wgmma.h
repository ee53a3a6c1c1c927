// gpu_wgmma.h: the wgmma.mma_async pieces of the measurement programs that issue them (gpu-queues.cu,
// gpu-wgmma-stalls.cu): a shared-memory matrix descriptor without swizzle, and the instruction's text for
// m64n128k16 and m64n256k16 (f16 in, f32 accumulators d[], the descriptors the last two operands, the
// scale-d predicate p), for inline asm with the accumulators as "+f" operands (A8).
__device__ unsigned long long sdesc(unsigned a, unsigned lbo, unsigned sbo)
{
	return (unsigned long long)((a >> 4) & 0x3fff) | ((unsigned long long)((lbo >> 4) & 0x3fff) << 16) |
	       ((unsigned long long)((sbo >> 4) & 0x3fff) << 32);
}
#define A8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define S8(a, b, c, e, f, g, h, i) "%" #a ", %" #b ", %" #c ", %" #e ", %" #f ", %" #g ", %" #h ", %" #i ", "
#define WG_N128 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {" \
	S8(0, 1, 2, 3, 4, 5, 6, 7) S8(8, 9, 10, 11, 12, 13, 14, 15) S8(16, 17, 18, 19, 20, 21, 22, 23) \
	S8(24, 25, 26, 27, 28, 29, 30, 31) S8(32, 33, 34, 35, 36, 37, 38, 39) S8(40, 41, 42, 43, 44, 45, 46, 47) \
	S8(48, 49, 50, 51, 52, 53, 54, 55) "%56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;"
#define WG_N256 "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" \
	S8(0, 1, 2, 3, 4, 5, 6, 7) S8(8, 9, 10, 11, 12, 13, 14, 15) S8(16, 17, 18, 19, 20, 21, 22, 23) \
	S8(24, 25, 26, 27, 28, 29, 30, 31) S8(32, 33, 34, 35, 36, 37, 38, 39) S8(40, 41, 42, 43, 44, 45, 46, 47) \
	S8(48, 49, 50, 51, 52, 53, 54, 55) S8(56, 57, 58, 59, 60, 61, 62, 63) S8(64, 65, 66, 67, 68, 69, 70, 71) \
	S8(72, 73, 74, 75, 76, 77, 78, 79) S8(80, 81, 82, 83, 84, 85, 86, 87) S8(88, 89, 90, 91, 92, 93, 94, 95) \
	S8(96, 97, 98, 99, 100, 101, 102, 103) S8(104, 105, 106, 107, 108, 109, 110, 111) \
	S8(112, 113, 114, 115, 116, 117, 118, 119) "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0;"

// The operands' shared memory (A 64x16, B 256x16 f16) filled with 1.0, then made visible to the async proxy
// the wgmmas read through: each thread's fence.proxy.async after its writes, then the barrier (the other
// order leaves the other warps' writes unfenced: `ptxtutor emulate` calls that a race).
__device__ void wg_operands(unsigned short *sa, unsigned short *sb)
{
	for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
		sa[i] = 0x3c00;
	for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x)
		sb[i] = 0x3c00;
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	__syncthreads();
}
