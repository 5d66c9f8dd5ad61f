/* One device's setup [DESIGN "Memory"]: the memory plan (what each array
 * needs, computed before anything is allocated and checked against the free
 * memory, with an error naming the shortfall and its parts), the
 * allocations, and the upload of the device's graph slice. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "engine/engine.h"
#include "kernels/upload.h"

/* What one device needs, in bytes, by array (the memory plan). */
typedef struct {
    uint64_t nloc, arcs, in_arcs, work_cap, bitmap_words;
    int arcs64;         /* kstate arcs64: 64-bit arc indices, the scan's entries too */
    int inbox_shared;   /* in the sort buffers: no allocation of its own */
    int parents;        /* BOXBFS_PARENTS_KEEP or BOXBFS_PARENTS_RECOMPUTE */
    uint64_t inbox_entries;   /* the inbox's allocation (not shared) */
    size_t graph, in_graph, bitmaps, state, visited, remote, work, outbox, inbox, gather, scratch,
        total;
} mem_plan_t;

static uint64_t words32(uint64_t bits) { return (bits + 31) / 32; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t range_of(const struct boxbfs_engine *e, int d)
{
    return e->part.lo[d + 1] - e->part.lo[d];
}

/* The offsets whose empty rows are the vertices without in-arcs: the
 * in-arcs' where the engine holds them, the out-arcs' where undirected;
 * NULL for a directed graph without its in-arcs. */
static const int64_t *in_arc_offsets(const struct boxbfs_engine *e)
{
    if (e->in_offsets) return e->in_offsets;
    return e->graph->directed ? NULL : e->graph->offsets;
}

boxbfs_status_t bb_engine_count_heads(boxbfs_engine_t e)
{
    const int64_t *off = in_arc_offsets(e);
    if (e->heads || off == NULL) return BOXBFS_OK;
    BB_CHECK(bb_calloc((size_t)e->ndev, sizeof *e->heads, "the arc heads per device", &e->heads));
    for (int d = 0; d < e->ndev; d++)
        for (uint64_t v = e->part.lo[d]; v < e->part.lo[d + 1]; v++)
            e->heads[d] += off[v + 1] != off[v];
    return BOXBFS_OK;
}

uint64_t bb_engine_peer_cap(const struct boxbfs_engine *e, int d)
{
    return e->heads ? e->heads[d] : range_of(e, d);
}

uint64_t bb_engine_peer_caps_but(const struct boxbfs_engine *e, int d)
{
    uint64_t sum = 0;
    for (int o = 0; o < e->ndev; o++) sum += o == d ? 0 : bb_engine_peer_cap(e, o);
    return sum;
}

int bb_engine_lean_outbox(const struct boxbfs_engine *e)
{
    return e->ndev > 1 && e->opts.contract == BOXBFS_CONTRACT_ATOMIC &&
           e->opts.wire != BOXBFS_WIRE_LIST && !e->search_peers;
}

/* The device loop's level log (and mailbox where several devices meet). */
static int loop_log(const struct boxbfs_engine *e)
{
    return e->ndev == 1 || bb_loop_across_devices(e) || e->search_peers;
}

/* The loop across devices needs every device in this process (the threads
 * team), peer access (the lists go straight to peer memory), the visited
 * array (a remote vertex is sent once) and lists on the wire: the bytes
 * booked are those the host levels would move. Under --wire auto a list
 * is sent only while it is shorter than the owner's bitmap: the loop runs
 * only where two levels' lists (kernels.h bb_loop_slot) fit in the
 * smallest range's words. */
int bb_loop_across_devices(const struct boxbfs_engine *e)
{
    const boxbfs_engine_options_t *o = &e->opts;
    uint64_t words = UINT64_MAX;
    if (e->ndev < 2 || e->ndev > BB_LOOP_MAX_DEV || e->nlocal != e->ndev || e->grid ||
        o->device_loop_arcs <= 0 || o->exchange != BOXBFS_EXCHANGE_PEER || o->throttle ||
        o->contract == BOXBFS_CONTRACT_SORT_UNIQUE || o->wire == BOXBFS_WIRE_BITMAP)
        return 0;
    for (int d = 0; d < e->ndev; d++) {
        uint64_t w = (e->part.lo[d + 1] - e->part.lo[d] + 31) / 32;
        if (w < words) words = w;
    }
    return o->wire == BOXBFS_WIRE_LIST || 2 * (uint64_t)o->device_loop_arcs <= words;
}

/* Rows of a device's loop log: BB_LOOP_LOG on one device; across devices
 * no more bytes than a P-th of that (the per-device memory plan). */
uint32_t bb_loop_log_rows(int ndev)
{
    if (ndev == 1) return BB_LOOP_LOG;
    return (uint32_t)((size_t)BB_LOOP_LOG * BB_LOG_FIELDS / ((size_t)ndev * BB_LOG_ROW(ndev)));
}

boxbfs_status_t bb_engine_read_counters(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    BB_CHECK(e->ops->copy_d2h(D->dev, D->ctr, D->k.counters, BB_CTR_COUNT(e->ndev) * 8));
    return e->ops->sync(D->dev);
}

/* Where device d takes source o's message: its inbox region for o. The lean
 * inbox has a region of d's range in words per other source, else a region
 * of the range per source. */
uint32_t *bb_engine_inbox_region(boxbfs_engine_t e, int d, int o)
{
    bb_engine_dev_t *D = &e->devs[d];
    if (bb_engine_lean_outbox(e))
        return D->k.inbox + (size_t)(o - (o > d)) * words32(range_of(e, d));
    return D->k.inbox + (size_t)o * (D->k.hi - D->k.lo);
}

/* Device d's mailbox lines of the loop's meetings zeroed (on its stream,
 * before the search's reset, which the host waits for before any device
 * meets: kernels.h bb_mail_words). */
boxbfs_status_t bb_engine_mail_words(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    size_t half = (size_t)e->ndev * BB_MAIL_WORDS / 2;
    if (D->loop_mail == NULL) return BOXBFS_OK;
    return e->ops->zero(D->dev, D->loop_mail + half, half * 8);
}

/* Entries of each of device d's inbox regions. */
uint64_t bb_engine_inbox_cap(const struct boxbfs_engine *e, int d)
{
    return bb_engine_lean_outbox(e) ? words32(range_of(e, d)) : range_of(e, d);
}

/* The Visited array of every device (valid-flag, atomic): all n vertices. */
static size_t visited_size(const struct boxbfs_engine *e)
{
    uint64_t n = (uint64_t)e->graph->n;
    if (e->opts.contract == BOXBFS_CONTRACT_SORT_UNIQUE) return 0;
    return e->opts.visited == BOXBFS_VISITED_BIT ? (size_t)words32(n) * 4 : (size_t)n;
}

/* The lean inbox (bb_engine_lean_outbox): a region per other source of the
 * device's range in 32-bit words: a source sends its list only while it is
 * shorter than the bitmap, so either fits. */
static uint64_t lean_inbox_entries(const struct boxbfs_engine *e, int d)
{
    return (uint64_t)(e->ndev - 1) * words32(range_of(e, d));
}

/* The parent gather's requests land in dead memory [README "Memory plan"]:
 * the outbox's n entries, or with the lean outbox the larger of the inbox
 * and the Visited array, grown to the largest other range where both are
 * smaller: one requester's requests (at most its range) always fit, so no
 * message is ever split (bb_engine_gather groups requesters to fit). */
uint64_t bb_engine_gather_cap(const struct boxbfs_engine *e, int d)
{
    uint64_t cap, widest = 0;
    if (!bb_engine_lean_outbox(e)) return (uint64_t)e->graph->n;
    for (int r = 0; r < e->ndev; r++)
        if (r != d) widest = max64(widest, range_of(e, r));
    cap = max64(lean_inbox_entries(e, d), visited_size(e) / 4);
    return max64(cap, widest);
}

/* One device, or several in the search across devices, with bottom-up
 * levels and a visited bitmap: each search starts from a visited bitmap
 * with the vertices that have no in-arcs set (k.visited_init). No top-down
 * level meets them (they are nobody's neighbor, so no device sends them)
 * and no bottom-up level can reach them, so no row or list changes; the
 * bottom-up levels skip them at the cost of the visited word they read
 * anyway, instead of reading their in_offsets (kron graphs: about half of
 * all vertices, in every bottom-up level; without it two devices' kron:26
 * level 4 took as long as one's). */
static int dead_bits(const struct boxbfs_engine *e)
{
    return (e->ndev == 1 || e->search_peers) && e->bottom_up &&
           e->opts.visited == BOXBFS_VISITED_BIT && e->opts.contract != BOXBFS_CONTRACT_SORT_UNIQUE;
}

/* Whether the environment variable name is "0": an optimization turned off
 * to measure what it saves. */
static int env_off(const char *name)
{
    const char *env = getenv(name);
    return env && strcmp(env, "0") == 0;
}

int bb_engine_skip_asked(void) { return !env_off("BOXBFS_PREFIX_SKIP"); }

/* The visited-prefix skip [README "Visited-prefix skip"]: the atomic
 * contraction, 1D, where the backend can rank the rows and the plan with
 * the skip's arrays fits device d (bb_engine_setup_device), unless
 * BOXBFS_PREFIX_SKIP=0. */
int bb_engine_prefix_skip(const struct boxbfs_engine *e, int d)
{
    return !e->grid && !e->devs[d].skip_off && e->ops->kernels.rank_rows != NULL &&
           e->opts.contract == BOXBFS_CONTRACT_ATOMIC && bb_engine_skip_asked();
}

/* Short rows (docs/architecture.md, "One device"): one device (the loop
 * levels' own format) with the device loop on, vertex ids that fit them and
 * room on the device (bb_engine_setup_device), unless BOXBFS_SHORT_ROWS=0. */
static int short_rows(const struct boxbfs_engine *e, int d)
{
    return e->ndev == 1 && !e->grid && !e->devs[d].short_off &&
           e->ops->kernels.short_rows != NULL && e->opts.device_loop_arcs > 0 &&
           bb_short_rows_fit((uint64_t)e->graph->n) && !env_off("BOXBFS_SHORT_ROWS");
}

/* k.visited_init from the in-arc offsets (dead_bits: bottom-up levels, so
 * a directed graph's in-arcs are there). */
static boxbfs_status_t upload_dead_bits(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    const int64_t *off = in_arc_offsets(e);
    uint64_t n = (uint64_t)e->graph->n;
    uint32_t *bits;
    boxbfs_status_t st;
    BB_CHECK(bb_calloc((size_t)words32(n), 4, "the dead-vertex bitmap", &bits));
    for (uint64_t v = 0; v < n; v++)
        if (off[v + 1] == off[v]) bits[v >> 5] |= 1u << (v & 31);
    st = e->ops->copy_h2d(D->dev, (void *)D->k.visited_init, bits, (size_t)words32(n) * 4);
    if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
    free(bits);
    return st;
}

/* The exchange's arrays [README "Memory plan"]. Sort-based contraction: the
 * outbox's n entries (segments per owner) and the own segment's parents, an
 * inbox region per source (in the sort buffers where they fit). Atomic on
 * several devices: the outbox bitmap and its lists (n bits each) and an
 * inbox region of the range's words per other source with wire bitmap or
 * auto; n list entries and a region of the range per source with wire list
 * (a list as long as the range can go to any owner). One atomic device
 * sends nothing: neither. Recomputed parents mark requests in the inbox
 * with wire list: at least two words per 32 vertices there. */
static void plan_exchange(const struct boxbfs_engine *e, int d, mem_plan_t *p)
{
    uint64_t n = (uint64_t)e->graph->n, nloc = p->nloc;
    int ndev = e->ndev, sorted = e->opts.contract != BOXBFS_CONTRACT_ATOMIC;
    p->inbox_entries = ndev > 1 ? (uint64_t)ndev * nloc : 0;
    if (e->search_peers) {   /* per other source its vertices and their parents, no outbox;
                              * the lists for the other ranges gathered before they go
                              * (bb_engine_peer_cap entries each) */
        p->inbox_entries = 2 * (uint64_t)(ndev - 1) * bb_engine_peer_cap(e, d);
        p->inbox = (size_t)p->inbox_entries * 4;
        p->outbox = (size_t)bb_engine_peer_caps_but(e, d) * 4 * 2;
        return;
    }
    if (bb_engine_lean_outbox(e)) {
        uint64_t level = lean_inbox_entries(e, d), cap = bb_engine_gather_cap(e, d);
        p->outbox = (size_t)p->bitmap_words * 4 * 2;
        p->inbox_entries = level;
        if (cap > max64(level, visited_size(e) / 4)) p->inbox_entries = cap;
        p->inbox = (size_t)level * 4;
        p->gather = (size_t)(p->inbox_entries - level) * 4;
        return;
    }
    if (sorted) p->outbox = (size_t)n * 4 + (size_t)nloc * 4;
    else if (ndev > 1) p->outbox = (size_t)n * 4;
    /* Several devices [README "Memory plan"]: with sort-based contraction the
     * sort's buffers are dead from the end of contract to the next expand, so
     * the inbox (written by the exchange, read by update) lives in nbr_parent
     * where it fits; alt is left to bitmap packing. */
    p->inbox_shared = ndev > 1 && sorted && p->work_cap >= p->inbox_entries;
    if (p->inbox_shared) return;
    p->inbox = (size_t)p->inbox_entries * 4;
    if (ndev > 1 && !sorted && p->parents == BOXBFS_PARENTS_RECOMPUTE &&
        p->inbox_entries < 2 * p->bitmap_words) {
        p->gather = (size_t)(2 * p->bitmap_words - p->inbox_entries) * 4;
        p->inbox_entries = 2 * p->bitmap_words;
    }
}

static void plan_device(boxbfs_engine_t e, int d, int parents, mem_plan_t *p)
{
    const boxbfs_engine_options_t *o = &e->opts;
    uint64_t n = (uint64_t)e->graph->n, lo = e->part.lo[d], hi = e->part.lo[d + 1];
    int ndev = e->ndev;
    memset(p, 0, sizeof *p);
    p->parents = parents;
    p->nloc = hi - lo;
    p->arcs = (uint64_t)(e->graph->offsets[hi] - e->graph->offsets[lo]);
    for (int o2 = 0; o2 < ndev; o2++) p->bitmap_words += words32(range_of(e, o2));
    /* sort-based methods hold a whole level's neighbors: at most this slice's arcs */
    p->work_cap = o->contract == BOXBFS_CONTRACT_ATOMIC ? p->bitmap_words
                  : (p->arcs > p->bitmap_words ? p->arcs : p->bitmap_words);
    p->arcs64 = p->arcs + (e->hubs ? e->hub_arcs[d] : 0) >= (uint64_t)o->arcs64_from;
    p->graph = (size_t)(p->nloc + 1) * 8 + (size_t)p->arcs * 4 + (size_t)(ndev + 1) * 8;
    if (e->devs[d].built_bytes)   /* built on the device: what it holds (columns as bounded) */
        p->graph = e->devs[d].built_bytes + (size_t)(ndev + 1) * 8;
    if (e->hubs)   /* the hubs' parts of their rows, their ids, levels, list and scan entries */
        p->graph += (size_t)e->hubs * (8 + 4 + 4 + 4 + 4 + 4) + (size_t)e->hub_arcs[d] * 4;
    if (e->in_offsets) {   /* a directed graph's in-arcs, for bottom-up levels */
        p->in_arcs = (uint64_t)(e->in_offsets[hi] - e->in_offsets[lo]);
        p->in_graph = (size_t)(p->nloc + 1) * 8 + (size_t)p->in_arcs * 4;
    }
    if (e->search_peers && e->bottom_up)   /* two bitmaps of all n vertices */
        p->bitmaps = (size_t)words32(n) * 4 * 2;
    else if (e->bottom_up)   /* the frontier of all n vertices, and this device's next part */
        p->bitmaps = (size_t)words32(n) * 4 + (size_t)words32(p->nloc) * 4;
    p->state = (size_t)p->nloc * (4 + 8 + 4 + 4 + 4) + 4 + BB_CTR_COUNT(ndev) * 8;
    if (p->arcs64)   /* the scan's entries are 8 bytes */
        p->state += (size_t)(p->nloc + e->hubs + 1) * 4;
    if (loop_log(e))   /* the device loop's log, its mailbox */
        p->state += (size_t)bb_loop_log_rows(ndev) * BB_LOG_ROW(ndev) * 8 +
                    (ndev > 1 ? (size_t)ndev * BB_MAIL_WORDS * 8 : 0);
    if (bb_engine_prefix_skip(e, d))   /* rank, by_rank, skip, rank_prefix */
        p->state += (size_t)n * 8 + (size_t)(p->nloc + e->hubs) * 4 + 8;
    if (short_rows(e, d)) p->state += (size_t)p->nloc * 16;
    p->visited = visited_size(e);
    if (dead_bits(e)) p->visited += (size_t)words32(n) * 4;   /* visited_init */
    /* bb_remote_slot: the parents of the remote vertices this device finds */
    p->remote = ndev > 1 && parents == BOXBFS_PARENTS_KEEP && !e->search_peers
                    ? (size_t)(n - p->nloc) * 4
                    : 0;
    /* the sort's buffers (the atomic method needs none) */
    p->work = o->contract == BOXBFS_CONTRACT_ATOMIC ? 0 : (size_t)p->work_cap * 4 * 5 + 4;
    plan_exchange(e, d, p);
}

/* The free memory of device d, or --memory-limit where that is less. */
static boxbfs_status_t free_memory(boxbfs_engine_t e, int d, size_t *free_p)
{
    size_t free_b, total_b;
    BB_CHECK(e->ops->mem_info(e->devs[d].dev, &free_b, &total_b));
    free_b += e->devs[d].built_bytes;   /* built rows: already held, and in the plan */
    if (e->opts.device_memory_limit && e->opts.device_memory_limit < free_b)
        free_b = e->opts.device_memory_limit;
    *free_p = free_b;
    return BOXBFS_OK;
}

/* The device count to suggest where plan p does not fit free_b bytes: the
 * least that holds this device's graph slice and the sort's level work
 * (both of its arcs) split that many ways beside the rest of its plan
 * ("--devices N"), or, where the rest alone does not fit, more devices in
 * words. An estimate: the per-vertex arrays of the search across devices
 * come on top, so N is where to start. */
static void more_devices(const struct boxbfs_engine *e, const mem_plan_t *p, size_t free_b,
                         char *out, size_t size)
{
    const uint64_t slice = p->graph + p->in_graph + p->work, rest = p->total - slice;
    if (rest >= free_b || slice == 0) {
        snprintf(out, size, "more devices (--devices N)");
        return;
    }
    uint64_t n = ((uint64_t)slice * (uint64_t)e->ndev + (free_b - rest) - 1) / (free_b - rest);
    if (n <= (uint64_t)e->ndev) n = (uint64_t)e->ndev + 1;
    /* past the engine's 1024 devices or a range of BB_PARTITION_ALIGN vertices each: no count */
    if (n > 1024 || n > (uint64_t)e->graph->n / BB_PARTITION_ALIGN)
        snprintf(out, size, "more devices (--devices N)");
    else
        snprintf(out, size, "--devices %llu or more", (unsigned long long)n);
}

static boxbfs_status_t check_memory(boxbfs_engine_t e, int d, const mem_plan_t *p,
                                    size_t free_b)
{
    char h[11][24];
    int byte_visited =
        e->opts.visited == BOXBFS_VISITED_BYTE && e->opts.contract != BOXBFS_CONTRACT_SORT_UNIQUE;
    if (p->total <= free_b) return BOXBFS_OK;
    char more[64];
    more_devices(e, p, free_b, more, sizeof more);
#define H(i, bytes) bb_engine_human_bytes(h[i], (double)(bytes))
    return bb_error_set(
        BOXBFS_ERR_DEVICE_MEMORY,
        "device %d (%s) needs %s but has %s free%s (short by %s): graph slice %s, visited %s, "
        "remote parents %s, level work %s, outbox %s, inbox %s, parent gather %s, other %s; "
        "try %s%s%s",
        d, e->devs[d].name, H(0, p->total), H(1, free_b),
        e->opts.device_memory_limit ? " under --memory-limit" : "", H(2, p->total - free_b),
        H(3, p->graph + p->in_graph), H(4, p->visited), H(5, p->remote), H(6, p->work),
        H(7, p->outbox), H(8, p->inbox), H(9, p->gather), H(10, p->state + p->scratch + p->bitmaps),
        more, byte_visited ? " or --visited bit" : "",
        p->remote ? " or --parents recompute" : "");
#undef H
}

/* The device's rows (and in-arcs where bottom-up needs them) and the ranges. */
static boxbfs_status_t upload_slice(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    const struct boxbfs_graph *g = e->graph;
    uint64_t lo = e->part.lo[d], hi = e->part.lo[d + 1];
    if (!D->built_bytes)
        BB_CHECK(bb_upload_csr_rows(e->ops, D->dev, g->offsets, g->columns, g->columns_base, lo,
                                    hi, (int64_t *)D->k.offsets, (uint32_t *)D->k.columns));
    if (e->in_offsets)
        BB_CHECK(bb_upload_csr_rows(e->ops, D->dev, e->in_offsets, e->in_columns, 0, lo, hi,
                                    (int64_t *)D->k.in_offsets, (uint32_t *)D->k.in_columns));
    BB_CHECK(e->ops->copy_h2d(D->dev, (uint64_t *)D->k.range_lo, e->part.lo,
                              (size_t)(e->ndev + 1) * 8));
    return e->ops->sync(D->dev);
}

boxbfs_status_t bb_engine_skip_order(boxbfs_engine_t e)
{
    int64_t n = e->graph->n, *order;
    boxbfs_status_t st;
    if (e->skip_order) return BOXBFS_OK;
    BB_CHECK(bb_calloc((size_t)n + 1, sizeof *order, "the degree order", &order));
    st = bb_graph_degree_order(e->graph, order);
    if (st == BOXBFS_OK)
        st = bb_calloc((size_t)n + 1, sizeof *e->skip_order, "the degree ranks", &e->skip_order);
    for (int64_t r = 0; r < n && st == BOXBFS_OK; r++) e->skip_order[r] = (uint32_t)order[r];
    free(order);
    return st;
}

/* The visited-prefix skip's rows, ranked once the slice is uploaded; where
 * the backend cannot get the temporaries, the device searches without it. */
static boxbfs_status_t rank_rows(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    if (D->k.rank == NULL) return BOXBFS_OK;
    double t0 = bb_now_s();
    BB_CHECK(bb_engine_skip_order(e));
    bb_kstate_t k = D->k;   /* the hubs' parts are rows too (bb_hubs_rows) */
    int64_t *rows = NULL;
    if (e->hubs) BB_CHECK(bb_hubs_rows(e, d, &rows));
    k.hi += e->hubs;
    boxbfs_status_t st = e->ops->kernels.rank_rows(&k, e->ops->stream(D->dev),
                                                   rows ? rows : e->graph->offsets + D->k.lo,
                                                   e->skip_order);
    free(rows);
    if (st == BOXBFS_ERR_DEVICE_MEMORY) {   /* its temporaries: search without the skip */
        BB_WARN(d, "%s; the visited-prefix skip is off", boxbfs_last_error());
        bb_engine_dropped(e, d, "the visited-prefix skip (no room for its ranking's "
                                "temporaries)");
        D->k.rank = D->k.by_rank = NULL;
        D->k.skip = D->k.rank_prefix = NULL;
        D->skip_off = 1;
        return BOXBFS_OK;
    }
    BB_CHECK(st);
    BB_CHECK(e->ops->sync(D->dev));
    D->skips = 1;
    BB_INFO(d, "rows ranked by their heads' degrees (visited-prefix skip) in %.3f s",
            bb_now_s() - t0);
    return BOXBFS_OK;
}

/* Where the parent gather works on device d (bb_engine_dev_t.gather_*). */
static void place_gather(boxbfs_engine_t e, int d, const mem_plan_t *p)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t *k = &D->k;
    D->gather_cap = bb_engine_gather_cap(e, d);
    if (!bb_engine_lean_outbox(e)) D->gather_area = k->outbox;
    else if (visited_size(e) / 4 >= D->gather_cap) D->gather_area = k->visited;
    else D->gather_area = k->inbox;   /* grown to the cap where needed (plan_exchange) */
    if (p->parents != BOXBFS_PARENTS_RECOMPUTE) return;
    /* n bits and a count per word: the outbox bitmap and its lists, the sort's
     * alt and flags, or (atomic, wire list) the inbox */
    if (k->outbox_bits) {
        D->gather_bits = k->outbox_bits;
        D->gather_prefix = k->outbox;
    } else if (e->opts.contract != BOXBFS_CONTRACT_ATOMIC) {
        D->gather_bits = k->alt;
        D->gather_prefix = k->flags;
    } else {
        D->gather_bits = k->inbox;
        D->gather_prefix = k->inbox + p->bitmap_words;
    }
}

static boxbfs_status_t setup_device(boxbfs_engine_t e, int d, const mem_plan_t *p)
{
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t *k = &D->k;
    int ndev = e->ndev;
    int sorted = e->opts.contract != BOXBFS_CONTRACT_ATOMIC;
    D->parents = p->parents;
    k->ndev = ndev;
    k->self = d;
    k->cslot = 0;   /* logical devices: the others before it on its GPU */
    for (int o = e->first; o < d; o++) k->cslot += e->order[o] == e->order[d];
    k->contract = (int)e->opts.contract;
    k->visited_bits = e->opts.visited == BOXBFS_VISITED_BIT;
    k->expand_k = e->opts.expand_edges_per_thread;
    k->expand_f0 = (uint32_t)e->opts.expand_f0;
    k->arcs64 = p->arcs64;
    k->n = (uint64_t)e->graph->n;
    k->lo = e->part.lo[d];
    k->hi = e->part.lo[d + 1];
    k->work_cap = p->work_cap;
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(ndev + 1) * 8, &k->range_lo));
    if (!D->built_bytes) {   /* else built there (device_build.c) */
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + 1 + e->hubs) * 8, &k->offsets));
        BB_CHECK(bb_engine_dev_alloc(e, d,
                                     (size_t)(p->arcs + (e->hubs ? e->hub_arcs[d] : 0)) * 4,
                                     &k->columns));
    }
    if (p->in_graph) {
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + 1) * 8, &k->in_offsets));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->in_arcs * 4, &k->in_columns));
    } else if (e->bottom_up) {   /* undirected: the in-arcs are the rows */
        k->in_offsets = k->offsets;
        k->in_columns = k->columns;
    }
    if (p->bitmaps && e->search_peers) {
        for (int b = 0; b < 2; b++)
            BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)words32(k->n) * 4, &D->bits[b]));
        k->frontier_bits = D->bits[0];
        k->own_bits = D->bits[1] + k->lo / 32;
    } else if (p->bitmaps) {
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)words32(k->n) * 4, &k->frontier_bits));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)words32(p->nloc) * 4, &k->own_bits));
    }
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->nloc * 4, &k->level));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->nloc * 8, &k->pred));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + e->hubs) * 4, &k->frontier));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + e->hubs) * 4, &k->next_frontier));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + e->hubs + 1) * (p->arcs64 ? 8 : 4),
                                 &k->scan));
    BB_CHECK(bb_engine_dev_alloc(e, d, BB_CTR_COUNT(ndev) * 8, &k->counters));
    if (loop_log(e)) {
        size_t log = (size_t)bb_loop_log_rows(ndev) * BB_LOG_ROW(ndev) * 8;
        BB_CHECK(bb_engine_dev_alloc(e, d, log, &k->level_log));
        /* zeros: the first read-back takes BB_LOOP_LOG_FIRST rows, written or not */
        BB_CHECK(e->ops->zero(D->dev, k->level_log, log));
        /* pinned: read back with the counters in one round trip */
        BB_CHECK(e->ops->host_alloc(D->dev, log, (void **)&D->loop_log));
        if (ndev > 1) {   /* no tag yet: zeros */
            BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)ndev * BB_MAIL_WORDS * 8, &D->loop_mail));
            BB_CHECK(e->ops->zero(D->dev, D->loop_mail, (size_t)ndev * BB_MAIL_WORDS * 8));
        }
    }
    if (dead_bits(e)) {
        uint32_t *visited_init;
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)words32(k->n) * 4, &visited_init));
        k->visited_init = visited_init;
        BB_CHECK(bb_engine_dev_alloc(e, d, p->visited - (size_t)words32(k->n) * 4, &k->visited));
        D->visited_bytes = p->visited - (size_t)words32(k->n) * 4;
        BB_CHECK(upload_dead_bits(e, d));
    } else if (p->visited) {
        BB_CHECK(bb_engine_dev_alloc(e, d, p->visited, &k->visited));
        D->visited_bytes = p->visited;
    }
    if (bb_engine_prefix_skip(e, d)) {
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)k->n * 4, &k->rank));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)k->n * 4, &k->by_rank));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)(p->nloc + e->hubs) * 4, &k->skip));
        BB_CHECK(bb_engine_dev_alloc(e, d, 8, &k->rank_prefix));
    }
    if (p->remote) BB_CHECK(bb_engine_dev_alloc(e, d, p->remote, &k->remote_parent));
    if (sorted) {
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->work_cap * 4, &k->alt));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->work_cap * 4, &k->nbr));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->work_cap * 4, &k->nbr_parent));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->work_cap * 4, &k->alt_parent));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->work_cap * 4 + 4, &k->flags));
    }
    if (e->search_peers) {
        BB_CHECK(bb_engine_dev_alloc(e, d, p->outbox, &D->stage));
    } else if (bb_engine_lean_outbox(e)) {   /* the bitmap, then the lists unpacked from it */
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->bitmap_words * 4, &k->outbox_bits));
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->bitmap_words * 4, &k->outbox));
    } else if (p->outbox) {
        BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)k->n * 4, &k->outbox));
    }
    if (sorted) BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->nloc * 4, &k->outbox_parent));
    if (p->inbox_shared) k->inbox = k->nbr_parent;
    else if (p->inbox_entries) BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->inbox_entries * 4, &k->inbox));
    if (ndev > 1 && !e->search_peers) place_gather(e, d, p);
    if (p->scratch) {
        BB_CHECK(bb_engine_dev_alloc(e, d, p->scratch, &k->scratch));
        k->scratch_bytes = p->scratch;
    }
    /* pinned: the per-level counter reads are true asynchronous copies; then
     * the counters' values at the start of a level (level.c, begin_level) */
    BB_CHECK(e->ops->host_alloc(D->dev, 2 * BB_CTR_COUNT(ndev) * 8, (void **)&D->ctr));
    memset(D->ctr, 0, 2 * BB_CTR_COUNT(ndev) * 8);
    for (int o = 0; o < ndev; o++) D->ctr[BB_CTR_COUNT(ndev) + BB_CTR_SEND_OFFSET(ndev, o)] = e->part.lo[o];
    if (short_rows(e, d)) BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)p->nloc * 16, &k->short_rows));
    BB_CHECK(upload_slice(e, d));
    BB_CHECK(bb_hubs_upload(e, d));
    BB_CHECK(rank_rows(e, d));
    if (k->short_rows == NULL) return BOXBFS_OK;
    BB_CHECK(e->ops->kernels.short_rows(k, e->ops->stream(D->dev)));
    return e->ops->sync(D->dev);
}

/* The plan of device d with the parents kept or recomputed, its scratch and total. */
static boxbfs_status_t plan_with(boxbfs_engine_t e, int d, int parents, mem_plan_t *p)
{
    plan_device(e, d, parents, p);
    if (p->work_cap >> 32)   /* the sort's and flag scan's 32-bit neighbor indices */
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "device %d would hold %llu arcs: --contract %s takes fewer than "
                            "2^32 neighbors a level on a device; use --contract atomic (the "
                            "default) or more devices", d, (unsigned long long)p->arcs,
                            boxbfs_contract_name(e->opts.contract));
    BB_CHECK(e->ops->scratch_bytes(e->devs[d].dev, p->work_cap, p->nloc, e->ndev, &p->scratch));
    p->total = p->graph + p->in_graph + p->bitmaps + p->state + p->visited + p->remote + p->work +
               p->outbox + p->inbox + p->gather + p->scratch;
    return BOXBFS_OK;
}

/* Plan device d with the parents as given, without the short rows, then
 * without the visited-prefix skip, where the plan with them does not fit
 * free_b bytes. */
static boxbfs_status_t plan_fitting(boxbfs_engine_t e, int d, int parents, size_t free_b,
                                    mem_plan_t *p)
{
    BB_CHECK(plan_with(e, d, parents, p));
    if (p->total > free_b && short_rows(e, d)) {
        e->devs[d].short_off = 1;
        BB_CHECK(plan_with(e, d, parents, p));
    }
    if (p->total <= free_b || !bb_engine_prefix_skip(e, d)) return BOXBFS_OK;
    e->devs[d].skip_off = 1;
    return plan_with(e, d, parents, p);
}

/* --contract atomic on several devices with --wire list: 1 where device d
 * holds the list layout (an outbox of n entries, an inbox region of its
 * range per source) within its free memory or --memory-limit, with the
 * parents recomputed and the visited-prefix skip dropped if that is what it
 * takes (as --parents auto would); 0 where even that does not fit (or the
 * plan fails: bb_engine_setup_device then says why). Leaves no mark. */
int bb_engine_list_fits(boxbfs_engine_t e, int d)
{
    mem_plan_t p;
    size_t free_b;
    int parents = e->opts.parents == BOXBFS_PARENTS_AUTO ? BOXBFS_PARENTS_RECOMPUTE
                                                           : e->opts.parents;
    int skip_off = e->devs[d].skip_off;
    int fits = free_memory(e, d, &free_b) != BOXBFS_OK ||
               plan_fitting(e, d, parents, free_b, &p) != BOXBFS_OK || p.total <= free_b;
    e->devs[d].skip_off = skip_off;
    return fits;
}

/* The search across devices: 1 where device d holds its layout (an inbox
 * of vertices and parents per other source, two frontier bitmaps) within
 * its free memory or --memory-limit, with the visited-prefix skip dropped
 * if that is what it takes; 0 where it does not (or the plan fails:
 * bb_engine_setup_device then says why). Leaves no mark. */
int bb_engine_search_fits(boxbfs_engine_t e, int d)
{
    mem_plan_t p;
    size_t free_b;
    int skip_off = e->devs[d].skip_off;
    int fits = free_memory(e, d, &free_b) != BOXBFS_OK ||
               plan_fitting(e, d, BOXBFS_PARENTS_KEEP, free_b, &p) != BOXBFS_OK ||
               p.total <= free_b;
    e->devs[d].skip_off = skip_off;
    return fits;
}

/* --parents auto: keep the remote parents where that plan fits the free
 * memory (or --memory-limit), else recompute them after the search. Where
 * memory is short the visited-prefix skip goes first: recomputing the
 * parents costs each search a pass over the arcs. */
boxbfs_status_t bb_engine_setup_device(boxbfs_engine_t e, int d)
{
    mem_plan_t p;
    size_t free_b;
    int parents = e->search_peers ? BOXBFS_PARENTS_KEEP : e->opts.parents;   /* delivered */
    int skips = bb_engine_prefix_skip(e, d), shorts = short_rows(e, d);
    BB_CHECK(free_memory(e, d, &free_b));
    if (parents == BOXBFS_PARENTS_AUTO) {
        BB_CHECK(plan_fitting(e, d, BOXBFS_PARENTS_KEEP, free_b, &p));
        parents = p.total <= free_b ? BOXBFS_PARENTS_KEEP : BOXBFS_PARENTS_RECOMPUTE;
        if (parents == BOXBFS_PARENTS_RECOMPUTE && e->ndev > 1)
            bb_engine_dropped(e, d, "remote_parent (the parents recomputed after each search)");
    }
    BB_CHECK(plan_fitting(e, d, parents, free_b, &p));
    if (shorts && e->devs[d].short_off)
        bb_engine_dropped(e, d, "short_rows (the loop levels' rows, 16 bytes a vertex)");
    if (skips && e->devs[d].skip_off) bb_engine_dropped(e, d, BB_SKIP_ARRAYS);
    BB_CHECK(check_memory(e, d, &p, free_b));
    return setup_device(e, d, &p);
}

/* A graph built on the devices, before its rows are: device d's least plan
 * (the parents recomputed where --parents auto, no visited-prefix skip or
 * short rows) with rows_bytes for its rows, as estimated, so that a device
 * that cannot hold even that says so, with the count to try, before
 * anything is built.
 * Leaves no mark. */
boxbfs_status_t bb_engine_check_build(boxbfs_engine_t e, int d, size_t rows_bytes)
{
    bb_engine_dev_t *D = &e->devs[d];
    const int skip_off = D->skip_off, short_off = D->short_off;
    int parents = e->opts.parents == BOXBFS_PARENTS_AUTO ? BOXBFS_PARENTS_RECOMPUTE
                                                          : e->opts.parents;
    mem_plan_t p;
    size_t free_b;
    BB_CHECK(free_memory(e, d, &free_b));   /* nothing built yet: all of it free */
    D->built_bytes = rows_bytes;
    D->skip_off = D->short_off = 1;
    boxbfs_status_t st = plan_with(e, d, parents, &p);
    if (st == BOXBFS_OK) st = check_memory(e, d, &p, free_b);
    D->built_bytes = 0;
    D->skip_off = skip_off;
    D->short_off = short_off;
    return st;
}
