/* The device search (kernels.h bb_search_t, README "The search on the
 * device"): one device with the atomic method runs its whole search without
 * the host, every level by the engine's rules (top-down, bottom-up, or the
 * device loop), and logs one row per level. The cuda backend runs it as one
 * CUDA graph launch (a while node over the levels), so a level costs no host
 * round trip; the cpu backend runs the same steps in a plain loop. The
 * engine then books the rows as if it had run the levels, and checks that
 * each one is the level its own rule expected: the same rows as the levels
 * driven from the host. */
#include "config.h"

#include "engine/engine.h"

#include <string.h>

#include "common/error.h"
#include "common/timer.h"

int bb_search_fits(const struct boxbfs_engine *e)
{
    return e->ndev == 1 && e->nlocal == 1 && !e->grid && e->ops->kernels.search != NULL &&
           e->opts.contract == BOXBFS_CONTRACT_ATOMIC && e->opts.device_loop_arcs > 0 &&
           e->devs[0].k.level_log != NULL && !e->devs[0].search_off;
}

/* Where the engine stands before level 0 (boxbfs_engine_run's totals). */
static bb_search_t search_start(const struct boxbfs_engine *e, const bb_kstate_t *k)
{
    bb_search_t s;
    memset(&s, 0, sizeof s);
    s.rule = bb_engine_dir_rule(e);
    s.max_depth = e->opts.max_depth;
    s.expand = (int32_t)e->opts.expand;
    s.marks_bits = bb_engine_td_marks_bits(e);
    s.log_cap = bb_loop_log_rows(1);
    s.loop_arcs = (uint64_t)e->opts.device_loop_arcs;
    s.w.count = e->total_frontier;
    s.w.arcs = e->total_arcs;
    s.w.prev = e->prev_total_frontier;
    s.w.unexplored = e->unexplored;
    s.dir = e->dir;
    s.last_dir = e->prev_dir;
    s.done = e->done;
    s.in_list = 1;
    s.frontier = k->frontier;
    s.next_frontier = k->next_frontier;
    s.frontier_bits = k->frontier_bits;
    s.own_bits = k->own_bits;
    return s;
}

/* Book the rows one call logged, from level *level_p: each must be the
 * level the engine's state expects (frontier, arcs, direction). */
static boxbfs_status_t book_rows(boxbfs_engine_t e, int d, int *level_p, const bb_search_t *s)
{
    const uint64_t *log = e->devs[d].loop_log;
    for (uint32_t i = 0; i < s->rows; i++) {
        const uint64_t *L = log + (size_t)i * BB_LOG_FIELDS, *N = L + BB_LOG_FIELDS;
        int level = *level_p + (int)i, loop = L[3] == BB_STEP_LOOP;
        int dir = L[3] == BB_STEP_BOTTOM_UP ? BOXBFS_SEARCH_BOTTOM_UP : BOXBFS_SEARCH_TOP_DOWN;
        if (L[0] != e->total_frontier || L[1] != e->total_arcs || dir != e->dir)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "device search: level %d ran %s on %llu vertices (%llu arcs), "
                                "the engine expected %s on %llu (%llu)", level,
                                boxbfs_search_direction_name(dir), (unsigned long long)L[0],
                                (unsigned long long)L[1], boxbfs_search_direction_name(e->dir),
                                (unsigned long long)e->total_frontier,
                                (unsigned long long)e->total_arcs);
        BB_CHECK(bb_loop_book_row(e, level, L, dir, loop, i + 1 < s->rows ? N[0] : s->w.count,
                                  i + 1 < s->rows ? N[1] : s->w.arcs));
    }
    *level_p += (int)s->rows;
    return BOXBFS_OK;
}

/* Where the backend cannot set the search up (kernels.h search: UNSUPPORTED
 * before anything ran), returns OK with e->done unset: the host drives the
 * levels from level 0 (device_main's loop). */
boxbfs_status_t bb_search_run(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_search_t s = search_start(e, &D->k);
    int level = 0;
    while (!e->done) {
        double t0 = bb_now_s();
        boxbfs_status_t st;
        s.rows = 0;
        st = e->ops->kernels.search(&D->k, e->ops->stream(D->dev), &s, &D->search_cache,
                                    D->loop_log, BB_LOOP_LOG_FIRST);
        if (st == BOXBFS_ERR_UNSUPPORTED && level == 0 && D->search_cache == NULL) {
            /* nothing ran: the levels go to the host, in this search and the next */
            BB_WARN(d, "%s; the host drives the levels", boxbfs_last_error());
            D->search_off = 1;
            return BOXBFS_OK;
        }
        BB_CHECK(st);
        BB_DEBUG(d, "device search: %u levels, %.1f us on the device, %.1f us in the call",
                 s.rows, (double)s.span_ns * 1e-3, (bb_now_s() - t0) * 1e6);
        if (s.failed)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "device search: the device loop ran no level at level %d",
                                level + (int)s.rows);
        if (s.rows == 0)
            return bb_error_set(BOXBFS_ERR_INTERNAL, "device search: no level ran at level %d",
                                level);
        if (s.rows > BB_LOOP_LOG_FIRST) {   /* the first came back with s */
            size_t first = (size_t)BB_LOOP_LOG_FIRST * BB_LOG_FIELDS;
            BB_CHECK(e->ops->copy_d2h(D->dev, D->loop_log + first, D->k.level_log + first,
                                      (s.rows - BB_LOOP_LOG_FIRST) * BB_LOG_FIELDS * 8));
            BB_CHECK(e->ops->sync(D->dev));
        }
        BB_CHECK(book_rows(e, d, &level, &s));
        if (e->done != s.done)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "device search: stopped at level %d where the engine would not",
                                level);
    }
    D->k.frontier = s.frontier;
    D->k.next_frontier = s.next_frontier;
    D->k.frontier_bits = s.frontier_bits;
    D->k.own_bits = s.own_bits;
    e->frontier_count[d] = s.w.count;
    e->frontier_arcs[d] = s.w.arcs;
    e->t_level = bb_now_s();
    return BOXBFS_OK;
}
