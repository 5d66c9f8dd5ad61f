/* The device loop of small levels on the host: the cuda backend runs them
 * in one kernel launch per device (kernels/cuda/small_levels.cu) to save the
 * host round trips of every level; here the same levels in a plain loop,
 * with the same stopping rule and, across devices, the same mailboxes
 * (each device thread calls this at once), so both backends report the
 * same level rows and bytes. */
#include "config.h"

#include <string.h>

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

/* Undo the expansion of a level the loop should not have run (the cuda
 * kernel's undo_level): own winners (nxt[0 .. won)) and the remote ones in
 * the lists sent (run `runs`'s slots) unvisited again, the own ones without
 * a level and parent. */
static void undo_level(const bb_kstate_t *k, const bb_loop_peers_t *peers, const uint32_t *nxt,
                       uint64_t won, const uint64_t *sent, uint32_t runs)
{
    for (uint64_t i = 0; i < won; i++) {
        k->level[nxt[i]] = -1;
        k->pred[nxt[i]] = -1;
        bb_cpu_unmark(k, k->lo + nxt[i]);
    }
    for (int o = 0; o < k->ndev; o++)
        for (uint64_t i = 0; o != k->self && i < sent[o]; i++)
            bb_cpu_unmark(k, k->range_lo[o] + peers->to[o][bb_loop_slot(i, runs, peers->cap[o])]);
}

/* Several devices: the cuda kernel's peer_levels, a level at a time: one
 * meeting a level (tags peers.tag + 1, + 2, ...; kernels.h
 * bb_loop_stops_here), a level the totals rule out undone. The walk where
 * it stopped; *status_p a failed meeting's BB_MEET_* (the loop stops there). */
bb_loop_walk_t bb_cpu_peer_levels(const bb_kstate_t *k, const bb_loop_params_t *p, int *status_p)
{
    const bb_loop_peers_t *peers = &p->peers;
    int ndev = k->ndev, self = k->self, known = 1;   /* w's count and arcs are the totals */
    size_t row = BB_LOG_ROW(ndev);
    uint32_t *cur = k->frontier, *nxt = k->next_frontier;
    bb_loop_walk_t w = bb_loop_begin(p, p->count, p->arcs);
    uint64_t mine = peers->local_count, mine_arcs = peers->local_arcs;
    uint64_t spill[BB_LOOP_MAX_DEV] = {0};
    *status_p = BB_MEET_OK;
    while (!(known && bb_loop_stops(p, &w))) {
        double t0 = bb_now_s(), t_expand, wait;
        uint32_t runs = w.runs;
        int expand = !bb_loop_stops_here(p, &w, mine_arcs);
        uint64_t next = 0, next_arcs = 0, sent[BB_LOOP_MAX_DEV] = {0};
        uint32_t v[BB_MAIL_VALUES][BB_LOOP_MAX_DEV], g[BB_MAIL_VALUES][BB_LOOP_MAX_DEV] = {{0}};
        uint64_t *log = k->level_log + (size_t)runs * row;
        bb_loop_walk_t at = w;
        for (uint64_t i = 0; expand && i < mine; i++) {
            uint32_t u = cur[i];
            for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
                uint32_t x = k->columns[e];
                if (!bb_cpu_visit(k, x)) continue;
                if (x >= k->lo && x < k->hi) {
                    k->level[x - k->lo] = w.level + 1;
                    k->pred[x - k->lo] = (int64_t)(k->lo + u);
                    nxt[next++] = (uint32_t)(x - k->lo);
                    next_arcs += bb_cpu_degree(k, x - k->lo);
                    continue;
                }
                bb_cpu_send(k, peers, x, u, runs, sent);
            }
        }
        for (int o = 0; o < ndev; o++) {   /* the list for o; this device's part of the frontier */
            v[0][o] = (uint32_t)sent[o];
            v[1][o] = (uint32_t)mine;
            v[2][o] = (uint32_t)mine_arcs;
            v[3][o] = (uint32_t)(mine_arcs >> 32);
        }
        t_expand = bb_now_s();
        *status_p = bb_cpu_meet_words(peers, ndev, self, peers->tag + runs + 1,
                                      (const uint32_t(*)[BB_LOOP_MAX_DEV])v, g);
        if (*status_p != BB_MEET_OK) break;
        wait = bb_now_s() - t_expand;
        at.count = mine;
        at.arcs = mine_arcs;
        for (int o = 0; o < ndev; o++) {
            if (o == self) continue;
            at.count += g[1][o];
            at.arcs += g[2][o] | (uint64_t)g[3][o] << 32;
        }
        if (!known && bb_loop_stops(p, &at)) {
            if (expand) {
                undo_level(k, peers, nxt, next, sent, runs);
                memcpy(spill, sent, sizeof spill);
            }
            w = at;
            break;
        }
        w = at;
        for (int s = 0; s < ndev; s++)   /* the first source to deliver a vertex is its parent's */
            if (s != self)
                bb_cpu_take_inbox(k, peers, s, g[0][s], runs, w.level + 1, nxt, &next, &next_arcs);
        log[0] = w.count;
        log[1] = w.arcs;
        log[2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        log[3] = mine;
        log[BB_LOG_EXPAND_NS] = (uint64_t)((t_expand - t0) * 1e9);
        log[BB_LOG_MEET_NS] = (uint64_t)(wait * 1e9);
        log[BB_LOG_STEP] = BB_STEP_LOOP;
        log[BB_LOG_UNDONE] = 0;
        log[BB_LOG_HUBS] = 0;
        for (int o = 0; o < ndev; o++) log[BB_LOG_SENT + o] = sent[o];
        bb_loop_advance(&w, 0, 0);   /* the next frontier's totals come with the next meeting */
        known = 0;
        mine = next;
        mine_arcs = next_arcs;
        {
            uint32_t *t = cur;
            cur = nxt;
            nxt = t;
        }
    }
    k->counters[BB_CTR_EXPANDED] = *status_p != BB_MEET_OK ? BB_LOOP_FAILED : w.runs;
    k->counters[BB_CTR_NEXT] = mine;
    k->counters[BB_CTR_NEXT_ARCS] = mine_arcs;
    for (int o = 0; o < ndev; o++) k->counters[BB_CTR_SEND_COUNT(o)] = o == self ? 0 : spill[o];
    return w;
}

/* The degree of vertex u, and its head j, through its short row where
 * the device has them (the cuda kernel's loop_row). */
static uint64_t loop_degree(const bb_kstate_t *k, uint32_t u)
{
    if (k->short_rows == NULL) return bb_cpu_degree(k, u);
    const uint32_t *r = k->short_rows + 4 * (uint64_t)u;
    return bb_short_degree(r[0], r[1], r[2], r[3]);
}

static uint32_t loop_head(const bb_kstate_t *k, uint32_t u, uint64_t j)
{
    if (k->short_rows == NULL) return k->columns[k->offsets[u] + (int64_t)j];
    const uint32_t *r = k->short_rows + 4 * (uint64_t)u;
    return bb_short_head(r[0], r[1], r[2], r[3], (uint32_t)j, k->columns);
}

/* One device: the levels from a frontier of count vertices and arcs; the
 * walk where they stopped (the device search goes on from there). */
bb_loop_walk_t bb_cpu_one_device_levels(const bb_kstate_t *k, const bb_loop_params_t *p,
                                        uint64_t count, uint64_t arcs)
{
    uint32_t *cur = k->frontier, *nxt = k->next_frontier;
    bb_loop_walk_t w = bb_loop_begin(p, count, arcs);
    while (!bb_loop_stops(p, &w)) {
        double t0 = bb_now_s();
        uint64_t next = 0, next_arcs = 0;
        uint64_t *log = k->level_log + (size_t)w.runs * BB_LOG_FIELDS;
        for (uint64_t i = 0; i < w.count; i++) {
            uint32_t u = cur[i];
            for (uint64_t j = 0, deg = loop_degree(k, u); j < deg; j++) {
                uint32_t v = loop_head(k, u, j);   /* one device: local = global ids */
                if (k->level[v] != -1) continue;
                k->level[v] = w.level + 1;
                k->pred[v] = (int64_t)u;
                if (k->visited) bb_cpu_visit(k, v);
                nxt[next++] = v;
                next_arcs += loop_degree(k, v);
            }
        }
        log[0] = w.count;
        log[1] = w.arcs;
        log[2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        log[3] = 0;
        bb_loop_advance(&w, next, next_arcs);
        {
            uint32_t *t = cur;
            cur = nxt;
            nxt = t;
        }
    }
    k->counters[BB_CTR_EXPANDED] = w.runs;
    k->counters[BB_CTR_NEXT] = w.count;
    k->counters[BB_CTR_NEXT_ARCS] = w.arcs;
    return w;
}

boxbfs_status_t bb_cpu_small_levels(const bb_kstate_t *k, void *stream, const bb_loop_params_t *p)
{
    int status;
    (void)stream;
    if (k->ndev > 1) {
        bb_cpu_peer_levels(k, p, &status);
        return BOXBFS_OK;
    }
    bb_cpu_one_device_levels(k, p, p->from_counters ? k->counters[BB_CTR_NEXT] : p->count,
                             p->from_counters ? k->counters[BB_CTR_NEXT_ARCS] : p->arcs);
    return BOXBFS_OK;
}
