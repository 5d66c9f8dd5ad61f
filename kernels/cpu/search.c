/* The device search on the host (kernels.h bb_search_t): the steps that
 * the cuda backend runs as one CUDA graph (kernels/cuda/search.cu), here in
 * a plain loop over the cpu kernels, with the same rules (bb_search_step,
 * bb_search_begin, bb_search_advance, bb_search_after_loop), so both
 * backends log the same rows. Several devices: search_peers.c. */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_search(const bb_kstate_t *k0, void *stream, bb_search_t *s, void **cache,
                              uint64_t *first_rows, uint32_t first)
{
    double t_first = bb_now_s();
    (void)cache;
    if (s->prepare) return BOXBFS_OK;   /* nothing to set up */
    if (k0->ndev > 1) return bb_cpu_search_peers(k0, s, first_rows, first);
    for (int step; (step = bb_search_step(s)) != BB_STEP_NONE;) {
        uint64_t *row = k0->level_log + (size_t)s->rows * BB_LOG_FIELDS;
        bb_kstate_t k = *k0;
        double t0 = bb_now_s();
        int pack, unpack = bb_search_begin(s, step, &pack);
        k.frontier = s->frontier;
        k.next_frontier = s->next_frontier;
        k.frontier_bits = s->frontier_bits;
        k.own_bits = s->own_bits;
        memset(k.counters, 0, BB_CTR_COUNT(1) * 8);
        if (unpack) BB_CHECK(bb_cpu_unpack_bitmap(&k, stream, k.own_bits, k.hi - k.lo, k.frontier));
        if (step == BB_STEP_LOOP) {
            bb_loop_params_t p = bb_search_loop_params(s);
            bb_loop_walk_t w;
            k.level_log = row;
            w = bb_cpu_one_device_levels(&k, &p, p.count, p.arcs);
            bb_search_after_loop(s, &w);
            continue;
        }
        if (step == BB_STEP_TOP_DOWN) {
            if (s->marks_bits) {   /* zeroed: the top-down level sets its discoveries' bits */
                BB_CHECK(bb_cpu_pack_bitmap(&k, stream, k.frontier, 0, k.own_bits, k.hi - k.lo));
                k.next_bits = k.own_bits;
            }
            if (k.rank_prefix && bb_prefix_raises(s->w.arcs, k.n))
                BB_CHECK(bb_cpu_raise_prefix(&k, stream));
            BB_CHECK(bb_cpu_expand_atomic(&k, stream, s->w.count, 0, s->w.level + 1));
        } else {
            if (pack)
                BB_CHECK(bb_cpu_pack_bitmap(&k, stream, k.frontier, s->w.count, k.frontier_bits,
                                            k.hi - k.lo));
            BB_CHECK(bb_cpu_bottom_up(&k, stream, s->w.level + 1));
        }
        row[0] = s->w.count;
        row[1] = s->w.arcs;
        row[2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        row[3] = (uint64_t)step;
        bb_search_advance(s, step, k.counters[BB_CTR_NEXT], k.counters[BB_CTR_NEXT_ARCS]);
    }
    s->span_ns = (uint64_t)((bb_now_s() - t_first) * 1e9);
    memcpy(first_rows, k0->level_log,
           (size_t)(s->rows < first ? s->rows : first) * BB_LOG_FIELDS * 8);
    return BOXBFS_OK;
}

void bb_cpu_search_free(void *cache) { (void)cache; }
