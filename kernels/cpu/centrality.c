/* The cpu backend's centrality kernels (kernels/centrality.h): each emulated
 * device runs them on its own host thread, sequentially, in the same steps as
 * the cuda kernels, so counts, levels and pair bytes agree. */
#include "config.h"

#include <string.h>

#include "kernels/centrality.h"

static void add_count(const bb_cstate_t *k, uint64_t *dst, uint64_t x)
{
    uint64_t old = *dst;
    *dst = old + x;
    if (*dst < old) k->counters[BB_CC_OVERFLOW] = 1;
}

static void discover(const bb_cstate_t *k, uint32_t lid, int32_t next_level)
{
    k->level[lid] = next_level;
    k->next[k->counters[BB_CC_NEXT]++] = lid;
    k->counters[BB_CC_NEXT_ARCS] += (uint64_t)(k->offsets[lid + 1] - k->offsets[lid]);
    if (k->credit) k->counters[BB_CC_CREDIT] += (uint64_t)k->credit[lid];
}

/* The fused update of an arc's count into an owned vertex. */
static void update(const bb_cstate_t *k, uint32_t lid, uint64_t x, int32_t next_level)
{
    if (k->level[lid] == -1) discover(k, lid, next_level);
    if (k->level[lid] == next_level) add_count(k, &k->sigma[lid], x);
}

boxbfs_status_t bb_cpu_sigma_reset(const bb_cstate_t *k, void *stream, uint64_t root)
{
    uint64_t nloc = k->hi - k->lo;
    (void)stream;
    for (uint64_t v = 0; v < nloc; v++) k->level[v] = -1;
    memset(k->sigma, 0, nloc * sizeof *k->sigma);
    if (k->f) memset(k->f, 0, nloc * sizeof *k->f);
    if (k->delta) memset(k->delta, 0, nloc * sizeof *k->delta);
    memset(k->counters, 0, BB_CC_COUNT(k->ndev) * sizeof *k->counters);
    if (root >= k->lo && root < k->hi) {
        uint32_t lid = (uint32_t)(root - k->lo);
        k->level[lid] = 0;
        k->sigma[lid] = 1;
        if (k->f) k->f[lid] = 1;
        k->frontier[0] = lid;
        k->counters[BB_CC_NEXT] = 1;
        k->counters[BB_CC_NEXT_ARCS] = (uint64_t)(k->offsets[lid + 1] - k->offsets[lid]);
        if (k->credit) k->counters[BB_CC_CREDIT] = (uint64_t)k->credit[lid];
    }
    return BOXBFS_OK;
}

static int owner_of(const bb_cstate_t *k, uint64_t v)
{
    int lo = 0, hi = k->ndev - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (k->range_lo[mid] <= v) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

boxbfs_status_t bb_cpu_sigma_push(const bb_cstate_t *k, void *stream, uint64_t count,
                                  int32_t next_level)
{
    (void)stream;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t u = k->frontier[i];
        uint64_t s = k->sigma[u];
        for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
            uint64_t v = k->columns[e];
            if (v >= k->lo && v < k->hi) {
                update(k, (uint32_t)(v - k->lo), s, next_level);
            } else {
                int o = owner_of(k, v);
                uint64_t slot = k->seg_lo[o] + k->counters[BB_CC_SEND + o]++;
                k->out_vid[slot] = (uint32_t)(v - k->range_lo[o]);
                k->out_sig[slot] = s;
            }
        }
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_sigma_apply(const bb_cstate_t *k, void *stream, const uint32_t *vid,
                                   const uint64_t *sig, uint64_t count, int32_t next_level)
{
    (void)stream;
    for (uint64_t i = 0; i < count; i++) update(k, vid[i], sig[i], next_level);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_sigma_pull(const bb_cstate_t *k, void *stream, uint64_t count,
                                  int32_t next_level)
{
    uint64_t nloc = k->hi - k->lo;
    (void)stream;
    (void)count;
    memset(k->fbits, 0, (nloc + 31) / 32 * sizeof *k->fbits);
    for (uint64_t v = 0; v < nloc; v++)
        if (k->level[v] == next_level - 1) k->fbits[v >> 5] |= 1u << (v & 31);
    for (uint64_t v = 0; v < nloc; v++) {
        uint64_t sum = 0;
        int found = 0;   /* not sum != 0: a count may wrap to 0 (mod 2^64) */
        if (k->level[v] != -1) continue;
        for (int64_t e = k->in_offsets[v]; e < k->in_offsets[v + 1]; e++) {
            uint32_t u = k->in_columns[e];
            if (k->fbits[u >> 5] >> (u & 31) & 1) {
                add_count(k, &sum, k->sigma[u]);
                found = 1;
            }
        }
        if (found) {
            k->level[v] = next_level;
            k->sigma[v] = sum;
            k->counters[BB_CC_NEXT]++;
            k->counters[BB_CC_NEXT_ARCS] += (uint64_t)(k->offsets[v + 1] - k->offsets[v]);
            if (k->credit) k->counters[BB_CC_CREDIT] += (uint64_t)k->credit[v];
        }
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_sigma_gather(const bb_cstate_t *k, void *stream, int32_t level)
{
    uint64_t nloc = k->hi - k->lo, n = 0;
    (void)stream;
    for (uint64_t v = 0; v < nloc; v++)
        if (k->level[v] == level) k->frontier[n++] = (uint32_t)v;
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_spmv_top_down(const bb_cstate_t *k, void *stream, bb_spmv_t variant,
                                     int32_t next_level)
{
    uint64_t nloc = k->hi - k->lo;
    (void)stream;
    memset(k->ft, 0, nloc * sizeof *k->ft);
    if (variant == BB_SPMV_COOC) {
        /* a thread per arc: f_t(col) += f(row) where f(row) > 0 [Alg. 3] */
        for (uint64_t e = 0; e < k->in_arcs; e++) {
            uint64_t x = k->f[k->in_columns[e]];
            if (x) add_count(k, &k->ft[k->cooc_col[e]], x);
        }
    } else {
        /* a thread (or warp) per vertex, masked by sigma == 0 [Alg. 4, 5] */
        for (uint64_t v = 0; v < nloc; v++) {
            uint64_t sum = 0;
            if (k->sigma[v] != 0) continue;
            for (int64_t e = k->in_offsets[v]; e < k->in_offsets[v + 1]; e++)
                add_count(k, &sum, k->f[k->in_columns[e]]);
            k->ft[v] = sum;
        }
    }
    for (uint64_t v = 0; v < nloc; v++) {
        uint64_t x = k->sigma[v] == 0 ? k->ft[v] : 0;
        k->f[v] = x;
        if (x) {
            k->sigma[v] = x;
            discover(k, (uint32_t)v, next_level);
        }
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_spmv_bottom_up(const bb_cstate_t *k, void *stream, int vector,
                                      int32_t next_level)
{
    uint64_t nloc = k->hi - k->lo, first = k->counters[BB_CC_NEXT];
    (void)stream;
    (void)vector;   /* one host thread: the warp form visits the same arcs */
    for (uint64_t v = 0; v < nloc; v++) {
        if (k->level[v] != -1) continue;
        for (int64_t e = k->in_offsets[v]; e < k->in_offsets[v + 1]; e++)
            if (k->level[k->in_columns[e]] == next_level - 1) {
                discover(k, (uint32_t)v, next_level);
                break;
            }
    }
    for (uint64_t i = first; i < k->counters[BB_CC_NEXT]; i++) {
        uint32_t v = k->next[i];
        uint64_t sum = 0;
        for (int64_t e = k->in_offsets[v]; e < k->in_offsets[v + 1]; e++)
            if (k->level[k->in_columns[e]] == next_level - 1)
                add_count(k, &sum, k->sigma[k->in_columns[e]]);
        k->sigma[v] = sum;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_bc_backward(const bb_cstate_t *k, void *stream, int32_t depth,
                                   uint64_t root)
{
    uint64_t nloc = k->hi - k->lo;
    (void)stream;
    for (uint64_t v = 0; v < nloc; v++) {
        double d = 0, sv;
        if (k->level[v] != depth) continue;
        sv = (double)k->sigma[v];
        for (int64_t e = k->offsets[v]; e < k->offsets[v + 1]; e++) {
            uint32_t w = k->columns[e];
            if (k->level[w] == depth + 1) d += sv / (double)k->sigma[w] * (1.0 + k->delta[w]);
        }
        k->delta[v] = d;
        if (v != root) k->bc[v] += d;
    }
    return BOXBFS_OK;
}

const bb_centrality_ops_t bb_cpu_centrality_ops = {
    bb_cpu_sigma_reset, bb_cpu_sigma_push, bb_cpu_sigma_apply, bb_cpu_sigma_pull,
    bb_cpu_sigma_gather, bb_cpu_spmv_top_down, bb_cpu_spmv_bottom_up, bb_cpu_bc_backward,
};
