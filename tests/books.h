/* The traffic books of one search (every count the engine reports, no
 * times) copied out of its report, and their comparison count by count:
 * the first difference is named by field, level and link (test_gpu_engine:
 * the cuda backend against the cpu backend; test_nccl_rounds: NCCL rounds
 * against the same reference). Counts are properties of the algorithm
 * (DESIGN.md "Traffic accounting"): equal books are the contract. */
#ifndef BB_TESTS_BOOKS_H
#define BB_TESTS_BOOKS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"

typedef struct {
    int64_t total, messages, reached, phase[BOXBFS_PHASE_COUNT], phase_msg[BOXBFS_PHASE_COUNT];
    int nlevels, levels, ndev;
    int64_t *link, *link_msg;   /* ndev x ndev, row = source */
    int64_t *level_link;        /* nlevels x ndev x ndev bytes */
    boxbfs_level_report_t *lv;
} books_t;

static inline void books_free(books_t *b)
{
    free(b->link);
    free(b->link_msg);
    free(b->level_link);
    free(b->lv);
    memset(b, 0, sizeof *b);
}

/* Copy report r of a search on ndev devices; 0 (nothing held) when out of memory. */
static inline int books_take(books_t *b, const boxbfs_search_report_t *r, int ndev)
{
    size_t cells = (size_t)ndev * (size_t)ndev, nl = (size_t)(r->nlevels > 0 ? r->nlevels : 0);
    memset(b, 0, sizeof *b);
    b->total = r->total_bytes;
    b->messages = r->total_messages;
    b->reached = r->reached;
    memcpy(b->phase, r->phase_bytes, sizeof b->phase);
    memcpy(b->phase_msg, r->phase_messages, sizeof b->phase_msg);
    b->nlevels = r->nlevels;
    b->levels = r->levels;
    b->ndev = ndev;
    b->link = malloc(cells * 8);
    b->link_msg = malloc(cells * 8);
    b->level_link = malloc(nl * cells * 8 + 8);
    b->lv = malloc(nl * sizeof *b->lv + sizeof *b->lv);
    if (!b->link || !b->link_msg || !b->level_link || !b->lv) {
        books_free(b);
        return 0;
    }
    memcpy(b->link, r->link_bytes, cells * 8);
    memcpy(b->link_msg, r->link_messages, cells * 8);
    if (nl) {
        memcpy(b->level_link, r->level_link_bytes, nl * cells * 8);
        memcpy(b->lv, r->level_reports, nl * sizeof *b->lv);
    }
    return 1;
}

/* One difference: counted, and the first one written to why. */
typedef struct {
    int count;
    char *why;
    size_t len;
    const char *a_name, *b_name;
} books_diff_t;

static inline void books_note(books_diff_t *d, int64_t a, int64_t b, const char *fmt, ...)
{
    va_list ap;
    size_t used;
    if (a == b) return;
    if (d->count++ > 0 || d->len == 0) return;
    va_start(ap, fmt);
    vsnprintf(d->why, d->len, fmt, ap);
    va_end(ap);
    used = strlen(d->why);
    snprintf(d->why + used, d->len - used, ": %lld (%s) vs %lld (%s)", (long long)a, d->a_name,
             (long long)b, d->b_name);
}

/* 1 where a and b agree in every count: totals, phases (bytes, messages),
 * links (bytes, messages), and per level its row (direction, device loop,
 * frontier, arcs, sent vertices, bytes, messages, bitmap messages) and its
 * bytes per link. Otherwise 0, and why (len bytes) names the first
 * difference and how many there are, e.g. "level 1 device_loop: 0 (cuda)
 * vs 1 (cpu); 3 counts differ"; a_name and b_name label the two sides. */
static inline int books_compare(const books_t *a, const books_t *b, const char *a_name,
                                const char *b_name, char *why, size_t len)
{
    books_diff_t d = {0, why, len, a_name, b_name};
    int n = a->ndev, nl = a->nlevels < b->nlevels ? a->nlevels : b->nlevels;
    size_t cells = (size_t)n * (size_t)n;
    if (len) why[0] = '\0';
    books_note(&d, a->ndev, b->ndev, "devices");
    if (a->ndev != b->ndev) return 0;
    books_note(&d, a->nlevels, b->nlevels, "level rows");
    books_note(&d, a->levels, b->levels, "levels");
    books_note(&d, a->reached, b->reached, "reached");
    books_note(&d, a->total, b->total, "total bytes");
    books_note(&d, a->messages, b->messages, "total messages");
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) {
        books_note(&d, a->phase[p], b->phase[p], "phase %s bytes",
                   boxbfs_phase_name((boxbfs_phase_t)p));
        books_note(&d, a->phase_msg[p], b->phase_msg[p], "phase %s messages",
                   boxbfs_phase_name((boxbfs_phase_t)p));
    }
    for (size_t c = 0; c < cells; c++) {
        books_note(&d, a->link[c], b->link[c], "link %d->%d bytes", (int)(c / n), (int)(c % n));
        books_note(&d, a->link_msg[c], b->link_msg[c], "link %d->%d messages", (int)(c / n),
                   (int)(c % n));
    }
    for (int l = 0; l < nl; l++) {
        const boxbfs_level_report_t *x = &a->lv[l], *y = &b->lv[l];
        books_note(&d, x->level, y->level, "level row %d: level", l);
        books_note(&d, x->direction, y->direction, "level %d direction", l);
        books_note(&d, x->device_loop, y->device_loop, "level %d device_loop", l);
        books_note(&d, x->frontier, y->frontier, "level %d frontier", l);
        books_note(&d, x->frontier_arcs, y->frontier_arcs, "level %d frontier_arcs", l);
        books_note(&d, x->unexplored_arcs, y->unexplored_arcs, "level %d unexplored_arcs", l);
        books_note(&d, x->sent_vertices, y->sent_vertices, "level %d sent_vertices", l);
        books_note(&d, x->bytes, y->bytes, "level %d bytes", l);
        books_note(&d, x->messages, y->messages, "level %d messages", l);
        books_note(&d, x->bitmap_messages, y->bitmap_messages, "level %d bitmap_messages", l);
        for (size_t c = 0; c < cells; c++)
            books_note(&d, a->level_link[(size_t)l * cells + c], b->level_link[(size_t)l * cells + c],
                       "level %d link %d->%d bytes", l, (int)(c / n), (int)(c % n));
    }
    if (d.count > 1 && len) {
        size_t used = strlen(why);
        snprintf(why + used, len - used, "; %d counts differ", d.count);
    }
    return d.count == 0;
}

/* The options of the cpu backend's run whose books a cuda run with options
 * o must equal: o on the cpu backend, except --exchange nccl (cuda only),
 * which becomes the host-staged exchange. On several devices NCCL runs
 * host-driven levels: the device loop and the device search across devices
 * need --exchange peer (bb_loop_across_devices, bb_search_peers_refusal),
 * and their levels are booked differently (device_loop = 1 in the loop's
 * rows; the search's own meetings, and no parent gather). The staged
 * exchange is refused by both in the same way and books one message per
 * non-empty payload, as NCCL does. */
static inline void books_reference_options(boxbfs_engine_options_t *o)
{
    o->backend = BOXBFS_BACKEND_CPU;
    o->device_ids = NULL;
    if (o->exchange == BOXBFS_EXCHANGE_NCCL) o->exchange = BOXBFS_EXCHANGE_HOST;
}

#endif /* BB_TESTS_BOOKS_H */
