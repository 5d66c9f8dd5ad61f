/* Parent gather after the search [DESIGN "Parents"; 004 §2]: a device that
 * discovered a remote vertex kept the parent (remote_parent), or recomputes
 * it (--parents recompute: one pass over its arcs, gather_recompute); the
 * owner only recorded which device delivered it. Owners send each such
 * device the owner-local ids they need (4 bytes each, in increasing order),
 * the device answers in place with its parent lids (4 bytes each), and the
 * owner writes the parents. Both use the left-right schedule and are counted
 * as the parent_gather phase.
 *
 * The requests land in memory dead after the search (README "Memory plan"),
 * which may hold fewer than all of a device's requests at once: each
 * answering device takes its requesters in order, as many as fit in its
 * room (bb_engine_gather_cap; one requester always fits), and the requests
 * and answers go in that many rounds (every device knows every request
 * count, so all agree on the rounds). Each requester -> device message still
 * goes once, whole, in one round: the same bytes and messages as one round,
 * and the modeled time is that of one round of requests and one of answers. */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"

/* Requests of requester r to answering device a (the round's published matrix). */
static uint64_t requests(const struct boxbfs_engine *e, int r, int a)
{
    return r == a ? 0 : e->send_count[(size_t)r * e->ndev + a];
}

/* Device a's room for requests: its requesters in order, as many per round
 * as the room holds (one always fits): requester r's round and place in it
 * into round[r] and at[r] (round -1: no requests). Returns a's rounds. */
static int plan_rooms(const struct boxbfs_engine *e, int a, int *round, uint64_t *at)
{
    uint64_t cap = bb_engine_gather_cap(e, a), used = 0;
    int g = 0, any = 0;
    for (int r = 0; r < e->ndev; r++) {
        uint64_t c = requests(e, r, a);
        round[r] = -1;
        at[r] = 0;
        if (c == 0) continue;
        if (used + c > cap) {
            g++;
            used = 0;
        }
        round[r] = g;
        at[r] = used;
        used += c;
        any = 1;
    }
    return any ? g + 1 : 0;
}

/* The rooms of this device as answerer (round, at), its round at each
 * answerer (to), and the rounds every device runs (the most any needs). */
typedef struct {
    int *round, *to, *scratch;
    uint64_t *at, *scratch_at;
    int rounds;
} gather_plan_t;

static void free_plan(gather_plan_t *p)
{
    free(p->round);
    free(p->to);
    free(p->scratch);
    free(p->at);
    free(p->scratch_at);
}

static boxbfs_status_t make_plan(const struct boxbfs_engine *e, int self, gather_plan_t *p)
{
    size_t n = (size_t)e->ndev;
    boxbfs_status_t st = BOXBFS_OK;
    memset(p, 0, sizeof *p);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(int), "the gather plan", &p->round), st, out);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(int), "the gather plan", &p->to), st, out);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(int), "the gather plan", &p->scratch), st, out);
    BB_CHECK_GOTO(bb_calloc(n, 8, "the gather plan", &p->at), st, out);
    BB_CHECK_GOTO(bb_calloc(n, 8, "the gather plan", &p->scratch_at), st, out);
    p->rounds = 1;
    for (int a = 0; a < e->ndev; a++) {
        int g = plan_rooms(e, a, p->scratch, p->scratch_at);
        if (g > p->rounds) p->rounds = g;
        p->to[a] = p->scratch[self];
    }
    (void)plan_rooms(e, self, p->round, p->at);
    return BOXBFS_OK;
out:
    free_plan(p);
    return st;
}

/* The link-model time of the requests (row s, column d: s asks d) and of
 * the answers (the transpose), as one round each. */
static boxbfs_status_t model_gather(boxbfs_engine_t e, double *seconds_p)
{
    int ndev = e->ndev;
    uint64_t *req, *ans;
    BB_CHECK(bb_calloc((size_t)ndev * ndev, 8, "gather message sizes", &req));
    if (bb_calloc((size_t)ndev * ndev, 8, "gather message sizes", &ans) != BOXBFS_OK) {
        free(req);
        return BOXBFS_ERR_NO_MEMORY;
    }
    for (int s = 0; s < ndev; s++)
        for (int d = 0; d < ndev; d++) {
            req[(size_t)s * ndev + d] = requests(e, s, d) * 4;
            ans[(size_t)d * ndev + s] = requests(e, s, d) * 4;
        }
    *seconds_p = bb_linkmat_leftright_s(&e->linkmat, req) + bb_linkmat_leftright_s(&e->linkmat, ans);
    free(req);
    free(ans);
    return BOXBFS_OK;
}

/* Answer this round's requests in device self's room: from remote_parent,
 * or recomputed (the requests of ascending requesters, each ascending, are
 * the marked vertices in increasing order). */
static boxbfs_status_t answer(boxbfs_engine_t e, int self, const gather_plan_t *p, int g)
{
    bb_engine_dev_t *D = &e->devs[self];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    uint64_t total = 0;
    for (int r = 0; r < e->ndev; r++) {
        uint64_t count = requests(e, r, self);
        if (p->round[r] != g) continue;
        total = p->at[r] + count;
        if (D->parents == BOXBFS_PARENTS_KEEP)
            BB_CHECK(K->gather_answer(&D->k, stream, D->gather_area + p->at[r], count,
                                      e->part.lo[r]));
    }
    if (D->parents != BOXBFS_PARENTS_RECOMPUTE || total == 0) return BOXBFS_OK;
    BB_CHECK(e->ops->zero(D->dev, D->gather_bits, ((D->k.n + 31) / 32) * 4));
    for (int r = 0; r < e->ndev; r++) {
        uint64_t lo = e->part.lo[r];
        if (p->round[r] != g) continue;
        /* lo is a multiple of 32: r's range starts a word of the n bits */
        BB_CHECK(K->pack_bitmap(&D->k, stream, D->gather_area + p->at[r], requests(e, r, self),
                                D->gather_bits + lo / 32, e->part.lo[r + 1] - lo));
    }
    return K->gather_recompute(&D->k, stream, &D->sent_levels, D->gather_bits, D->gather_prefix,
                               D->gather_area, total);
}

/* The rounds of requests and answers (their counts published in send_count). */
static boxbfs_status_t exchange_rounds(boxbfs_engine_t e, int self, const gather_plan_t *p)
{
    bb_engine_dev_t *D = &e->devs[self];
    int ndev = e->ndev;
    bb_exchange_round_t round = {e->src, e->recv, e->bytes, BOXBFS_PHASE_PARENTS, -1};
    for (int g = 0; g < p->rounds; g++) {
        /* requests of round g: self -> s where s takes self's in round g;
         * requester s's requests land in this device's room */
        for (int s = 0; s < ndev; s++) {
            size_t cell = (size_t)self * ndev + s;
            e->bytes[cell] = p->to[s] == g ? requests(e, self, s) * 4 : 0;
            e->src[cell] = D->k.gather_req + e->send_offset[cell];
            e->recv[cell] = D->gather_area + p->at[s];
        }
        if (e->team->publish_rows(e, self)) return BOXBFS_OK;
        BB_CHECK(e->team->exchange(e, &round, self));
        if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* room not whole */
        BB_CHECK(answer(e, self, p, g));
        /* answers of round g: self -> r, in place; they land in r's
         * gather_resp where r's requests to self were */
        for (int r = 0; r < ndev; r++) {
            size_t cell = (size_t)self * ndev + r;
            e->bytes[cell] = p->round[r] == g ? requests(e, r, self) * 4 : 0;
            e->src[cell] = D->gather_area + p->at[r];
            e->recv[cell] = D->k.gather_resp + e->send_offset[cell];
        }
        BB_CHECK(e->ops->sync(D->dev));
        if (e->team->publish_rows(e, self)) return BOXBFS_OK;
        BB_CHECK(e->team->exchange(e, &round, self));
        if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;   /* answers not whole */
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_engine_gather(boxbfs_engine_t e, int self)
{
    bb_engine_dev_t *D = &e->devs[self];
    const bb_kernel_ops_t *K = &e->ops->kernels;
    void *stream = e->ops->stream(D->dev);
    int ndev = e->ndev;
    gather_plan_t plan;
    boxbfs_status_t st;
    double t0 = bb_now_s(), modeled = 0;
    /* requests and answers of this device as requester: the two frontier
     * buffers (hi - lo entries each), dead after the search */
    D->k.gather_req = D->k.frontier;
    D->k.gather_resp = D->k.next_frontier;
    /* requests: owner self -> source s; counts in row self of send_count */
    BB_CHECK(K->gather_requests(&D->k, stream));
    BB_CHECK(e->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CTR_COUNT(ndev) * 8));
    BB_CHECK(e->ops->sync(D->dev));
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)self * ndev + s;
        e->send_count[cell] = s == self ? 0 : D->ctr[BB_CTR_SEND_COUNT(s)];
        e->send_offset[cell] = D->ctr[BB_CTR_SEND_OFFSET(ndev, s)];
        e->bytes[cell] = 0;
    }
    /* every device learns every request count (send_count and send_offset
     * keep them from here on; the rounds change bytes, src and recv) */
    if (e->team->publish_rows(e, self)) return BOXBFS_OK;
    if (self == 0) BB_CHECK(model_gather(e, &modeled));
    BB_CHECK(make_plan(e, self, &plan));
    if (self == 0 && plan.rounds > 1)
        BB_INFO(-1, "parent gather in %d rounds: some device's room holds fewer than its requests",
                plan.rounds);
    st = exchange_rounds(e, self, &plan);
    free_plan(&plan);
    BB_CHECK(st);
    if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;
    for (int s = 0; s < ndev; s++) {
        size_t cell = (size_t)self * ndev + s;
        if (s == self || e->send_count[cell] == 0) continue;
        BB_CHECK(K->gather_apply(&D->k, stream, D->k.gather_req + e->send_offset[cell],
                                 D->k.gather_resp + e->send_offset[cell], e->send_count[cell],
                                 e->part.lo[s]));
    }
    BB_CHECK(e->ops->sync(D->dev));
    if (self == 0) {
        e->gather_modeled_s = modeled;
        e->report.gather_s = bb_now_s() - t0;
    }
    return BOXBFS_OK;
}
