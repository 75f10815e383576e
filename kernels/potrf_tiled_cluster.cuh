/*
 * potrf_tiled_cluster.cuh -- the sm_90 primitives of the tiled Cholesky's
 * helper block: addresses in another block's shared memory of the thread
 * block cluster (mapa), transaction barriers (mbarrier with expect_tx) and
 * stores that count on them (st.async).
 *
 * sm_90 only: the content is compiled where __CUDA_ARCH__ >= 900, and the
 * launcher starts the helper only on such code (potrf_tiled.cu).
 * Part of potrf_tiled.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_POTRF_TILED_CLUSTER_CUH
#define GCHOL_POTRF_TILED_CLUSTER_CUH

#include "potrf_tiled_ops.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace {

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
/* The address of the same shared variable in block `rank` of the cluster. */
__device__ __forceinline__ unsigned peer_addr(const void *p, unsigned rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(smem_addr(p)), "r"(rank));
    return r;
}
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
/* this phase completes once `bytes` more have arrived (and this arrival) */
__device__ __forceinline__ void mbar_expect(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ bool mbar_test(unsigned long long *bar, unsigned parity)
{
    unsigned ok;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok) : "r"(smem_addr(bar)), "r"(parity) : "memory");
    return ok != 0;
}
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned ok;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok) : "r"(smem_addr(bar)), "r"(parity) : "memory");
    } while (!ok);
}
/* st.async: a store into another block's shared memory whose bytes count
 * on a barrier there; no fence, the thread does not wait */
__device__ __forceinline__ void st_async16(unsigned peer, const double (&v)[2], unsigned peer_bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f64 [%0], {%1, %2}, [%3];"
                 ::"r"(peer), "d"(v[0]), "d"(v[1]), "r"(peer_bar) : "memory");
}
__device__ __forceinline__ void st_async16(unsigned peer, const float (&v)[4], unsigned peer_bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];"
                 ::"r"(peer), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3]), "r"(peer_bar) : "memory");
}
/* one element (double, float or a 32-bit word) */
template <typename V> __device__ __forceinline__ void st_async(unsigned peer, V v, unsigned peer_bar)
{
    if constexpr (std::is_same<V, double>::value)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f64 [%0], %1, [%2];"
                     ::"r"(peer), "d"(v), "r"(peer_bar) : "memory");
    else if constexpr (std::is_same<V, float>::value)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
                     ::"r"(peer), "f"(v), "r"(peer_bar) : "memory");
    else
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     ::"r"(peer), "r"(v), "r"(peer_bar) : "memory");
}
/* eight consecutive doubles (16-byte aligned) into another block's shared memory */
__device__ __forceinline__ void send_row8(unsigned peer, const double (&x)[kIB], unsigned peer_bar)
{
#pragma unroll
    for (int v = 0; v < kIB; v += 2) {
        const double part[2] = { x[v], x[v + 1] };
        st_async16(peer + (unsigned)(v * sizeof(double)), part, peer_bar);
    }
}

} // namespace
#endif

#endif
