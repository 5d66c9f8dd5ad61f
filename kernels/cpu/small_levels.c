/* The device loop of small levels on the host: the cuda backend runs them
 * in one kernel launch per device (kernels/cuda/small_levels.cu) to save the
 * host round trips of every level; here the same levels in a plain loop,
 * with the same stopping rule and, across devices, the same mailboxes
 * (each device thread calls this at once), so both backends report the
 * same level rows and bytes. */
#include "config.h"

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

/* Several devices: the cuda kernel's peer_levels, a level at a time: two
 * meetings per level (kernels.h bb_mail_half), tags peers.tag + 1, + 2, ...
 * The walk where it stopped; *status_p a failed meeting's BB_MEET_* (the
 * loop stops there). */
bb_loop_walk_t bb_cpu_peer_levels(const bb_kstate_t *k, const bb_loop_params_t *p, int *status_p)
{
    const bb_loop_peers_t *peers = &p->peers;
    int ndev = k->ndev, self = k->self;
    size_t row = BB_LOG_ROW(ndev);
    uint32_t *cur = k->frontier, *nxt = k->next_frontier;
    bb_loop_walk_t w = bb_loop_begin(p, p->count, p->arcs);
    uint64_t mine = peers->local_count, mine_arcs = peers->local_arcs;
    *status_p = BB_MEET_OK;
    while (!bb_loop_stops(p, &w)) {
        double t0 = bb_now_s(), t_expand, wait;
        uint64_t tag = peers->tag + 2 * (uint64_t)w.runs, next = 0, next_arcs = 0;
        uint64_t sent[BB_LOOP_MAX_DEV] = {0}, got[BB_LOOP_MAX_DEV] = {0};
        uint64_t nexts[BB_LOOP_MAX_DEV], arcss[BB_LOOP_MAX_DEV];
        uint64_t got_next[BB_LOOP_MAX_DEV] = {0}, got_arcs[BB_LOOP_MAX_DEV] = {0};
        uint64_t *log = k->level_log + (size_t)w.runs * row;
        for (uint64_t i = 0; i < mine; i++) {
            uint32_t u = cur[i];
            for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
                uint32_t v = k->columns[e];
                if (!bb_cpu_visit(k, v)) continue;
                if (v >= k->lo && v < k->hi) {
                    k->level[v - k->lo] = w.level + 1;
                    k->pred[v - k->lo] = (int64_t)(k->lo + u);
                    nxt[next++] = (uint32_t)(v - k->lo);
                    next_arcs += bb_cpu_degree(k, v - k->lo);
                    continue;
                }
                bb_cpu_send(k, peers, v, u, sent);
            }
        }
        t_expand = bb_now_s();
        *status_p = bb_cpu_meet(peers, ndev, self, tag + 1, 1, sent, NULL, got, NULL);
        if (*status_p != BB_MEET_OK) break;
        wait = bb_now_s() - t_expand;
        for (int s = 0; s < ndev; s++)   /* the first source to deliver a vertex is its parent's */
            if (s != self)
                bb_cpu_take_inbox(k, peers, s, got[s], w.level + 1, nxt, &next, &next_arcs);
        for (int o = 0; o < ndev; o++) {
            nexts[o] = next;
            arcss[o] = next_arcs;
        }
        {
            double t_meet = bb_now_s();
            *status_p = bb_cpu_meet(peers, ndev, self, tag + 2, 2, nexts, arcss, got_next, got_arcs);
            if (*status_p != BB_MEET_OK) break;
            wait += bb_now_s() - t_meet;
        }
        log[0] = w.count;
        log[1] = w.arcs;
        log[2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        log[3] = mine;
        log[BB_LOG_EXPAND_NS] = (uint64_t)((t_expand - t0) * 1e9);
        log[BB_LOG_MEET_NS] = (uint64_t)(wait * 1e9);
        log[BB_LOG_STEP] = BB_STEP_LOOP;
        for (int o = 0; o < ndev; o++) log[BB_LOG_SENT + o] = sent[o];
        {
            uint64_t total = next, total_arcs = next_arcs;
            for (int o = 0; o < ndev; o++) {
                total += got_next[o];
                total_arcs += got_arcs[o];
            }
            bb_loop_advance(&w, total, total_arcs);
        }
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
    return w;
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
            for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
                uint32_t v = k->columns[e];   /* one device: local = global ids */
                if (k->level[v] != -1) continue;
                k->level[v] = w.level + 1;
                k->pred[v] = (int64_t)u;
                if (k->visited) bb_cpu_visit(k, v);
                nxt[next++] = v;
                next_arcs += bb_cpu_degree(k, v);
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
