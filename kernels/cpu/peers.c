/* Devices emulated by host threads that work in each other's memory, as the
 * GPUs do over peer access (the device loop and the device search across
 * devices): a vertex won for another device goes straight into its inbox
 * (with its parent where the owner keeps it), a bitmap part into every
 * other device's copy, and the devices meet in each other's mailboxes with
 * the GPUs' protocol (kernels.h, bb_mail_half): values, then the tag with
 * release; then each other device's tag with acquire, and its values. A wait
 * polls the abort word, so one device's failure ends every wait. */
#include "config.h"

#include <sched.h>
#include <string.h>

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

void bb_cpu_raise_abort_word(uint32_t *abort, uint32_t code)
{
    uint32_t none = 0;
    if (abort)   /* the first failure stays: it names the device that failed */
        __atomic_compare_exchange_n(abort, &none, code, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void bb_cpu_raise_abort(const bb_loop_peers_t *p, uint32_t code)
{
    bb_cpu_raise_abort_word(p->abort, code);
}

int bb_cpu_await(uint32_t *abort, uint64_t timeout_ns, int self, const uint64_t *w, uint64_t tag,
                 int in_word, double t0, uint64_t *out)
{
    for (;;) {
        uint64_t x = __atomic_load_n(w, __ATOMIC_ACQUIRE);
        if (in_word ? bb_mail_word_is(x, tag) : x == tag) {
            *out = x;
            return BB_MEET_OK;
        }
        if (abort && __atomic_load_n(abort, __ATOMIC_ACQUIRE) != 0) return BB_MEET_ABORTED;
        if (bb_now_s() - t0 > (double)timeout_ns * 1e-9) {
            bb_cpu_raise_abort_word(abort, ((uint32_t)self + 1) | BB_ABORT_TIMEOUT);
            return BB_MEET_TIMEOUT;
        }
        sched_yield();   /* the device threads may share cores */
    }
}

int bb_cpu_meet(const bb_loop_peers_t *p, int ndev, int self, uint64_t tag, int nvalues,
                const uint64_t (*v)[BB_LOOP_MAX_DEV], uint64_t (*g)[BB_LOOP_MAX_DEV])
{
    double t0 = bb_now_s();
    for (int o = 0; o < ndev; o++) {
        uint64_t *half = bb_mail_half(p->mail[o], self, tag);
        if (o == self) continue;
        for (int j = 0; j < nvalues; j++) half[1 + j] = v[j][o];
        __atomic_store_n(half, tag, __ATOMIC_RELEASE);
    }
    for (int o = 0; o < ndev; o++) {
        const uint64_t *half = bb_mail_half(p->mail[self], o, tag);
        uint64_t x;
        int st;
        if (o == self) continue;
        st = bb_cpu_await(p->abort, p->timeout_ns, self, half, tag, 0, t0, &x);
        if (st != BB_MEET_OK) return st;
        for (int j = 0; j < nvalues; j++) g[j][o] = half[1 + j];
    }
    return BB_MEET_OK;
}

int bb_cpu_meet_words(const bb_loop_peers_t *p, int ndev, int self, uint64_t tag,
                      const uint32_t (*v)[BB_LOOP_MAX_DEV], uint32_t (*g)[BB_LOOP_MAX_DEV])
{
    double t0 = bb_now_s();
    for (int o = 0; o < ndev; o++) {   /* release: the lists before the words */
        uint64_t *w = bb_mail_words(p->mail[o], ndev, self, tag);
        for (int j = 0; o != self && j < BB_MAIL_VALUES; j++)
            __atomic_store_n(w + j, bb_mail_word(tag, v[j][o]), __ATOMIC_RELEASE);
    }
    for (int o = 0; o < ndev; o++) {
        const uint64_t *w = bb_mail_words(p->mail[self], ndev, o, tag);
        for (int j = 0; o != self && j < BB_MAIL_VALUES; j++) {
            uint64_t x;
            int st = bb_cpu_await(p->abort, p->timeout_ns, self, w + j, tag, 1, t0, &x);
            if (st != BB_MEET_OK) return st;
            g[j][o] = (uint32_t)x;
        }
    }
    return BB_MEET_OK;
}

void bb_cpu_send(const bb_kstate_t *k, const bb_loop_peers_t *p, uint32_t v, uint32_t u,
                 uint32_t runs, uint64_t *sent)
{
    int o = bb_cpu_owner(k, v);
    uint64_t slot = bb_loop_slot(sent[o]++, runs, p->cap[o]);
    p->to[o][slot] = (uint32_t)(v - k->range_lo[o]);
    if (p->to_parent[o]) p->to_parent[o][slot] = (uint32_t)(k->lo + u);
    else if (k->remote_parent) k->remote_parent[bb_remote_slot(v, k->lo, k->hi)] = u;
}

void bb_cpu_take_inbox(const bb_kstate_t *k, const bb_loop_peers_t *p, int s, uint64_t count,
                       uint32_t runs, int32_t level, uint32_t *next_frontier, uint64_t *next_p,
                       uint64_t *next_arcs_p)
{
    for (uint64_t i = 0; i < count; i++) {
        uint64_t at = bb_loop_slot(i, runs, p->cap[k->self]);
        uint32_t lid = p->from[s][at];
        if (k->level[lid] != -1) continue;
        k->level[lid] = level;
        k->pred[lid] = p->from_parent[s] ? (int64_t)p->from_parent[s][at] : -(int64_t)s - 2;
        bb_cpu_visit(k, k->lo + lid);
        next_frontier[(*next_p)++] = lid;
        *next_arcs_p += bb_cpu_degree(k, lid);
    }
}

void bb_cpu_push_bits(const bb_kstate_t *k, uint32_t *const *bits, const uint32_t *part)
{
    uint64_t words = (k->hi - k->lo + 31) / 32;
    for (int o = 0; o < k->ndev; o++)
        if (o != k->self) memcpy(bits[o] + k->lo / 32, part, words * 4);
}

void bb_cpu_push_visited(const bb_kstate_t *k, void *const *visited)
{
    uint64_t from = k->visited_bits ? k->lo / 32 * 4 : k->lo;
    uint64_t bytes = k->visited_bits ? (k->hi - k->lo + 31) / 32 * 4 : k->hi - k->lo;
    for (int o = 0; o < k->ndev; o++)
        if (o != k->self) memcpy((char *)visited[o] + from, (const char *)k->visited + from, bytes);
}

uint64_t bb_cpu_stamp_hubs(const bb_kstate_t *k, int32_t *const *hub_level)
{
    uint64_t stored = 0;
    for (uint32_t h = k->hub_first; h < k->hub_first + k->hub_own; h++) {
        int32_t level = k->level[k->hub_gid[h] - k->lo];
        if (level == k->hub_level[h]) continue;
        for (int o = 0; o < k->ndev; o++) hub_level[o][h] = level;
        stored++;
    }
    return stored;
}

/* Host memory has no links to wake; the GPUs' stores all the same (a word
 * in each 256th of every other device's inbox region for this one, so that
 * the cpu backend's tests check those regions' bounds too), then the
 * meeting, as on the GPUs. */
boxbfs_status_t bb_cpu_peers_wake(const bb_kstate_t *k, void *stream, const bb_loop_peers_t *p)
{
    (void)stream;
    for (int o = 0; o < k->ndev; o++)
        for (uint64_t t = 0; o != k->self && p->cap[o] && t < 256; t++)
            p->to[o][t * p->cap[o] / 256] = 0;
    k->counters[BB_CTR_EXPANDED] =
        (uint64_t)bb_cpu_meet(p, k->ndev, k->self, p->tag + 1, 0, NULL, NULL);
    return BOXBFS_OK;
}
