/* The cpu twin of the multi-source BFS kernels (kernels/msbfs.h, iBFS [000
 * §4, §6]): the same bitwise status array, joint queues (small vertices from
 * the front, large from the back), early-terminating bottom-up step and
 * frontier identification as kernels/cuda/msbfs.cu, run by the emulated
 * device's own host thread (so the OR of the top-down step needs no atomic). */
#include "config.h"

#include <string.h>

#include "kernels/msbfs.h"

BB_DECLARE_MSBFS_KERNELS(bb_cpu)

static int all_set(const uint32_t *w, const uint32_t *full, int nw)
{
    for (int j = 0; j < nw; j++)
        if ((w[j] & full[j]) != full[j]) return 0;
    return 1;
}

boxbfs_status_t bb_cpu_ms_seed(const bb_ms_state_t *k, void *stream, int count, int depth_rows)
{
    size_t words = (size_t)k->n * (size_t)k->nw;
    (void)stream;
    memset(k->vis, 0, words * 4);
    memset(k->nxt, 0, words * 4);
    if (depth_rows > 0) memset(k->depths, 0xff, (size_t)depth_rows * (size_t)k->n * 4);
    for (int i = 0; i < count; i++)
        k->nxt[(size_t)k->sources[i] * (size_t)k->nw + (size_t)(i >> 5)] |= 1u << (i & 31);
    return BOXBFS_OK;
}

static void or_into(uint32_t *dst, const uint32_t *src, int nw)
{
    for (int j = 0; j < nw; j++)
        if ((dst[j] & src[j]) != src[j]) dst[j] |= src[j];
}

static uint64_t top_down_vertex(const bb_ms_state_t *k, uint32_t f)
{
    const uint32_t *s = k->vis + (size_t)f * (size_t)k->nw;
    for (int64_t e = k->offsets[f]; e < k->offsets[f + 1]; e++)
        or_into(k->nxt + (size_t)k->columns[e] * (size_t)k->nw, s, k->nw);
    return (uint64_t)(k->offsets[f + 1] - k->offsets[f]);
}

boxbfs_status_t bb_cpu_ms_top_down(const bb_ms_state_t *k, void *stream, uint64_t small,
                                   uint64_t large)
{
    uint64_t touched = 0;
    (void)stream;
    for (uint64_t i = 0; i < small; i++) touched += top_down_vertex(k, k->td_queue[i]);
    for (uint64_t i = k->n - large; i < k->n; i++) touched += top_down_vertex(k, k->td_queue[i]);
    k->counters[BB_MS_TOUCHED] += touched;
    return BOXBFS_OK;
}

static uint64_t bottom_up_vertex(const bb_ms_state_t *k, uint32_t f)
{
    uint32_t acc[4];
    uint32_t *dst = k->nxt + (size_t)f * (size_t)k->nw;
    int64_t e, end = k->in_offsets[f + 1];
    memcpy(acc, dst, (size_t)k->nw * 4);
    for (e = k->in_offsets[f]; e < end; e++) {
        const uint32_t *s = k->vis + (size_t)k->in_columns[e] * (size_t)k->nw;
        for (int j = 0; j < k->nw; j++) acc[j] |= s[j];
        if (all_set(acc, k->full, k->nw)) { e++; break; }   /* early termination */
    }
    memcpy(dst, acc, (size_t)k->nw * 4);
    return (uint64_t)(e - k->in_offsets[f]);
}

boxbfs_status_t bb_cpu_ms_bottom_up(const bb_ms_state_t *k, void *stream, uint64_t small,
                                    uint64_t large)
{
    uint64_t touched = 0;
    (void)stream;
    for (uint64_t i = 0; i < small; i++) touched += bottom_up_vertex(k, k->bu_queue[i]);
    for (uint64_t i = k->n - large; i < k->n; i++) touched += bottom_up_vertex(k, k->bu_queue[i]);
    k->counters[BB_MS_TOUCHED] += touched;
    return BOXBFS_OK;
}

static void identify_vertex(const bb_ms_state_t *k, uint64_t v, int32_t level)
{
    uint64_t *c = k->counters, n = k->n;
    int nw = k->nw;
    uint32_t *vis = k->vis + v * (uint64_t)nw;
    const uint32_t *nxt = k->nxt + v * (uint64_t)nw;
    uint32_t any = 0;
    uint64_t indeg = (uint64_t)(k->in_offsets[v + 1] - k->in_offsets[v]);
    for (int j = 0; j < nw; j++) {
        uint32_t fresh = nxt[j] ^ vis[j];
        any |= fresh;
        while (fresh) {
            int b = __builtin_ctz(fresh), i = j * 32 + b;
            fresh &= fresh - 1;
            c[BB_MS_NEW + i]++;
            if (k->keep_slot[i] >= 0) k->depths[(uint64_t)k->keep_slot[i] * n + v] = level;
        }
        vis[j] = nxt[j];
    }
    if (any) {
        uint64_t deg = (uint64_t)(k->offsets[v + 1] - k->offsets[v]);
        if (deg >= BB_MS_LARGE_DEGREE) k->td_queue[n - 1 - c[BB_MS_TD_LARGE]++] = (uint32_t)v;
        else k->td_queue[c[BB_MS_TD_SMALL]++] = (uint32_t)v;
        c[BB_MS_TD_ARCS] += deg;
    }
    if (indeg > 0 && !all_set(nxt, k->full, nw)) {
        if (indeg >= BB_MS_LARGE_DEGREE) k->bu_next[n - 1 - c[BB_MS_BU_LARGE]++] = (uint32_t)v;
        else k->bu_next[c[BB_MS_BU_SMALL]++] = (uint32_t)v;
        c[BB_MS_BU_ARCS] += indeg;
    }
}

boxbfs_status_t bb_cpu_ms_identify(const bb_ms_state_t *k, void *stream, int32_t level,
                                   int from_queue, uint64_t small, uint64_t large)
{
    (void)stream;
    if (!from_queue) {
        for (uint64_t v = 0; v < k->n; v++) identify_vertex(k, v, level);
        return BOXBFS_OK;
    }
    for (uint64_t i = 0; i < small; i++) identify_vertex(k, k->bu_queue[i], level);
    for (uint64_t i = k->n - large; i < k->n; i++) identify_vertex(k, k->bu_queue[i], level);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_ms_finish(const bb_ms_state_t *k, void *stream)
{
    uint64_t *c = k->counters;
    (void)stream;
    for (uint64_t v = 0; v < k->n; v++) {
        const uint32_t *vis = k->vis + v * (uint64_t)k->nw;
        uint64_t deg = (uint64_t)(k->offsets[v + 1] - k->offsets[v]);
        for (int j = 0; j < k->nw; j++)
            for (uint32_t w = vis[j]; w; w &= w - 1) {
                int i = j * 32 + __builtin_ctz(w);
                c[BB_MS_CREDIT + i] += k->credit[v];
                c[BB_MS_ARCS + i] += deg;
            }
    }
    return BOXBFS_OK;
}

const bb_msbfs_ops_t bb_cpu_msbfs_ops = {
    .seed = bb_cpu_ms_seed,
    .top_down = bb_cpu_ms_top_down,
    .bottom_up = bb_cpu_ms_bottom_up,
    .identify = bb_cpu_ms_identify,
    .finish = bb_cpu_ms_finish,
};
