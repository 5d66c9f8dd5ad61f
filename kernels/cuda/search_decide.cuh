/* One device's decide (kernels/cuda/search.cu): its logic and its block,
 * which search.cu's decide kernel runs after a step's kernels and the loop
 * kernel's block 0 after its levels (small_levels.cu search_levels). */
#ifndef BB_SEARCH_DECIDE_CUH
#define BB_SEARCH_DECIDE_CUH

#include "kernels/cuda/cuda_kernels.h"

#if CUDART_VERSION >= 13000

/* decide's logic on the block's copy of the state (bb_decide_block; next:
 * the branch its graph runs after it, bb_search_start_step). Its stores to
 * global memory (the row of the step that ran, the next step's counters,
 * the visited prefix) come after its last read of the copy: through
 * generic pointers they could alias it, and every read after them would
 * go to shared memory again (kron:24 on an H200: 0.55-1.1 us a decide's
 * logic at d9cf613). */
static __device__ void decide_logic(bb_search_dev *d, uint64_t now, int next,
                                    const unsigned long long *counts)
{
    bb_search_t *s = &d->s;
    const int ran = d->step;
    /* a bottom-up step that listed every vertex it found (bottom_up.cu) */
    const int listed = ran == BB_STEP_BOTTOM_UP && d->a.list &&
                       counts[BB_CTR_EXPANDED] == counts[BB_CTR_NEXT];
    uint32_t *prefix = d->a.k.rank_prefix;
    const uint32_t raised = prefix ? prefix[1] : 0;   /* (its latency under the rest) */
    uint64_t *row = NULL;
    const uint64_t row_count = s->w.count, row_arcs = s->w.arcs, row_ns = now - d->t0;
    if (ran == BB_STEP_NONE) d->t_first = now;
    if (ran == BB_STEP_LOOP) {   /* its rows are logged, its walk in d->loop */
        bb_search_after_loop(s, &d->loop);
    } else if (ran != BB_STEP_NONE) {
        row = d->log + (size_t)s->rows * BB_LOG_FIELDS;
        bb_search_advance(s, ran, counts[BB_CTR_NEXT], counts[BB_CTR_NEXT_ARCS]);
        if (listed) s->in_list = 1;   /* no unpack before the step after it */
    }
    const int step = bb_search_step(s);
    int pack = 0;
    const int unpack = step != BB_STEP_NONE && bb_search_begin(s, step, &pack);
    d->a.k.frontier = s->frontier;
    d->a.k.next_frontier = s->next_frontier;
    d->a.k.frontier_bits = s->frontier_bits;
    d->a.k.own_bits = s->own_bits;
    d->a.k.next_bits = step == BB_STEP_TOP_DOWN && s->marks_bits ? s->own_bits : NULL;
    /* search_prefix raises [1] from [0] */
    const int raise = step == BB_STEP_TOP_DOWN && prefix,
              raises = raise && bb_prefix_raises(s->w.arcs, d->a.k.n);
    const uint32_t n = (uint32_t)d->a.k.n;
    unsigned long long *ctr = (unsigned long long *)d->a.k.counters;
    d->a.count = s->w.count;
    d->a.split = 0;
    d->a.next_level = s->w.level + 1;
    d->a.expand = s->expand;
    /* a bottom-up step lists its finds too (where few enough): after the
     * last of a run the loop or a top-down step would unpack them first
     * (kron:24 on an H200: 4.0 us between the decide and the loop). Every
     * one, not only those whose frontier shrinks: a run's last level does
     * not always (email-Enron, facebook_combined: where it did not, the
     * loop's graph was launched, 4-7 us more a search) */
    d->a.list = step == BB_STEP_BOTTOM_UP && d->bu_lists;
    d->a.k.level_log = d->log + (size_t)s->rows * BB_LOG_FIELDS;
    if (step == BB_STEP_LOOP) bb_search_loop_walk(&d->a.loop, s);
    if (row) {
        row[0] = row_count;
        row[1] = row_arcs;
        row[2] = row_ns;
        row[3] = (uint64_t)ran;
    }
    for (size_t i = 0; i < BB_CTR_COUNT(1); i++) ctr[i] = 0;
    if (raise) {
        prefix[0] = raised;
        if (raises) prefix[1] = n;
    }
    bb_search_start_step(d, step, unpack, pack, 0, next);
}

/* bb_decide_block with decide_logic (ctr: the device's counters; wait,
 * next, self: bb_decide_block's). */
static __device__ __forceinline__ void bb_one_device_decide(bb_search_dev *d,
                                                            const cudaGraphExec_t *bodies,
                                                            int wait, int next, int self,
                                                            const unsigned long long *ctr)
{
    bb_decide_block(
        d, wait, next, self, bodies, ctr, (unsigned)BB_CTR_COUNT(1),
        [=](bb_search_dev *sd, uint64_t now, const unsigned long long *counts) {
            decide_logic(sd, now, next, counts);
        },
        [](bb_search_dev *) {});
}

#endif
#endif /* BB_SEARCH_DECIDE_CUH */
