/* The engines' rounds over the NCCL exchange (peer/exchange_nccl.c; README
 * "The NCCL exchange", "2D partition") without NCCL or a GPU. This test defines
 * bb_nccl_ops_ptr itself, so the linker leaves the library's nccl.o or
 * nccl_none.o out (test_kron does the same with kron.c): a host imitation of
 * NCCL point to point as loose as NCCL allows. A send completes when it is
 * queued (eager), a receive takes the next message of its pair in issue
 * order and must have the size the receiver expects, and a rank's round ends
 * once its own messages are through, whatever the others do; each round
 * starts after a random delay of up to 300 us. An engine is created on the
 * cpu backend with --exchange peer (nccl is refused there) and its exchange
 * switched to bb_exchange_nccl over these communicators, as setup does for
 * --exchange nccl. The 2D engine on grids 1x1 .. 3x3 and the 1D engine
 * (top-down, and auto: bitmap rounds too) on as many devices, every wire
 * format, on kron:10, from several roots, twice each: validated trees with
 * the reference's levels, the same traffic as peer (totals, phases and their
 * messages, links, the level table, per-level links), every queued message
 * received with its size and nothing left over. Without the barrier that
 * ends each NCCL round, a device racing ahead rewrites sizes a slower one
 * still reads (2D: fold after expand; 1D and 2D: the parent gather's
 * answers after its requests) and this test fails. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boxbfs.h"
#include "check.h"
#include "common/error.h"
#include "engine/engine.h"
#include "kernels/nccl.h"
#include "peer/exchange.h"

typedef struct msg {
    struct msg *next;
    uint64_t bytes;
    unsigned char data[];
} msg_t;

struct bb_nccl {
    int n;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    msg_t **head, **tail;   /* [s * n + d]: queued s -> d, oldest first */
    unsigned *seed;         /* per rank */
};

static int fake_errors;     /* size mismatches, lost or left-over messages (under lock) */

static boxbfs_status_t fake_open(const int *ordinals, int n, bb_nccl_t **nccl_p)
{
    bb_nccl_t *c = calloc(1, sizeof *c);
    (void)ordinals;
    if (c == NULL) return BOXBFS_ERR_NO_MEMORY;
    c->n = n;
    c->head = calloc((size_t)n * (size_t)n, sizeof *c->head);
    c->tail = calloc((size_t)n * (size_t)n, sizeof *c->tail);
    c->seed = calloc((size_t)n, sizeof *c->seed);
    if (!c->head || !c->tail || !c->seed) {
        free(c->head);
        free(c->tail);
        free(c->seed);
        free(c);
        return BOXBFS_ERR_NO_MEMORY;
    }
    for (int r = 0; r < n; r++) c->seed[r] = 12345u + 977u * (unsigned)r;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cond, NULL);
    *nccl_p = c;
    return BOXBFS_OK;
}

static boxbfs_status_t fake_unique_id(unsigned char id[BB_NCCL_ID_BYTES])
{
    (void)id;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the test's NCCL runs in one process");
}

static boxbfs_status_t fake_open_rank(const unsigned char id[BB_NCCL_ID_BYTES], int nranks,
                                      int rank, int ordinal, bb_nccl_t **nccl_p)
{
    (void)id, (void)nranks, (void)rank, (void)ordinal, (void)nccl_p;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the test's NCCL runs in one process");
}

static void fake_close(bb_nccl_t *c)
{
    if (c == NULL) return;
    for (int i = 0; i < c->n * c->n; i++)
        while (c->head[i]) {   /* sent, never received: NCCL would deliver it later */
            msg_t *m = c->head[i];
            c->head[i] = m->next;
            fprintf(stderr, "fake NCCL: a %llu-byte message %d -> %d was never received\n",
                    (unsigned long long)m->bytes, i / c->n, i % c->n);
            fake_errors++;
            free(m);
        }
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->cond);
    free(c->head);
    free(c->tail);
    free(c->seed);
    free(c);
}

static boxbfs_status_t fake_round(bb_nccl_t *c, int self, void *stream, const void *const *src,
                                  void *const *recv, const uint64_t *bytes,
                                  int (*aborted)(void *arg), void *arg)
{
    size_t n = (size_t)c->n, me = (size_t)self;
    boxbfs_status_t st = BOXBFS_OK;
    (void)stream;
    usleep((useconds_t)(rand_r(&c->seed[self]) % 300));   /* a slow host thread */
    /* sends first (eager: queued, complete), then each receive in turn */
    for (size_t d = 0; d < n; d++) {
        uint64_t b = bytes[me * n + d];
        msg_t *m;
        if (d == me || b == 0) continue;
        if ((m = malloc(sizeof *m + b)) == NULL) return BOXBFS_ERR_NO_MEMORY;
        m->next = NULL;
        m->bytes = b;
        memcpy(m->data, src[me * n + d], b);
        pthread_mutex_lock(&c->lock);
        if (c->tail[me * n + d]) c->tail[me * n + d]->next = m;
        else c->head[me * n + d] = m;
        c->tail[me * n + d] = m;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
    for (size_t s = 0; s < n && st == BOXBFS_OK; s++) {
        uint64_t b = bytes[s * n + me];
        msg_t *m = NULL;
        if (s == me || b == 0) continue;
        pthread_mutex_lock(&c->lock);
        for (int waited_ms = 0; (m = c->head[s * n + me]) == NULL; waited_ms += 10) {
            struct timespec ts;
            if ((aborted && aborted(arg)) || waited_ms >= 5000) break;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 10 * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            (void)pthread_cond_timedwait(&c->cond, &c->lock, &ts);
        }
        if (m) {
            c->head[s * n + me] = m->next;
            if (c->head[s * n + me] == NULL) c->tail[s * n + me] = NULL;
        }
        if (m && m->bytes != b) fake_errors++;
        if (m == NULL && !(aborted && aborted(arg))) fake_errors++;
        pthread_mutex_unlock(&c->lock);
        if (m == NULL) {
            st = bb_error_set(BOXBFS_ERR_DEVICE, "fake NCCL: device %d waited 5 s for %llu bytes "
                                                 "from %zu", self, (unsigned long long)b, s);
        } else if (m->bytes != b) {
            st = bb_error_set(BOXBFS_ERR_DEVICE, "fake NCCL: device %d expected %llu bytes from "
                                                 "%zu, the next message has %llu", self,
                              (unsigned long long)b, s, (unsigned long long)m->bytes);
        } else {
            memcpy(recv[me * n + s], m->data, b);
        }
        free(m);
    }
    return st;
}

static const bb_nccl_ops_t fake_ops = {
    .open = fake_open,
    .unique_id = fake_unique_id,
    .open_rank = fake_open_rank,
    .close = fake_close,
    .round = fake_round,
};

const bb_nccl_ops_t *const bb_nccl_ops_ptr = &fake_ops;

typedef struct {
    int64_t total_bytes, total_messages, phase_bytes[BOXBFS_PHASE_COUNT],
        phase_messages[BOXBFS_PHASE_COUNT];
    int64_t *links, *link_messages, *level_rows, *level_links;
    int nlevels;
} books_t;

static void books_free(books_t *b)
{
    free(b->links);
    free(b->link_messages);
    free(b->level_rows);
    free(b->level_links);
    memset(b, 0, sizeof *b);
}

/* One search on rows x cols devices (2D: that grid; 1D: as many devices);
 * nccl: over the fake communicators. Its books in b_p. */
static int search(boxbfs_graph_t g, boxbfs_partition_t part, boxbfs_search_direction_t dir,
                  int rows, int cols, boxbfs_wire_t wire, int nccl, int64_t root, books_t *b_p)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    char what[160];
    size_t P = (size_t)rows * (size_t)cols;
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    books_t b;
    int ok = 0;
    memset(&b, 0, sizeof b);
    boxbfs_engine_options_init(&o);
    o.backend = BOXBFS_BACKEND_CPU;
    o.partition = part;
    o.direction = dir;
    o.devices = (int)P;
    if (part == BOXBFS_PARTITION_2D) {
        o.grid_rows = rows;
        o.grid_cols = cols;
    }
    o.wire = wire;
    o.exchange = BOXBFS_EXCHANGE_PEER;
    if (!parent || !level) goto out;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (e == NULL) goto out;
    if (nccl) {   /* what setup and team->nccl_open do for --exchange nccl */
        e->xchg.run = bb_exchange_nccl;
        e->xchg.staged = 0;
        CHECK_OK(bb_nccl_ops_ptr->open(e->order, e->ndev, &e->xchg.nccl));
    }
    snprintf(what, sizeof what, "%s %s %dx%d %s root %lld", boxbfs_partition_name(part),
             nccl ? "nccl" : "peer", rows, cols, boxbfs_wire_name(wire), (long long)root);
    for (int rep = 0; rep < 2; rep++) {   /* the engine runs again on the same communicators */
        if (boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
            fprintf(stderr, "%s: %s\n", what, boxbfs_last_error());
            goto out;
        }
    }
    if (!check_tree_levels(g, root, parent, level, what)) goto out;
    b.total_bytes = r->total_bytes;
    b.total_messages = r->total_messages;
    memcpy(b.phase_bytes, r->phase_bytes, sizeof b.phase_bytes);
    memcpy(b.phase_messages, r->phase_messages, sizeof b.phase_messages);
    b.nlevels = r->nlevels;
    b.links = malloc(P * P * 8);
    b.link_messages = malloc(P * P * 8);
    b.level_rows = malloc((size_t)r->nlevels * 6 * 8 + 8);
    b.level_links = malloc((size_t)r->nlevels * P * P * 8 + 8);
    if (!b.links || !b.link_messages || !b.level_rows || !b.level_links) goto out;
    memcpy(b.links, r->link_bytes, P * P * 8);
    memcpy(b.link_messages, r->link_messages, P * P * 8);
    memcpy(b.level_links, r->level_link_bytes, (size_t)r->nlevels * P * P * 8);
    for (int l = 0; l < r->nlevels; l++) {
        const boxbfs_level_report_t *L = &r->level_reports[l];
        int64_t row[6] = {L->level, L->frontier, L->sent_vertices, L->bytes, L->messages,
                          L->bitmap_messages};
        memcpy(b.level_rows + (size_t)l * 6, row, sizeof row);
    }
    *b_p = b;
    memset(&b, 0, sizeof b);
    ok = 1;
out:
    books_free(&b);
    boxbfs_engine_free(e);   /* closes the fake communicators: left-over messages count */
    free(parent);
    free(level);
    return ok;
}

static int same_books(const books_t *a, const books_t *b, size_t P)
{
    return a->total_bytes == b->total_bytes && a->total_messages == b->total_messages &&
           memcmp(a->phase_bytes, b->phase_bytes, sizeof a->phase_bytes) == 0 &&
           memcmp(a->phase_messages, b->phase_messages, sizeof a->phase_messages) == 0 &&
           memcmp(a->links, b->links, P * P * 8) == 0 &&
           memcmp(a->link_messages, b->link_messages, P * P * 8) == 0 &&
           a->nlevels == b->nlevels &&
           memcmp(a->level_rows, b->level_rows, (size_t)a->nlevels * 6 * 8) == 0 &&
           memcmp(a->level_links, b->level_links, (size_t)a->nlevels * P * P * 8) == 0;
}

int main(void)
{
    static const int grids[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}, {3, 1}, {2, 3},
                                   {3, 2}, {3, 3}};
    static const boxbfs_wire_t wires[] = {BOXBFS_WIRE_LIST, BOXBFS_WIRE_BITMAP, BOXBFS_WIRE_AUTO};
    int64_t roots[] = {0, 17, 300};
    boxbfs_graph_t g;
    int searches = 0;
    CHECK_OK(boxbfs_graph_load("kron:10", NULL, &g));
    if (check_failures) CHECK_DONE();
    {   /* roots with an edge */
        const int64_t *off = boxbfs_graph_offsets(g);
        for (int i = 0; i < 3; i++)
            while (off[roots[i] + 1] == off[roots[i]]) roots[i]++;
    }
    for (int p = 0; p < 3; p++)   /* 1D top-down (remote parents: a real gather); 1D auto; 2D */
        for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++)
            for (size_t w = 0; w < sizeof wires / sizeof wires[0]; w++)
                for (int i = 0; i < 3; i++) {
                    boxbfs_partition_t part = p < 2 ? BOXBFS_PARTITION_1D : BOXBFS_PARTITION_2D;
                    boxbfs_search_direction_t dir = p == 1 ? BOXBFS_SEARCH_AUTO
                                                           : BOXBFS_SEARCH_TOP_DOWN;
                    int rows = grids[gi][0], cols = grids[gi][1];
                    books_t peer, nccl;
                    if (part == BOXBFS_PARTITION_1D && rows > cols) continue;   /* same count */
                    memset(&peer, 0, sizeof peer);
                    memset(&nccl, 0, sizeof nccl);
                    CHECK(search(g, part, dir, rows, cols, wires[w], 0, roots[i], &peer));
                    CHECK(search(g, part, dir, rows, cols, wires[w], 1, roots[i], &nccl));
                    if (peer.links && nccl.links &&
                        !same_books(&peer, &nccl, (size_t)(rows * cols))) {
                        fprintf(stderr, "%s %dx%d %s root %lld: nccl's books differ from peer's "
                                "(bytes %lld / %lld, messages %lld / %lld)\n",
                                boxbfs_partition_name(part), rows, cols,
                                boxbfs_wire_name(wires[w]), (long long)roots[i],
                                (long long)nccl.total_bytes, (long long)peer.total_bytes,
                                (long long)nccl.total_messages, (long long)peer.total_messages);
                        check_failures++;
                    }
                    books_free(&peer);
                    books_free(&nccl);
                    searches += 2;
                }
    CHECK(fake_errors == 0);
    boxbfs_graph_free(g);
    fprintf(stderr, "%d searches (twice each), %d fake NCCL errors\n", searches, fake_errors);
    CHECK_DONE();
}
