// async.h: the PTX of asynchronous copies, barriers and clusters as macros for the racy corpus
// (tests/races). Macros, not inline functions, so that nvcc's .loc names the line that uses one.
#pragma once

#define SMEM(p) ((unsigned)__cvta_generic_to_shared(p))

// Ampere cp.async (sm_80): 4- or 16-byte copies global -> shared, grouped per thread.
#define CP_ASYNC4(dst, src) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(SMEM(dst)), "l"(src) : "memory")
#define CP_ASYNC16(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(SMEM(dst)), "l"(src) : "memory")
#define CP_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define CP_WAIT(n) asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory")
#define CP_WAIT_ALL() asm volatile("cp.async.wait_all;" ::: "memory")

// Hopper mbarrier and TMA (sm_90a). A tensor map is a 128-byte kernel parameter.
struct __align__(64) TensorMap {
	unsigned char bytes[128];
};
#define MBAR_INIT(bar, count) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(SMEM(bar)), "r"(count) : "memory")
#define MBAR_FENCE_INIT() asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory")
#define MBAR_EXPECT(bar, bytes) \
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(SMEM(bar)), "r"(bytes) : "memory")
#define MBAR_WAIT(bar, parity)                                                                          \
	do {                                                                                            \
		unsigned done_;                                                                         \
		do                                                                                      \
			asm volatile("{\n\t.reg .pred p;\n\t"                                          \
				     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"        \
				     "selp.u32 %0, 1, 0, p;\n\t}"                                      \
				     : "=r"(done_)                                                      \
				     : "r"(SMEM(bar)), "r"(parity)                                      \
				     : "memory");                                                       \
		while (!done_);                                                                         \
	} while (0)
// A 2-D box of the tensor map at (x, y) (x innermost: columns) into shared memory, completing on bar.
#define TMA_LOAD_2D(dst, map, x, y, bar)                                                                               \
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"( \
			     SMEM(dst)),                                                                                \
		     "l"(map), "r"(x), "r"(y), "r"(SMEM(bar))                                                           \
		     : "memory")
// The same box into the same offset of each CTA of the cluster in mask (bit r: rank r), completing
// on the mbarrier at bar's offset in each.
#define TMA_LOAD_2D_MULTICAST(dst, map, x, y, bar, mask)                                                                     \
	asm volatile(                                                                                                       \
		"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"( \
			SMEM(dst)),                                                                                         \
		"l"(map), "r"(x), "r"(y), "r"(SMEM(bar)), "h"((unsigned short)(mask))                                      \
		: "memory")
// The box at (x, y) from shared memory to the tensor, in this thread's bulk group.
#define TMA_STORE_2D(map, x, y, src)                                                                           \
	asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map), \
		     "r"(x), "r"(y), "r"(SMEM(src))                                                             \
		     : "memory")
#define TMA_COMMIT() asm volatile("cp.async.bulk.commit_group;" ::: "memory")
#define TMA_WAIT_ALL() asm volatile("cp.async.bulk.wait_group 0;" ::: "memory")
// Orders this thread's generic-proxy shared-memory writes before later async-proxy (TMA, wgmma) reads.
#define FENCE_PROXY_ASYNC() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")

// Clusters (sm_90): the shared address of the same variable in CTA rank r, its loads and stores,
// and the cluster-wide barrier (arrive with release, wait with acquire).
#define MAPA(p, rank)                                                                             \
	({                                                                                        \
		unsigned a_;                                                                      \
		asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a_) : "r"(SMEM(p)), "r"(rank)); \
		a_;                                                                               \
	})
#define LD_CLUSTER_F32(addr)                                                                          \
	({                                                                                            \
		float v_;                                                                             \
		asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v_) : "r"(addr) : "memory");  \
		v_;                                                                                   \
	})
#define ST_CLUSTER_F32(addr, v) asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(addr), "f"(v) : "memory")
#define CLUSTER_RANK()                                                          \
	({                                                                      \
		unsigned r_;                                                    \
		asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r_));     \
		r_;                                                             \
	})
#define CLUSTER_SYNC() \
	asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory")

// Hopper wgmma (sm_90a): D (64x8 f32, 4 registers a thread) += A (64x16 f16) * B (16x8 f16), both
// read from shared memory through descriptors (no swizzle: start >> 4, leading byte offset >> 4 in
// bits 16-29, stride byte offset >> 4 in bits 32-45).
#define WG_DESC(p, lbo, sbo) \
	((unsigned long long)(SMEM(p) >> 4) | ((unsigned long long)((lbo) >> 4) << 16) | ((unsigned long long)((sbo) >> 4) << 32))
#define WGMMA_M64N8K16_F16(d, da, db)                                                                        \
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, 1, 0;\n\twgmma.fence.sync.aligned;\n\t"              \
		     "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n\t" \
		     "wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n\t}"                     \
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                           \
		     : "l"(da), "l"(db)                                                                          \
		     : "memory")
