/* The device loop of small levels on the host: the cuda backend runs them
 * in one kernel launch per device (kernels/cuda/small_levels.cu) to save the
 * host round trips of every level; here the same levels in a plain loop,
 * with the same stopping rule and, across devices, the same mailboxes
 * (each device thread calls this at once), so both backends report the
 * same level rows and bytes. */
#include "config.h"

#include <sched.h>

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

/* A meeting of the loop across devices (the cuda kernel's meet): value[o]
 * (and value2[o]) into o's mailbox slot for self at word `at`, the tag
 * before it with release; then the same from every other device. 0: some
 * device never came (the search was aborted, or the timeout passed). */
static int meet(const bb_loop_peers_t *peers, int ndev, int self, int at, const uint64_t *value,
                const uint64_t *value2, uint64_t tag, uint64_t *got, uint64_t *got2)
{
    double t0 = bb_now_s();
    for (int o = 0; o < ndev; o++) {
        uint64_t *slot = peers->mail[o] + (size_t)self * BB_MAIL_WORDS;
        if (o == self) continue;
        slot[at] = value[o];
        if (value2) slot[at + 1] = value2[o];
        __atomic_store_n(slot + at - 1, tag, __ATOMIC_RELEASE);
    }
    for (int o = 0; o < ndev; o++) {
        const uint64_t *slot = peers->mail[self] + (size_t)o * BB_MAIL_WORDS;
        if (o == self) continue;
        while (__atomic_load_n(slot + at - 1, __ATOMIC_ACQUIRE) != tag) {
            if ((peers->aborted && peers->aborted(peers->aborted_ctx)) ||
                bb_now_s() - t0 > (double)peers->timeout_ns * 1e-9)
                return 0;
            sched_yield();   /* the device threads may share cores */
        }
        got[o] = slot[at];
        if (got2) got2[o] = slot[at + 1];
    }
    return 1;
}

/* Several devices: the cuda kernel's peer_levels, a level at a time. */
static boxbfs_status_t peer_levels(const bb_kstate_t *k, const bb_loop_params_t *p)
{
    const bb_loop_peers_t *peers = &p->peers;
    int ndev = k->ndev, self = k->self;
    size_t row = BB_LOG_ROW(ndev);
    uint32_t *cur = k->frontier, *nxt = k->next_frontier;
    bb_loop_walk_t w = bb_loop_begin(p, p->count, p->arcs);
    uint64_t mine = peers->local_count, mine_arcs = peers->local_arcs;
    int failed = 0;
    while (!bb_loop_stops(p, &w)) {
        double t0 = bb_now_s(), t_expand, t_meet;
        uint64_t tag = peers->tag + w.runs + 1, next = 0, next_arcs = 0;
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
                int o = bb_cpu_owner(k, v);
                peers->to[o][sent[o]++] = (uint32_t)(v - k->range_lo[o]);
                if (k->remote_parent) k->remote_parent[bb_remote_slot(v, k->lo, k->hi)] = u;
            }
        }
        t_expand = bb_now_s();
        if (!meet(peers, ndev, self, 1, sent, NULL, tag, got, NULL)) {
            failed = 1;
            break;
        }
        t_meet = bb_now_s();
        for (int s = 0; s < ndev; s++) {   /* the first source to deliver a vertex is its parent's */
            for (uint64_t i = 0; s != self && i < got[s]; i++) {
                uint32_t lid = peers->from[s][i];
                if (k->level[lid] != -1) continue;
                k->level[lid] = w.level + 1;
                k->pred[lid] = -(int64_t)s - 2;
                bb_cpu_visit(k, k->lo + lid);
                nxt[next++] = lid;
                next_arcs += bb_cpu_degree(k, lid);
            }
        }
        for (int o = 0; o < ndev; o++) {
            nexts[o] = next;
            arcss[o] = next_arcs;
        }
        if (!meet(peers, ndev, self, 3, nexts, arcss, tag, got_next, got_arcs)) {
            failed = 1;
            break;
        }
        log[0] = w.count;
        log[1] = w.arcs;
        log[2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        log[3] = mine;
        log[BB_LOG_EXPAND_NS] = (uint64_t)((t_expand - t0) * 1e9);
        log[BB_LOG_MEET_NS] = (uint64_t)((t_meet - t_expand) * 1e9);
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
    k->counters[BB_CTR_EXPANDED] = failed ? BB_LOOP_FAILED : w.runs;
    k->counters[BB_CTR_NEXT] = mine;
    k->counters[BB_CTR_NEXT_ARCS] = mine_arcs;
    return BOXBFS_OK;
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
    (void)stream;
    if (k->ndev > 1) return peer_levels(k, p);
    bb_cpu_one_device_levels(k, p, p->from_counters ? k->counters[BB_CTR_NEXT] : p->count,
                             p->from_counters ? k->counters[BB_CTR_NEXT_ARCS] : p->arcs);
    return BOXBFS_OK;
}
