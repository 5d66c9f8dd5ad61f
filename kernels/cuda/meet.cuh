/* Devices that meet in each other's memory (kernels.h bb_mail_half's
 * protocol), one thread of each: the values for every other device, a
 * system-scope fence (a release for all of them at once, and for what the
 * device stored into their memory before: lists, bitmap parts), the tags;
 * then each other device's tag with acquire, and its values. A wait polls
 * the abort word (host memory) now and then and gives up after timeout_ns,
 * raising it; used by the device loop across devices (small_levels.cu) and
 * the device search across devices (search_peers.cu). */
#ifndef BB_MEET_CUH
#define BB_MEET_CUH

#include "kernels/cuda/cuda_kernels.h"

static __device__ __forceinline__ void bb_store_relaxed_sys(uint64_t *p, uint64_t v)
{
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

static __device__ __forceinline__ uint64_t bb_load_acquire_sys(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* The abort word's code, unless another failure was there first. */
static __device__ __forceinline__ void bb_raise_abort(const bb_loop_peers_t &p, uint32_t code)
{
    if (p.abort == nullptr) return;
    if (*(volatile uint32_t *)p.abort == 0) *(volatile uint32_t *)p.abort = code;
    __threadfence_system();
}

/* Meeting `tag` of device self (BB_MEET_*): v[j][o] (nvalues <= 3 of
 * them) for device o; g[j][o] what device o brought. The fence orders
 * everything this device stored before it (the lists and bitmap parts its
 * blocks stored, through the barrier that put them before this thread)
 * ahead of the tags: acq_rel is enough for that (a release pattern), and
 * costs less than __threadfence_system's sequentially consistent fence. */
static __device__ __noinline__ int bb_meet(const bb_loop_peers_t &p, int ndev, int self, uint64_t tag,
                                    int nvalues, const uint64_t (*v)[BB_LOOP_MAX_DEV],
                                    uint64_t (*g)[BB_LOOP_MAX_DEV])
{
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        uint64_t *half = bb_mail_half(p.mail[o], self, tag);
        for (int j = 0; j < nvalues; j++) *(volatile uint64_t *)(half + 1 + j) = v[j][o];
    }
    asm volatile("fence.acq_rel.sys;" ::: "memory");
    for (int o = 0; o < ndev; o++)
        if (o != self) bb_store_relaxed_sys(bb_mail_half(p.mail[o], self, tag), tag);
    const uint64_t t0 = bb_global_ns();
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        const uint64_t *half = bb_mail_half(p.mail[self], o, tag);
        for (unsigned spin = 1; bb_load_acquire_sys(half) != tag; spin++) {
            if (spin % 256u) continue;
            if (p.abort && *(volatile uint32_t *)p.abort != 0) return BB_MEET_ABORTED;
            if (bb_global_ns() - t0 > p.timeout_ns) {
                bb_raise_abort(p, ((uint32_t)self + 1) | BB_ABORT_TIMEOUT);
                return BB_MEET_TIMEOUT;
            }
        }
        for (int j = 0; j < nvalues; j++) g[j][o] = *(volatile const uint64_t *)(half + 1 + j);
    }
    return BB_MEET_OK;
}

#endif /* BB_MEET_CUH */
