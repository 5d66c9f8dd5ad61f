/* The device loop of small top-down levels of the 2D partition on the host
 * (bb_grid2d_ops_t.levels, kernels/grid2d.h; README "2D partition"): every
 * emulated device's thread runs it at once; the devices store their lists
 * and pairs straight into each other's inboxes and meet in each other's
 * mailboxes, as GPUs would over peer access, with no host between levels.
 * A level's steps are the host-driven level's (engine2d.c: expand, fold,
 * update in grid order), so its rows, parents and books are the same. */
#include "config.h"

#include <string.h>

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/grid2d.h"

/* Value j that member i of the group brought to this device's meeting of
 * kind at level (it stays in the mailbox until the level after next). */
static uint64_t got(const bb_g2loop_t *p, const bb_g2state_t *k, int kind, int i, int32_t level,
                    int j)
{
    return bb_g2_mail(p->mail[k->self], k->rows, k->cols, kind, i, level)[1 + j];
}

/* A meeting of the group of kind at level: nvalues values for member i at
 * v + i * stride (stride 0: the same for all) into its mailbox, then the
 * tag (release: the inboxes written before it too); then every member's
 * tag in this device's mailbox (acquire). BB_MEET_*. */
static int meet(const bb_g2loop_t *p, const bb_g2state_t *k, int kind, int32_t level,
                const uint64_t *v, size_t stride, int nvalues)
{
    const int n = bb_g2_group_size(k, kind), me = bb_g2_group_index(k, kind);
    const uint64_t tag = bb_g2_tag(p->tag0, level, kind);
    double t0 = bb_now_s();
    int st = BB_MEET_OK;
    for (int i = 0; i < n; i++) {
        uint64_t *half;
        if (i == me) continue;
        half = bb_g2_mail(p->mail[bb_g2_group_device(k, kind, i)], k->rows, k->cols, kind, me,
                          level);
        for (int j = 0; j < nvalues; j++) half[1 + j] = v[(size_t)i * stride + (size_t)j];
        __atomic_store_n(half, tag, __ATOMIC_RELEASE);
    }
    for (int i = 0; i < n && st == BB_MEET_OK; i++) {
        uint64_t x;
        if (i == me) continue;
        st = bb_cpu_await(p->abort, p->timeout_ns, k->self,
                          bb_g2_mail(p->mail[k->self], k->rows, k->cols, kind, i, level), tag, 0,
                          t0, &x);
    }
    return st;
}

static uint64_t ns(double s) { return (uint64_t)(s * 1e9); }

/* Expand [004 Algorithm 3]: this device's list into the inbox_col region
 * of every other device of its grid column; once they all have theirs, the
 * column's frontier at colfront (each part at its block's offset, in grid
 * order) scanned over the block. The stores, the meeting and the append
 * add to *exchange_s (the host-driven level's gather), the rest to
 * *expand_s. */
static int expand(const bb_g2state_t *k, const bb_g2loop_t *p, int32_t level, uint64_t mine,
                  double *exchange_s, double *expand_s)
{
    const uint64_t bs = k->bs;
    uint64_t total = 0;
    double t0 = bb_now_s(), t1;
    int st;
    for (int r = 0; r < k->rows; r++)
        if (r != k->row && mine)
            memcpy(p->inbox_col[k->col * k->rows + r] + (size_t)k->row * bs, k->frontier,
                   mine * 4);
    st = meet(p, k, BB_G2_MEET_COL, level, &mine, 0, 1);
    if (st != BB_MEET_OK) return st;
    for (int r = 0; r < k->rows; r++) {   /* one grid row: the frontier is the column's */
        int own = r == k->row;
        uint64_t count = own ? mine : got(p, k, BB_G2_MEET_COL, r, level, 0);
        const uint32_t *msg = own ? k->frontier : p->inbox_col[k->self] + (size_t)r * bs;
        if (k->rows > 1 && count)
            bb_cpu_grid2d_ops.append(k, NULL, msg, 0, count, (uint32_t)((uint64_t)r * bs), total);
        total += count;
    }
    t1 = bb_now_s();
    *exchange_s += t1 - t0;
    memset(k->counters, 0, BB_G2_CTR_COUNT(k->cols) * 8);
    /* a big column frontier raises the visited prefix first, as engine2d.c's expand */
    if (k->prefix && total >= (uint64_t)k->rows * bs / 64) bb_cpu_grid2d_ops.raise_prefix(k, NULL);
    if (total) bb_cpu_grid2d_ops.expand(k, NULL, total, level + 1);
    *expand_s += bb_now_s() - t1;
    return BB_MEET_OK;
}

/* Fold: the pairs for each other grid column of the row into its device's
 * inbox_row region; once the row has met, update from each sender in grid
 * order (the host-driven fold's order: the same parents). The stores and
 * the meeting add to *exchange_s, the updates to *update_s. */
static int fold(const bb_g2state_t *k, const bb_g2loop_t *p, int32_t level, double *exchange_s,
                double *update_s)
{
    const uint64_t *bucket = k->counters + BB_G2_CTR_BUCKET;
    double t0 = bb_now_s(), t1;
    int st;
    for (int j = 0; j < k->cols; j++)
        if (j != k->col && bucket[j])
            memcpy(p->inbox_row[j * k->rows + k->row] + (size_t)k->col * k->seg,
                   k->outbox + (size_t)j * k->seg, bucket[j] * 8);
    st = meet(p, k, BB_G2_MEET_ROW, level, bucket, 1, 1);
    if (st != BB_MEET_OK) return st;
    t1 = bb_now_s();
    *exchange_s += t1 - t0;
    for (int j = 0; j < k->cols; j++) {
        uint64_t count = j == k->col ? 0 : got(p, k, BB_G2_MEET_ROW, j, level, 0);
        if (count)
            bb_cpu_grid2d_ops.update(k, NULL, p->inbox_row[k->self] + (size_t)j * k->seg, count, j,
                                     level + 1);
    }
    *update_s += bb_now_s() - t1;
    return BB_MEET_OK;
}

/* The next frontier's totals (count, out-arcs) and its largest part, from
 * every device's values at this device's meeting of all (v: its own). */
static void totals(const bb_g2loop_t *p, const bb_g2state_t *k, int32_t level, const uint64_t *v,
                   uint64_t *next_p, uint64_t *arcs_p, uint64_t *most_p)
{
    uint64_t next = v[0], arcs = v[1], most = v[0];
    for (int o = 0; o < k->rows * k->cols; o++) {
        uint64_t count;
        if (o == k->self) continue;
        count = got(p, k, BB_G2_MEET_ALL, o, level, 0);
        next += count;
        arcs += got(p, k, BB_G2_MEET_ALL, o, level, 1);
        if (count > most) most = count;
    }
    *next_p = next;
    *arcs_p = arcs;
    *most_p = most;
}

boxbfs_status_t bb_cpu_g2_levels(const bb_g2state_t *k0, void *stream, const bb_g2loop_t *p)
{
    const size_t width = BB_G2_LOG_ROW(k0->cols);
    bb_g2state_t k = *k0;   /* frontier and next_frontier swap after every level */
    bb_loop_walk_t w = p->w;
    uint64_t mine = p->count, most = p->most;
    int st = BB_MEET_OK;
    (void)stream;
    while (!bb_g2_loop_stops(p, &w, most, w.runs ? BOXBFS_SEARCH_TOP_DOWN : p->last_dir)) {
        const int32_t level = w.level;
        uint64_t *log = p->log + (size_t)w.runs * width, v[2], next, next_arcs;
        double t0 = bb_now_s(), exchange_s = 0, expand_s = 0, update_s = 0;
        if (level == p->fault_level) {   /* tests: this device fails here */
            bb_cpu_raise_abort_word(p->abort, (uint32_t)k.self + 1);
            st = BB_MEET_ABORTED;
            break;
        }
        if (k.rows == 1) k.colfront = k.frontier;
        if ((st = expand(&k, p, level, mine, &exchange_s, &expand_s)) != BB_MEET_OK) break;
        for (int j = 0; j < k.cols; j++) log[BB_G2_LOG_PAIRS + j] = k.counters[BB_G2_CTR_BUCKET + j];
        if ((st = fold(&k, p, level, &exchange_s, &update_s)) != BB_MEET_OK) break;
        v[0] = k.counters[BB_G2_CTR_NEXT];
        v[1] = k.counters[BB_G2_CTR_NEXT_ARCS];
        if ((st = meet(p, &k, BB_G2_MEET_ALL, level, v, 0, 2)) != BB_MEET_OK) break;
        totals(p, &k, level, v, &next, &next_arcs, &most);
        log[BB_G2_LOG_FRONTIER] = mine;
        log[BB_G2_LOG_SCANNED] = k.counters[BB_G2_CTR_ARCS];
        log[BB_G2_LOG_NEXT] = v[0];
        log[BB_G2_LOG_NEXT_ARCS] = v[1];
        log[BB_G2_LOG_NS] = ns(bb_now_s() - t0);
        log[BB_G2_LOG_EXPAND_NS] = ns(expand_s);
        log[BB_G2_LOG_EXCHANGE_NS] = ns(exchange_s);
        log[BB_G2_LOG_UPDATE_NS] = ns(update_s);
        bb_loop_advance(&w, next, next_arcs);
        mine = v[0];
        {
            uint32_t *t = k.frontier;
            k.frontier = k.next_frontier;
            k.next_frontier = t;
        }
    }
    p->out[0] = w.runs;
    p->out[1] = (uint64_t)st;
    return BOXBFS_OK;
}
