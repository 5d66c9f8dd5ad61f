/* What the device search's start and end cost over the host link
 * (benchmarks/graph-costs builds this with graph_costs.cu; not part of the
 * library). A search starts where the host stores its state into pinned
 * memory and rings, and ends where the device's last decide stores the
 * state back and a word the host spins on (kernels/cuda/search.cu). Here a
 * resident block of the decide's size answers the host round after round,
 * each the way a search would: the host writes the state, rings and spins;
 * the block sees the ring, reads the state, writes its result and says so.
 * Per case the host's median time from its first store to the answer:
 *   link_floor           one word each way (the bell, the done word)
 *   link_bell_state      the bell, then the state (2272 bytes: a second
 *                        trip), the result (1416 bytes), a system fence, the
 *                        done word (search.cu at 8d53374)
 *   link_bell_state_no_fence  the same without the fence (to size it: the
 *                        host may read the result before it has landed)
 *   link_bell_state_read, link_bell_result  the read alone, the write alone
 *   link_bell_small_read, link_bell_small_result  256 bytes in, 160 out
 *   link_stamped[_small] every 4 bytes of the state beside the round's
 *                        number, so that one trip reads the state and tells
 *                        it is this round's (no bell)
 *   link_stamped[_small]_both  the result stamped so too, without the fence:
 *                        the host checks its numbers after the done word
 *   link_split           link_bell_state with the bell, the state and the
 *                        result in allocations of their own (as the engine's)
 * Rounds start after a host wait of 0-12 us, so that the ring lands
 * anywhere in the block's turn. */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "graph_costs.h"

namespace {

constexpr int kStateWords = 284;    /* sizeof(bb_search_dev) / 8 at 8d53374 */
constexpr int kResultWords = 177;   /* sizeof(bb_search_t) / 8, and 10 log rows of 4 words */
constexpr int kThreads = (kStateWords + 31) / 32 * 32;
constexpr int kRounds = 400, kWarm = 40;
constexpr unsigned long long kGiveUpNs = 2000000000ull;

enum Start { kBellOnly, kBellThen, kStamped };
enum End { kDoneOnly, kFenceDone, kNoFenceDone, kStampedDone };

/* Pinned host memory, both ways: one allocation, or each part its own
 * (split: as the engine's, whose bell, state and log rows are three). */
struct Link {
    uint64_t *ctl;       /* the bell, the done word, failed */
    uint64_t *state;     /* kStateWords */
    uint64_t *stamped;   /* 2 kStateWords: (round << 32) | 4 bytes of the state */
    uint64_t *result;    /* 2 kResultWords: plain [0, kResultWords), stamped all */
};
enum { kBell, kDone, kFailed, kCtlWords = 4 };
constexpr size_t kWords = kCtlWords + kStateWords + 2 * kStateWords + 2 * kResultWords;
constexpr size_t kSplitBytes = 4u << 20;   /* a part: GPU pages of its own */

__device__ __forceinline__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* words: of the state read (start kBellThen, kStamped); out: of the
 * result */
__global__ void __launch_bounds__(kThreads)
    answer(Link L, int start, int words, int end, int out, int rounds)
{
    __shared__ uint64_t raw[kStateWords];
    __shared__ int stop;
    volatile uint64_t *ctl = L.ctl, *state = L.state, *stamped = L.stamped, *result = L.result;
    const unsigned i = threadIdx.x;
    if (i == 0) stop = 0;
    for (uint32_t r = 1; r <= (uint32_t)rounds; r++) {
        const unsigned long long t0 = now_ns();
        if (start == kStamped) {
            for (;;) {   /* every thread its two stamped words: one trip a turn */
                int fresh = 1;
                if (i < (unsigned)words) {
                    const uint64_t lo = stamped[2 * i], hi = stamped[2 * i + 1];
                    fresh = (uint32_t)(lo >> 32) == r && (uint32_t)(hi >> 32) == r;
                    raw[i] = (lo & 0xffffffffu) | hi << 32;
                }
                if (__syncthreads_and(fresh)) break;
                if (i == 0 && now_ns() - t0 > kGiveUpNs) stop = 1;
                __syncthreads();
                if (stop) break;
            }
        } else {
            if (i == 0)
                while (ctl[kBell] != r)
                    if (now_ns() - t0 > kGiveUpNs) {
                        stop = 1;
                        break;
                    }
            __syncthreads();
            if (start == kBellThen && i < (unsigned)words) raw[i] = state[i];
        }
        __syncthreads();
        if (stop) break;
        if (end == kStampedDone) {
            for (unsigned w = i; w < (unsigned)out; w += blockDim.x) {
                const uint64_t x = raw[w % kStateWords] ^ r;
                result[2 * w] = (uint64_t)r << 32 | (x & 0xffffffffu);
                result[2 * w + 1] = (uint64_t)r << 32 | x >> 32;
            }
        } else if (end != kDoneOnly) {
            for (unsigned w = i; w < (unsigned)out; w += blockDim.x)
                result[w] = raw[w % kStateWords] ^ r;
            if (end == kFenceDone) __threadfence_system();
        }
        __syncthreads();
        if (i == 0) ctl[kDone] = r;
    }
    if (i == 0 && stop) ctl[kFailed] = 1;
}

/* Pinned parts (split: each its own allocation), zeroed. */
Link link_alloc(int split)
{
    Link L;
    uint64_t **parts[] = {&L.ctl, &L.state, &L.stamped, &L.result};
    const size_t words[] = {kCtlWords, kStateWords, 2 * kStateWords, 2 * kResultWords};
    if (!split) {
        uint64_t *all;
        CHECK(cudaMallocHost((void **)&all, kWords * 8));
        memset(all, 0, kWords * 8);
        for (int p = 0; p < 4; all += words[p], p++) *parts[p] = all;
        return L;
    }
    for (int p = 0; p < 4; p++) {
        CHECK(cudaMallocHost((void **)parts[p], kSplitBytes));
        memset(*parts[p], 0, kSplitBytes);
    }
    return L;
}

void link_free(Link L, int split)
{
    CHECK(cudaFreeHost(L.ctl));
    if (!split) return;
    CHECK(cudaFreeHost(L.state));
    CHECK(cudaFreeHost(L.stamped));
    CHECK(cudaFreeHost(L.result));
}

/* What a case does (answer's start, words, end, out; split parts). */
struct Case {
    const char *name;
    int start, words, end, out, split;
};

/* kRounds rounds of case c; the host's median time a round (-1 where the
 * block gave up or an answer was wrong). */
double rounds(const Case &c, cudaStream_t s)
{
    Link L = link_alloc(c.split);
    volatile uint64_t *ctl = L.ctl, *state = L.state, *stamped = L.stamped, *result = L.result;
    answer<<<1, kThreads, 0, s>>>(L, c.start, c.words, c.end, c.out, kRounds);
    CHECK(cudaGetLastError());
    std::vector<double> us;
    int wrong = 0;
    for (uint32_t r = 1; r <= (uint32_t)kRounds && !wrong; r++) {
        const auto wait = std::chrono::steady_clock::now() + std::chrono::microseconds(r * 7 % 13);
        while (std::chrono::steady_clock::now() < wait) {
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int w = 0; w < c.words; w++) {
            const uint64_t x = 0x9e3779b97f4a7c15ull * (w + 1) + r;
            if (c.start == kStamped) {
                stamped[2 * w] = (uint64_t)r << 32 | (x & 0xffffffffu);
                stamped[2 * w + 1] = (uint64_t)r << 32 | x >> 32;
            } else {
                state[w] = x;
            }
        }
        __atomic_thread_fence(__ATOMIC_SEQ_CST);   /* the state before the bell */
        if (c.start != kStamped) ctl[kBell] = r;
        const auto give_up = t0 + std::chrono::seconds(2);
        while (ctl[kDone] != r && !ctl[kFailed] && std::chrono::steady_clock::now() < give_up) {
        }
        if (ctl[kDone] != r) {
            wrong = 1;
            break;
        }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        for (int w = 0; c.end == kStampedDone && w < 2 * c.out; w++)
            while ((uint32_t)(result[w] >> 32) != r) {
            }
        const double t = std::chrono::duration<double, std::micro>(
                             std::chrono::steady_clock::now() - t0).count();
        for (int w = 0; c.end != kDoneOnly && c.end != kNoFenceDone && w < c.out; w++) {
            if (w % kStateWords >= c.words) continue;   /* a word the block did not read */
            const uint64_t want = (0x9e3779b97f4a7c15ull * (w % kStateWords + 1) + r) ^ r;
            const uint64_t got = c.end == kStampedDone
                                     ? (result[2 * w] & 0xffffffffu) | result[2 * w + 1] << 32
                                     : result[w];
            if (got != want) wrong = 1;
        }
        if (r > kWarm) us.push_back(t);
    }
    CHECK(cudaStreamSynchronize(s));
    link_free(L, c.split);
    return wrong ? -1 : median(us);
}

}  // namespace

/* One line per case (graph_costs.cu main). */
void link_costs(cudaStream_t s)
{
    constexpr int kSmall = 32, kSmallOut = 20;   /* 256 bytes in, 160 out */
    const Case cases[] = {
        {"link_floor", kBellOnly, 0, kDoneOnly, 0, 0},
        {"link_bell_state", kBellThen, kStateWords, kFenceDone, kResultWords, 0},
        {"link_bell_state_no_fence", kBellThen, kStateWords, kNoFenceDone, kResultWords, 0},
        {"link_bell_state_read", kBellThen, kStateWords, kDoneOnly, 0, 0},
        {"link_bell_result", kBellOnly, 0, kFenceDone, kResultWords, 0},
        {"link_bell_small_read", kBellThen, kSmall, kDoneOnly, 0, 0},
        {"link_bell_small_result", kBellOnly, 0, kFenceDone, kSmallOut, 0},
        {"link_stamped", kStamped, kStateWords, kFenceDone, kResultWords, 0},
        {"link_stamped_both", kStamped, kStateWords, kStampedDone, kResultWords, 0},
        {"link_stamped_small", kStamped, kSmall, kDoneOnly, 0, 0},
        {"link_stamped_small_both", kStamped, kSmall, kStampedDone, kSmallOut, 0},
        {"link_split", kBellThen, kStateWords, kFenceDone, kResultWords, 1},
    };
    for (const auto &c : cases)
        printf("%s round_trip_us=%.2f state_bytes=%d result_bytes=%d\n", c.name, rounds(c, s),
               c.words * 8, c.out * 8);
}
