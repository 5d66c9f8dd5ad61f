/* Devices that meet in each other's memory (kernels.h bb_mail_half's
 * protocol), one thread of each: the values for every other device, a
 * system-scope fence (a release for all of them at once, and for what the
 * device stored into their memory before: lists, bitmap parts), the tags;
 * then each other device's tag with acquire, and its values; the device
 * loop's meetings carry the tag in every value's word instead, and fence
 * only where a list went out (bb_mail_words). A wait polls the abort word
 * (host memory) now and then and gives up after timeout_ns, raising it;
 * used by the device loop across devices (small_levels.cu) and the device
 * search across devices (search_peers.cu). */
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

/* The abort word's code (abort NULL: none), unless another failure was
 * there first (host memory: no atomics across the bus). */
static __device__ __forceinline__ void bb_raise_abort_word(uint32_t *abort, uint32_t code)
{
    if (abort == nullptr) return;
    if (*(volatile uint32_t *)abort == 0) *(volatile uint32_t *)abort = code;
    __threadfence_system();
}

static __device__ __forceinline__ void bb_raise_abort(const bb_loop_peers_t &p, uint32_t code)
{
    bb_raise_abort_word(p.abort, code);
}

/* Wait until word w (in this device's mailbox) is ready(value): BB_MEET_OK
 * with the value in *out, or the abort word raised meanwhile, or no peer
 * within timeout_ns of t0 (then this device raises it). */
template <class Ready>
static __device__ __forceinline__ int bb_await_word(uint32_t *abort, uint64_t timeout_ns,
                                                    int self, const uint64_t *w, uint64_t t0,
                                                    Ready ready, uint64_t *out)
{
    for (unsigned spin = 1;; spin++) {
        const uint64_t x = bb_load_acquire_sys(w);
        if (ready(x)) {
            *out = x;
            return BB_MEET_OK;
        }
        if (spin % 256u) continue;
        if (abort && *(volatile uint32_t *)abort != 0) return BB_MEET_ABORTED;
        if (bb_global_ns() - t0 > timeout_ns) {
            bb_raise_abort_word(abort, ((uint32_t)self + 1) | BB_ABORT_TIMEOUT);
            return BB_MEET_TIMEOUT;
        }
    }
}

template <class Ready>
static __device__ __forceinline__ int bb_await(const bb_loop_peers_t &p, int self,
                                               const uint64_t *w, uint64_t t0, Ready ready,
                                               uint64_t *out)
{
    return bb_await_word(p.abort, p.timeout_ns, self, w, t0, ready, out);
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
        uint64_t x;
        const int st = bb_await(p, self, half, t0, [tag](uint64_t x) { return x == tag; }, &x);
        if (st != BB_MEET_OK) return st;
        for (int j = 0; j < nvalues; j++) g[j][o] = *(volatile const uint64_t *)(half + 1 + j);
    }
    return BB_MEET_OK;
}

/* The loop's meeting `tag` (kernels.h bb_mail_words): v[j][o]
 * (BB_MAIL_VALUES values) for device o, g[j][o] what device o brought;
 * fence: this device stored lists into other devices' memory since its
 * last meeting, which the release puts before its words. */
static __device__ __noinline__ int bb_meet_words(const bb_loop_peers_t &p, int ndev, int self,
                                                 uint64_t tag, bool fence,
                                                 const uint32_t (*v)[BB_LOOP_MAX_DEV],
                                                 uint32_t (*g)[BB_LOOP_MAX_DEV])
{
    if (fence) asm volatile("fence.acq_rel.sys;" ::: "memory");
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        uint64_t *w = bb_mail_words(p.mail[o], ndev, self, tag);
        for (int j = 0; j < BB_MAIL_VALUES; j++) bb_store_relaxed_sys(w + j, bb_mail_word(tag, v[j][o]));
    }
    const uint64_t t0 = bb_global_ns();
    for (int o = 0; o < ndev; o++) {
        if (o == self) continue;
        const uint64_t *w = bb_mail_words(p.mail[self], ndev, o, tag);
        for (int j = 0; j < BB_MAIL_VALUES; j++) {
            uint64_t x;
            const int st =
                bb_await(p, self, w + j, t0, [tag](uint64_t x) { return bb_mail_word_is(x, tag); }, &x);
            if (st != BB_MEET_OK) return st;
            g[j][o] = (uint32_t)x;
        }
    }
    return BB_MEET_OK;
}

#endif /* BB_MEET_CUH */
