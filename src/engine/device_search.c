/* The device search (kernels.h bb_search_t; docs/architecture.md "Where a
 * search runs"): the whole search without the host between levels, every
 * level by the engine's rules (top-down, bottom-up, or the device loop),
 * one row per level in the devices' logs. One device with the atomic
 * method: one launch (the cuda backend: a CUDA graph per step, each step's
 * last kernel launching the next one's from the device; the cpu backend the
 * same steps in a plain loop). Several
 * devices of this process with peer access: every device runs it at once
 * and they meet in each other's memory (kernels.h bb_loop_peers_t): a
 * vertex found for another device goes with its parent into that device's
 * inbox, a bottom-up frontier part into every device's bitmap, and the sums
 * the rules read meet in mailboxes; nothing is gathered after the search.
 * The engine then books the rows as if it had run the levels (the bytes
 * every device stored into another's memory, from the counts it logged),
 * and checks that each one is the level its own rule expected. */
#include "config.h"

#include "engine/engine.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"

int bb_search_fits(const struct boxbfs_engine *e)
{
    if (e->search_peers) return 1;
    return e->ndev == 1 && e->nlocal == 1 && !e->grid && e->ops->kernels.search != NULL &&
           e->opts.contract == BOXBFS_CONTRACT_ATOMIC && e->opts.device_loop_arcs > 0 &&
           e->opts.search_on != BOXBFS_SEARCH_ON_HOST && e->devs[0].k.level_log != NULL &&
           !e->devs[0].search_off;
}

const char *bb_search_peers_refusal(const struct boxbfs_engine *e, int peer_ok)
{
    const boxbfs_engine_options_t *o = &e->opts;
    if (e->nlocal != e->ndev) return "its devices are in several processes";
    if (e->grid) return "the 2d partition runs its own levels";
    if (e->ndev > BB_LOOP_MAX_DEV) return "it meets at most 8 devices";
    if (o->contract != BOXBFS_CONTRACT_ATOMIC) return "it needs --contract atomic";
    if (o->exchange != BOXBFS_EXCHANGE_PEER) return "it needs --exchange peer";
    if (!peer_ok) return "some pair of devices has no peer access";
    if (o->throttle) return "--throttle paces copies that the host issues";
    if (o->wire == BOXBFS_WIRE_BITMAP) return "its lists carry parents, --wire bitmap has none";
    if (o->parents == BOXBFS_PARENTS_RECOMPUTE)
        return "its parents travel with the vertices (--parents recompute)";
    if (o->device_loop_arcs <= 0) return "--device-loop 0 keeps every level on the host";
    if (e->ops->kernels.search == NULL) return "the backend has no device search";
    return NULL;
}

/* Device d's inbox region for source s (s != d): the vertices, or their
 * parents (device_setup.c's layout: every source's vertices, then every
 * source's parents, bb_engine_peer_cap(d) entries each). */
static uint32_t *peer_inbox(boxbfs_engine_t e, int d, int s, int parents)
{
    size_t region = (size_t)(s - (s > d)) + (parents ? (size_t)(e->ndev - 1) : 0);
    return e->devs[d].k.inbox + region * bb_engine_peer_cap(e, d);
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
    s.fault_level = -1;
    return s;
}

/* Several devices: device d's peers, bitmaps and part of the frontier. */
static void peers_start(boxbfs_engine_t e, int d, bb_search_t *s)
{
    bb_loop_peers_t *p = &s->peers;
    s->log_cap = bb_loop_log_rows(e->ndev);
    s->mine = e->frontier_count[d];
    s->mine_arcs = e->frontier_arcs[d];
    p->tag = e->devs[d].loop_tag;
    p->timeout_ns = BB_PEER_TIMEOUT_NS;
    p->abort = e->abort_word;
    uint64_t at = 0, remote = bb_engine_peer_caps_but(e, d);
    for (int o = 0; o < e->ndev; o++) {
        p->mail[o] = e->devs[o].loop_mail;
        p->cap[o] = bb_engine_peer_cap(e, o);   /* peer_inbox's regions */
        s->bits[0][o] = e->devs[o].bits[0];
        s->bits[1][o] = e->devs[o].bits[1];
        s->visited[o] = e->devs[o].k.visited;
        s->hub_level[o] = e->devs[o].k.hub_level;
        if (o == d) continue;
        p->to[o] = peer_inbox(e, o, d, 0);
        p->to_parent[o] = peer_inbox(e, o, d, 1);
        p->from[o] = peer_inbox(e, d, o, 0);
        p->from_parent[o] = peer_inbox(e, d, o, 1);
        s->stage[o] = e->devs[d].stage + at;   /* device_setup.c's layout */
        s->stage_parent[o] = e->devs[d].stage + remote + at;
        at += bb_engine_peer_cap(e, o);
    }
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
        BB_CHECK(bb_engine_expect_level(e, level, L, dir));
        BB_CHECK(bb_engine_book_row(e, level, L, dir, loop, i + 1 < s->rows ? N[0] : s->w.count,
                                  i + 1 < s->rows ? N[1] : s->w.arcs));
    }
    *level_p += (int)s->rows;
    return BOXBFS_OK;
}

/* Several devices: the bytes of level `level` (row i of every device's
 * log) on each link, by what the step stored into peer memory: every
 * meeting's tag and values (the sizes phase: a top-down level's lists'
 * sizes before they are taken, the barrier before a bottom-up level whose
 * frontier was packed, a loop level's one meeting with its list's size and
 * its part of the frontier; the termination phase: a step's next
 * frontier's size and arcs, and the meeting at which a loop stopped, on its
 * last level, end_of_loop), the lists of vertices and their parents (the
 * frontier phase: 8 bytes a vertex, nothing is gathered after the search;
 * a level the loop before undid adds its lists, kernels.h
 * bb_loop_stops_here), a bottom-up level's bitmap parts (its own frontier
 * where it packed it, and its next frontier), a top-down level's part of
 * visited between two meetings where it shares visited
 * (bb_peers_share_visited), and where it splits the hubs' rows
 * (bb_peers_split_hubs) the levels of its hubs that changed (the hubs
 * phase, 4 bytes each) and, unless it shares visited, the meeting after
 * them; then the level's row, times and direction as the host levels book
 * them (level.c). */
static void book_peers_level(boxbfs_engine_t e, int level, uint32_t i, int end_of_loop)
{
    int ndev = e->ndev;
    size_t width = BB_LOG_ROW(ndev);
    boxbfs_level_report_t *r = &e->traffic.levels[level];
    int step = (int)e->devs[0].loop_log[(size_t)i * width + BB_LOG_STEP];
    int bottom_up = step == BB_STEP_BOTTOM_UP, loop = step == BB_STEP_LOOP;
    int pack = bottom_up && e->prev_dir != BOXBFS_SEARCH_BOTTOM_UP;
    int64_t first = pack ? 8 : bottom_up ? 0 : loop ? 32 : 16;   /* the first meeting's bytes */
    int64_t last = !loop ? 24 : end_of_loop ? 32 : 0;            /* the termination's */
    const uint64_t *row = e->devs[0].loop_log + (size_t)i * width;   /* frontier, arcs */
    uint64_t count = row[0], arcs = row[1];
    int share = bb_peers_share_visited(step, arcs, (uint64_t)e->graph->n);
    int split = bb_peers_split_hubs(step, count, arcs, e->hubs, e->hub_degree);
    for (int s = 0; s < ndev; s++) {
        const uint64_t *L = e->devs[s].loop_log + (size_t)i * width;
        uint64_t nloc = e->part.lo[s + 1] - e->part.lo[s], words = (nloc + 31) / 32;
        int64_t visited = !share ? 0 : e->devs[s].k.visited_bits ? (int64_t)words * 4
                                                                  : (int64_t)nloc;
        int64_t hubs = 4 * (int64_t)L[BB_LOG_HUBS];   /* the hubs' levels it stored */
        r->frontier += (int64_t)L[3];
        r->undone_vertices += (int64_t)L[BB_LOG_UNDONE];
        for (int d = 0; d < ndev; d++) {
            size_t cell = (size_t)s * ndev + d;
            uint64_t sent = d == s ? 0 : L[BB_LOG_SENT + d];
            int64_t parts = bottom_up ? (int64_t)((pack ? 2 : 1) * words * 4) : 0;
            e->send_count[cell] = sent;
            e->bytes[cell] = (uint64_t)(parts + visited + hubs) + 8 * sent;
            if (d == s) {
                e->bytes[cell] = 0;
                continue;
            }
            if (share) {   /* a meeting, its part of visited, a meeting */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_VISITED, level, s, d, visited, 1);
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 16, 2);
            }
            if (split && hubs)   /* the levels of its hubs that changed */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_HUBS, level, s, d, hubs, 1);
            if (split && !share)   /* the meeting after them (share's first serves else) */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, 8, 1);
            if (first) bb_traffic_add(&e->traffic, BOXBFS_PHASE_SIZES, level, s, d, first, 1);
            if (last) bb_traffic_add(&e->traffic, BOXBFS_PHASE_TERMINATION, level, s, d, last, 1);
            if (bottom_up) {   /* (a part of no words still counts) */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_FRONTIER_BITMAP, level, s, d, parts,
                               pack ? 2 : 1);
                r->bitmap_messages += pack ? 2 : 1;
            }
            if (sent) {   /* each vertex and its parent */
                bb_traffic_add(&e->traffic, BOXBFS_PHASE_FRONTIER, level, s, d,
                               (int64_t)sent * 8, 1);
                r->sent_vertices += (int64_t)sent;
            }
        }
        bb_engine_book_device(e, level, s, L);
    }
    r->direction = bottom_up ? BOXBFS_SEARCH_BOTTOM_UP : BOXBFS_SEARCH_TOP_DOWN;
    r->device_loop = step == BB_STEP_LOOP;
    r->frontier_arcs = (int64_t)e->total_arcs;
    r->unexplored_arcs = (int64_t)e->unexplored;
    r->modeled_exchange_s = bb_linkmat_leftright_s(&e->linkmat, e->bytes);
}

/* Several devices: every device's rows of the last call agree with each
 * other and with the level the engine expects; book them from *level_p on
 * (device 0's thread, while the others wait). */
static boxbfs_status_t book_peers(boxbfs_engine_t e, int *level_p, const bb_search_t *s)
{
    size_t width = BB_LOG_ROW(e->ndev);
    for (uint32_t i = 0; i < s->rows; i++) {
        const uint64_t *L = e->devs[0].loop_log + (size_t)i * width, *N = L + width;
        int level = *level_p + (int)i, step = (int)L[BB_LOG_STEP];
        int dir = step == BB_STEP_BOTTOM_UP ? BOXBFS_SEARCH_BOTTOM_UP : BOXBFS_SEARCH_TOP_DOWN;
        for (int d = 1; d < e->ndev; d++) {
            const uint64_t *M = e->devs[d].loop_log + (size_t)i * width;
            if (e->devs[d].loop_runs != (int64_t)s->rows || M[0] != L[0] || M[1] != L[1] ||
                M[BB_LOG_STEP] != L[BB_LOG_STEP])
                return bb_error_set(BOXBFS_ERR_INTERNAL,
                                    "device search across devices: at level %d device %d ran "
                                    "step %llu on %llu vertices, device 0 step %llu on %llu",
                                    level, d, (unsigned long long)M[BB_LOG_STEP],
                                    (unsigned long long)M[0],
                                    (unsigned long long)L[BB_LOG_STEP],
                                    (unsigned long long)L[0]);
        }
        BB_CHECK(bb_engine_expect_level(e, level, L, dir));
        book_peers_level(e, level, i,
                         step == BB_STEP_LOOP &&
                             (i + 1 == s->rows || N[BB_LOG_STEP] != BB_STEP_LOOP));
        BB_CHECK(bb_engine_advance(e, level, i + 1 < s->rows ? N[0] : s->w.count,
                                   i + 1 < s->rows ? N[1] : s->w.arcs));
    }
    *level_p += (int)s->rows;
    e->t_level = bb_now_s();
    return BOXBFS_OK;
}

/* The message of a search that a failed meeting ended on device d. */
static boxbfs_status_t peers_failure(int d, const bb_search_t *s)
{
    uint32_t code = s->abort_code;
    int failed = (int)(code & ~BB_ABORT_TIMEOUT) - 1;
    if (code & BB_ABORT_TIMEOUT)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "device search across devices: device %d waited %.0f s in a meeting "
                            "for another device and gave up (a device failed, or the devices' "
                            "kernels cannot all run at once: try --search-on host)",
                            failed, BB_PEER_TIMEOUT_NS * 1e-9);
    if (failed == d && s->fault_level >= 0)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "injected fault (BOXBFS_FAULT=level:%d): device %d failed as it "
                            "started level %d of the device search", s->fault_level, d,
                            s->fault_level);
    return bb_error_set(BOXBFS_ERR_DEVICE,
                        "device search across devices: device %d failed; device %d stopped",
                        failed, d);
}

/* Several devices: every device's thread runs its search at once (each
 * call until the search is done or the logs are full: the same on every
 * device), then device 0 books the rows while the others wait. Before an
 * engine's first search every device sets its search up (cuda: builds its
 * graph) and they wait for each other: a device building its graph while
 * another's search already waits in a meeting could block on it where
 * they share a GPU (three logical devices of one GPU timed out so). */
static boxbfs_status_t run_peers(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_search_t s = search_start(e, &D->k);
    size_t width = BB_LOG_ROW(e->ndev);
    int level = 0;
    peers_start(e, d, &s);
    if (!e->search_ready) {   /* every device's graph before any device runs its own */
        boxbfs_status_t st;
        s.prepare = 1;
        st = e->ops->kernels.search(&D->k, e->ops->stream(D->dev), &s, &D->search_cache,
                                    D->loop_log, BB_LOOP_LOG_FIRST);
        s.prepare = 0;
        if (st != BOXBFS_OK) {
            bb_engine_raise_abort(e, d);
            return st;
        }
        if (e->team->barrier(e)) return BOXBFS_OK;
        if (d == 0) e->search_ready = 1;   /* read by every device before the barrier */
    }
    while (!e->done) {
        double t0 = bb_now_s();
        boxbfs_status_t st;
        s.rows = 0;
        st = e->ops->kernels.search(&D->k, e->ops->stream(D->dev), &s, &D->search_cache,
                                    D->loop_log, BB_LOOP_LOG_FIRST);
        if (st != BOXBFS_OK) {
            bb_engine_raise_abort(e, d);   /* the others stop waiting for this device */
            return st;
        }
        if (s.done) D->t_searched = bb_now_s();
        D->span_s += (double)s.span_ns * 1e-9;
        BB_DEBUG(d, "device search across devices: %u levels, %.1f us on the device, %.1f us "
                 "in the call", s.rows, (double)s.span_ns * 1e-3, (bb_now_s() - t0) * 1e6);
        if (s.aborted) return peers_failure(d, &s);
        if (s.failed)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "device search across devices: the device loop ran no level "
                                "at level %d on device %d", level + (int)s.rows, d);
        D->loop_tag = s.peers.tag;
        D->loop_runs = s.rows;
        if (s.rows > BB_LOOP_LOG_FIRST) {   /* the first came back with s */
            size_t first = (size_t)BB_LOOP_LOG_FIRST * width;
            BB_CHECK(e->ops->copy_d2h(D->dev, D->loop_log + first, D->k.level_log + first,
                                      (s.rows - BB_LOOP_LOG_FIRST) * width * 8));
            BB_CHECK(e->ops->sync(D->dev));
        }
        if (e->team->barrier(e)) return BOXBFS_OK;   /* every device's rows are here */
        if (d == 0) BB_CHECK(book_peers(e, &level, &s));
        if (e->team->barrier(e)) return BOXBFS_OK;   /* booked: e->done is set */
        if (d != 0) level += (int)s.rows;
        if (e->done != s.done)
            return bb_error_set(BOXBFS_ERR_INTERNAL,
                                "device search across devices: stopped at level %d where the "
                                "engine would not", level);
    }
    D->loop_runs = -1;
    D->k.frontier = s.frontier;
    D->k.next_frontier = s.next_frontier;
    e->frontier_count[d] = s.mine;
    e->frontier_arcs[d] = s.mine_arcs;
    return BOXBFS_OK;
}

/* After device d's wake meeting `tag` failed: the devices whose tag is not
 * in d's mailbox ("1 3"; "" where all came late), and the abort word's
 * account of the first failure, for the message. */
static void wake_missing(boxbfs_engine_t e, int d, uint64_t tag, char *out, size_t size)
{
    uint64_t mail[BB_LOOP_MAX_DEV * BB_MAIL_WORDS];
    size_t at = 0;
    out[0] = '\0';
    if (e->ops->copy_d2h(e->devs[d].dev, mail, e->devs[d].loop_mail,
                         (size_t)e->ndev * BB_MAIL_WORDS * 8) != BOXBFS_OK ||
        e->ops->sync(e->devs[d].dev) != BOXBFS_OK)
        return;
    for (int o = 0; o < e->ndev && at < size; o++)
        if (o != d && *bb_mail_half(mail, o, tag) != tag)
            at += (size_t)snprintf(out + at, size - at, "%s%d", at ? " " : "", o);
}

boxbfs_status_t bb_search_wake(boxbfs_engine_t e, int d)
{
    bb_search_t s = search_start(e, &e->devs[d].k);
    boxbfs_status_t st;
    double t0 = bb_now_s();
    peers_start(e, d, &s);
    st = e->ops->kernels.peers_wake(&e->devs[d].k, e->ops->stream(e->devs[d].dev), &s.peers);
    if (st == BOXBFS_OK) st = bb_engine_read_counters(e, d);   /* pinned: no context-wide sync */
    if (st == BOXBFS_OK && e->devs[d].ctr[BB_CTR_EXPANDED] != BB_MEET_OK) {
        /* which devices never came, after how long, and what the abort word says */
        uint32_t word = __atomic_load_n(e->abort_word, __ATOMIC_ACQUIRE);
        char missing[64];
        wake_missing(e, d, s.peers.tag + 1, missing, sizeof missing);
        st = bb_error_set(BOXBFS_ERR_DEVICE, "device %d: the devices did not meet before the "
                          "search (after %.3f s%s%s%s; the abort word: device %d %s)", d,
                          bb_now_s() - t0, e->devs[d].ctr[BB_CTR_EXPANDED] == BB_MEET_TIMEOUT
                                               ? ", timed out" : "",
                          *missing ? ", no tag from device " : "", missing,
                          (int)(word & ~BB_ABORT_TIMEOUT) - 1,
                          word & BB_ABORT_TIMEOUT ? "waited in vain" : "failed");
    }
    if (st != BOXBFS_OK) bb_engine_raise_abort(e, d);
    e->devs[d].loop_tag += 1;
    return st;
}

/* Where the backend cannot set the search up (kernels.h search: UNSUPPORTED
 * before anything ran), returns OK with e->done unset: the host drives the
 * levels from level 0 (device_main's loop); several devices: an error. */
boxbfs_status_t bb_search_run(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_search_t s = search_start(e, &D->k);
    int level = 0;
    if (e->search_peers) return run_peers(e, d);
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
        if (s.done) D->t_searched = bb_now_s();
        D->span_s += (double)s.span_ns * 1e-9;
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
