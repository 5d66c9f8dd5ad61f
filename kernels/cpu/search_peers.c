/* The device search across devices on the host (README "Where a search
 * runs"): every emulated device's thread runs its whole search at once and
 * the devices work in each other's memory as the GPUs do over peer access
 * (kernels/cuda/search_peers.cu), with the same steps, meetings and rows,
 * so both backends book the same bytes:
 *   loop       the device loop across devices (bb_cpu_peer_levels);
 *   top-down   (split hubs, bb_peers_split_hubs: the levels of this
 *              device's hubs that changed into every device's hub_level)
 *              (a big one, bb_peers_share_visited: meet, store this
 *              device's part of visited into every other device's) (meet,
 *              where either came before) the atomic expand, remote winners
 *              with their parents into this device's list for their owner
 *              (split: every hub's part of its row that leads here too,
 *              this device's hubs left out of its list), the lists into
 *              their owners' inboxes; meet (the lists' sizes); take the
 *              inboxes; meet (the next frontier's size and arcs);
 *   bottom-up  (after a list: pack it into this device's part of the
 *              frontier bitmap, store the part into every other device's
 *              copy, meet) mark the frontier visited, search the parents,
 *              store the next part into every device's other bitmap; meet.
 * A meeting that fails (a device raised the abort word, or one never came)
 * ends the search with s->aborted. */
#include "config.h"

#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

static uint64_t ns_since(double t) { return (uint64_t)((bb_now_s() - t) * 1e9); }

/* A meeting of the search (the next tag); its wait added to *wait_s. */
static int meet(bb_search_t *s, int ndev, int self, int nvalues,
                const uint64_t (*v)[BB_LOOP_MAX_DEV], uint64_t (*g)[BB_LOOP_MAX_DEV],
                double *wait_s)
{
    double t0 = bb_now_s();
    int st = bb_cpu_meet(&s->peers, ndev, self, ++s->peers.tag, nvalues, v, g);
    *wait_s += bb_now_s() - t0;
    if (st != BB_MEET_OK) {
        s->aborted = st;
        s->abort_code = __atomic_load_n(s->peers.abort, __ATOMIC_ACQUIRE);
    }
    return st == BB_MEET_OK;
}

/* The top-down step's own work; sent[o]: the vertices it sent device o,
 * *hubs_p the hubs' levels it stored. */
static int top_down(const bb_kstate_t *k, bb_search_t *s, uint64_t *sent, uint64_t *hubs_p,
                    double *own_s, double *wait_s)
{
    int ndev = k->ndev, self = k->self;
    int split = bb_peers_split_hubs(BB_STEP_TOP_DOWN, s->w.count, s->w.arcs, k->hubs,
                                    k->hub_degree);
    uint64_t got[1][BB_LOOP_MAX_DEV] = {{0}}, next, arcs;
    bb_loop_peers_t staged = s->peers;   /* the lists gathered here first */
    double t0 = bb_now_s();
    for (int o = 0; o < ndev; o++) {
        staged.to[o] = s->stage[o];
        staged.to_parent[o] = s->stage_parent[o];
    }
    if (split) *hubs_p = bb_cpu_stamp_hubs(k, s->hub_level);
    if (bb_peers_share_visited(BB_STEP_TOP_DOWN, s->w.arcs, k->n)) {
        if (!meet(s, ndev, self, 0, NULL, NULL, wait_s)) return 0;   /* arrays settled */
        bb_cpu_push_visited(k, s->visited);
        if (!meet(s, ndev, self, 0, NULL, NULL, wait_s)) return 0;
    } else if (split && !meet(s, ndev, self, 0, NULL, NULL, wait_s)) {   /* the hubs' levels */
        return 0;
    }
    if (k->rank_prefix && bb_prefix_raises(s->w.arcs, k->n)) bb_cpu_raise_prefix(k, NULL);
    bb_cpu_expand_peers(k, &staged, s->mine, s->w.level + 1, sent, split);
    for (int o = 0; o < ndev; o++)
        if (o != self && sent[o]) {
            memcpy(s->peers.to[o], s->stage[o], sent[o] * 4);
            memcpy(s->peers.to_parent[o], s->stage_parent[o], sent[o] * 4);
        }
    *own_s = bb_now_s() - t0 - *wait_s;
    if (!meet(s, ndev, self, 1, (const uint64_t(*)[BB_LOOP_MAX_DEV])sent, got, wait_s)) return 0;
    next = k->counters[BB_CTR_NEXT];
    arcs = k->counters[BB_CTR_NEXT_ARCS];
    for (int o = 0; o < ndev; o++)
        if (o != self)
            bb_cpu_take_inbox(k, &s->peers, o, got[0][o], 0, s->w.level + 1, k->next_frontier, &next,
                              &arcs);
    k->counters[BB_CTR_NEXT] = next;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    return 1;
}

/* The bottom-up step (k->frontier: the list where pack). */
static int bottom_up(bb_kstate_t *k, bb_search_t *s, int pack, double *wait_s)
{
    int self = k->self;
    uint64_t nloc = k->hi - k->lo, at = k->lo / 32;
    uint32_t *cur = s->bits[s->parity][self], *nxt = s->bits[s->parity ^ 1][self];
    if (pack) {   /* this device's part of the frontier, then every device's whole */
        bb_cpu_pack_bitmap(k, NULL, k->frontier, s->mine, cur + at, nloc);
        bb_cpu_push_bits(k, s->bits[s->parity], cur + at);
        if (!meet(s, k->ndev, self, 0, NULL, NULL, wait_s)) return 0;
    }
    k->frontier_bits = cur;
    k->own_bits = nxt + at;
    bb_cpu_mark_frontier(k, NULL);
    bb_cpu_bottom_up(k, NULL, s->w.level + 1);
    bb_cpu_push_bits(k, s->bits[s->parity ^ 1], nxt + at);
    return 1;
}

boxbfs_status_t bb_cpu_search_peers(const bb_kstate_t *k0, bb_search_t *s, uint64_t *first_rows,
                                    uint32_t first)
{
    int ndev = k0->ndev, self = k0->self;
    size_t width = BB_LOG_ROW(ndev);
    double t_first = bb_now_s();
    for (int step; (step = bb_search_step(s)) != BB_STEP_NONE;) {
        uint64_t *row = k0->level_log + (size_t)s->rows * width;
        uint64_t sent[BB_LOOP_MAX_DEV] = {0}, v[2][BB_LOOP_MAX_DEV], g[2][BB_LOOP_MAX_DEV] = {{0}};
        uint64_t total, total_arcs, hubs = 0;
        bb_kstate_t k = *k0;
        double t0 = bb_now_s(), own_s = 0, wait_s = 0;
        int pack, unpack = bb_peers_begin(s, step, &pack);
        if (s->fault_level == s->w.level) {   /* tests: this device fails here */
            bb_cpu_raise_abort(&s->peers, (uint32_t)self + 1);
            s->aborted = BB_MEET_ABORTED;
            s->abort_code = (uint32_t)self + 1;
            break;
        }
        k.frontier = s->frontier;
        k.next_frontier = s->next_frontier;
        memset(k.counters, 0, BB_CTR_COUNT(ndev) * 8);
        if (unpack)
            bb_cpu_unpack_bitmap(&k, NULL, s->bits[s->parity][self] + k.lo / 32, k.hi - k.lo,
                                 k.frontier);
        if (step == BB_STEP_LOOP) {
            bb_loop_params_t p = bb_search_loop_params(s);
            int status;
            bb_loop_walk_t w;
            k.level_log = row;
            w = bb_cpu_peer_levels(&k, &p, &status);
            s->peers.tag += bb_loop_meetings(w.runs);
            if (status != BB_MEET_OK) {
                s->aborted = status;
                s->abort_code = __atomic_load_n(s->peers.abort, __ATOMIC_ACQUIRE);
                break;
            }
            bb_search_after_loop(s, &w);
            s->mine = k.counters[BB_CTR_NEXT];
            s->mine_arcs = k.counters[BB_CTR_NEXT_ARCS];
            for (int o = 0; o < ndev; o++) s->spill[o] = k.counters[BB_CTR_SEND_COUNT(o)];
            continue;
        }
        if (step == BB_STEP_TOP_DOWN ? !top_down(&k, s, sent, &hubs, &own_s, &wait_s)
                                     : !bottom_up(&k, s, pack, &wait_s))
            break;
        for (int o = 0; o < ndev; o++) {
            v[0][o] = k.counters[BB_CTR_NEXT];   /* the next frontier here, its arcs */
            v[1][o] = k.counters[BB_CTR_NEXT_ARCS];
        }
        if (step == BB_STEP_BOTTOM_UP) own_s = bb_now_s() - t0 - wait_s;
        if (!meet(s, ndev, self, 2, (const uint64_t(*)[BB_LOOP_MAX_DEV])v, g, &wait_s)) break;
        total = v[0][self];
        total_arcs = v[1][self];
        for (int o = 0; o < ndev; o++) {
            if (o == self) continue;
            total += g[0][o];
            total_arcs += g[1][o];
        }
        bb_peers_log_row(row, s, ndev, step, ns_since(t0), (uint64_t)(own_s * 1e9),
                         (uint64_t)(wait_s * 1e9), sent);
        row[BB_LOG_HUBS] = hubs;
        bb_peers_advance(s, step, total, total_arcs, v[0][self], v[1][self]);
    }
    s->span_ns = ns_since(t_first);
    memcpy(first_rows, k0->level_log, (size_t)(s->rows < first ? s->rows : first) * width * 8);
    return BOXBFS_OK;
}
