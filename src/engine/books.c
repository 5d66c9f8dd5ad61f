/* The books of a search and the rules every strategy shares [DESIGN "Where a
 * search runs"]: Beamer's direction rule on the engine's totals, the advance
 * from one level to the next (termination, totals, direction, the next
 * row), the control messages of a host-style round, and a level's row from
 * a device's log (the device loop and the device search). Below the
 * strategies (host_levels.c, device_loop.c, device_search.c), which call
 * it; it calls none of them. */
#include "config.h"

#include "engine/engine.h"

#include "common/error.h"

/* One device, atomic, auto: a top-down level also leaves its discoveries as
 * bits of own_bits, so that a bottom-up level next skips the pack of the
 * list (the bits cost a few atomics on an L2-resident bitmap; both backends,
 * the same rows and bytes). */
int bb_engine_td_marks_bits(const struct boxbfs_engine *e)
{
    return e->ndev == 1 && e->bottom_up && e->opts.direction == BOXBFS_SEARCH_AUTO &&
           e->opts.contract == BOXBFS_CONTRACT_ATOMIC;
}

/* What a bottom-up level costs before any row, in top-down arcs (a random
 * probe of about a 32-byte sector each; bb_dir_rule_t.bu_scan): where
 * visited is a bitmap (1D), a streamed word per 32 vertices, n / 256 (the
 * vertices no search reaches start visited on one device and in the search
 * across devices: device_setup.c), and on P devices the frontier's
 * bitmap from each of the P - 1 others, weighed n / 16 each (links about ten
 * times slower than a device's memory, and a message each: on 16 cpu
 * devices kron:20's level 4 moved more bytes and messages bottom-up than
 * top-down; this also covers host-driven levels reading the offsets of the
 * vertices no search reaches); else every vertex's visited byte or level,
 * n. The same for both strategies and for one process or several, so that
 * they run the same levels. */
static uint64_t bottom_up_scan(const struct boxbfs_engine *e)
{
    const uint64_t n = (uint64_t)e->graph->n;
    if (e->grid || e->opts.visited != BOXBFS_VISITED_BIT ||
        e->opts.contract == BOXBFS_CONTRACT_SORT_UNIQUE)
        return n;
    return n / 256 + (uint64_t)(e->ndev - 1) * (n / 16);
}

/* 40 on one device, whose bottom-up levels cost a GPU less against its
 * top-down ones: kron:22 and kron:24 on an H200 (64 roots) ran 1.045x faster
 * with 40 than with 15, as fast as with 60 and faster than with 25 or 100
 * (docs/performance.md); with 15, one root in ten there ran a top-down level
 * of a few thousand vertices next to a hub at twice the rest of its search
 * (kron:24: 603 us, 266 bottom-up). Beamer's and the GAP suite's 15 on
 * several devices, where it was not measured. The same on every backend:
 * the cpu backend runs a GPU's levels. */
double bb_engine_auto_alpha(int ndev)
{
    return ndev == 1 ? 40 : 15;
}

/* Beamer's rule (bb_choose_direction, kernels.h) on the totals of the next
 * level (e->total_*, e->unexplored). The device loop stops on the same tests
 * (bb_loop_stops), and the device search takes the same rule. */
bb_dir_rule_t bb_engine_dir_rule(const struct boxbfs_engine *e)
{
    bb_dir_rule_t r = {e->bottom_up, (int)e->opts.direction, e->ndev == 1, e->opts.alpha,
                       e->opts.beta, (uint64_t)e->graph->n, bottom_up_scan(e)};
    return r;
}

int bb_engine_choose_direction(const struct boxbfs_engine *e)
{
    bb_dir_rule_t r = bb_engine_dir_rule(e);
    bb_loop_walk_t w = {0, 0, e->total_frontier, e->total_arcs, e->prev_total_frontier,
                        e->unexplored};
    return bb_choose_direction(&r, &w, e->prev_dir);
}

/* After level `level` found total_next vertices with total_arcs out-arcs:
 * termination, the next level's totals and direction (the same on every
 * process), its row in the books. */
boxbfs_status_t bb_engine_advance(boxbfs_engine_t e, int level, uint64_t total_next,
                                  uint64_t total_arcs)
{
    uint64_t level_arcs = e->total_arcs;
    e->done = bb_search_ends(total_next, level + 1, e->opts.max_depth);
    e->unexplored = bb_unexplored_after(e->unexplored, level_arcs);
    e->prev_total_frontier = e->total_frontier;
    e->total_frontier = total_next;
    e->total_arcs = total_arcs;
    e->prev_dir = e->dir;
    e->dir = bb_engine_choose_direction(e);
    return e->done ? BOXBFS_OK : bb_traffic_level(&e->traffic, level + 1);
}

void bb_engine_book_round(boxbfs_engine_t e, int level, int dir, const uint64_t *frontier)
{
    int ndev = e->ndev;
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    /* AUTO's switch needs the frontier's arcs with its size: 16 bytes, else 8 */
    int64_t reduce_bytes = e->opts.direction == BOXBFS_SEARCH_AUTO && e->bottom_up ? 16 : 8;
    r->direction = dir;
    r->frontier_arcs = (int64_t)e->total_arcs;
    r->unexplored_arcs = (int64_t)e->unexplored;
    for (int s = 0; s < ndev; s++) {
        r->frontier += (int64_t)frontier[s];
        for (int d = 0; d < ndev; d++) {
            size_t cell = (size_t)s * ndev + d;
            if (s == d || dir == BOXBFS_SEARCH_BOTTOM_UP) continue;
            r->sent_vertices += (int64_t)e->send_count[cell];
            r->bitmap_messages += e->as_bitmap[cell] && e->send_count[cell] ? 1 : 0;
            /* the receiver learns each segment's size and format before the copy
             * (bottom-up parts have sizes known to all) */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 8, 1);
        }
        if (s > 0) {   /* next-frontier sizes: reduce to device 0, broadcast the sum */
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, s, 0, reduce_bytes, 1);
            bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, 0, s, reduce_bytes, 1);
        }
    }
    r->modeled_exchange_s = bb_linkmat_leftright_s(&e->linkmat, e->bytes);
}

/* Book level `level` of one device from its log row L (frontier, arcs,
 * nanoseconds), run top-down in the device loop or, by the device search, in
 * direction dir; then advance to the next frontier of next vertices with
 * next_arcs arcs. */
boxbfs_status_t bb_engine_book_row(boxbfs_engine_t e, int level, const uint64_t *L, int dir,
                                   int device_loop, uint64_t next, uint64_t next_arcs)
{
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    double s = (double)L[2] * 1e-9;
    r->direction = dir;
    r->device_loop = device_loop;
    r->frontier = (int64_t)L[0];
    r->frontier_arcs = (int64_t)L[1];
    r->unexplored_arcs = (int64_t)e->unexplored;
    r->time_s = r->expand_s = s;
    e->traffic.level_devices[level] = (boxbfs_level_device_t){.frontier = (int64_t)L[0], .expand_s = s};
    return bb_engine_advance(e, level, next, next_arcs);
}

/* Device s's part of level `level` from its log row L (several devices):
 * its frontier and times (expand, the waits in meetings as the exchange,
 * the rest as the update), and the level's times as the busiest device's. */
void bb_engine_book_device(boxbfs_engine_t e, int level, int s, const uint64_t *L)
{
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    uint64_t x_ns = L[BB_LOG_EXPAND_NS], m_ns = L[BB_LOG_MEET_NS];
    double t = (double)L[2] * 1e-9, x = (double)x_ns * 1e-9, m = (double)m_ns * 1e-9;
    double u = L[2] > x_ns + m_ns ? (double)(L[2] - x_ns - m_ns) * 1e-9 : 0;
    e->traffic.level_devices[(size_t)level * e->ndev + s] = (boxbfs_level_device_t){
        .frontier = (int64_t)L[3], .expand_s = x, .exchange_s = m, .update_s = u};
    if (t > r->time_s) r->time_s = t;
    if (x > r->expand_s) r->expand_s = x;
    if (m > r->exchange_s) r->exchange_s = m;
    if (u > r->update_s) r->update_s = u;
}

boxbfs_status_t bb_engine_expect_level(const struct boxbfs_engine *e, int level, const uint64_t *L,
                                       int dir)
{
    if (L[0] == e->total_frontier && L[1] == e->total_arcs && dir == e->dir) return BOXBFS_OK;
    return bb_error_set(BOXBFS_ERR_INTERNAL,
                        "device search: level %d ran %s on %llu vertices (%llu arcs), the "
                        "engine expected %s on %llu (%llu)", level,
                        boxbfs_search_direction_name(dir), (unsigned long long)L[0],
                        (unsigned long long)L[1], boxbfs_search_direction_name(e->dir),
                        (unsigned long long)e->total_frontier,
                        (unsigned long long)e->total_arcs);
}
