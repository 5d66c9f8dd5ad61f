/* The engines' rounds over the NCCL exchange (peer/exchange_nccl.c;
 * docs/architecture.md, "2D partition") without NCCL or a GPU. This test defines
 * bb_nccl_ops_ptr itself, so the linker leaves the library's nccl.o or
 * nccl_none.o out (test_kron does the same with kron.c): a host imitation of
 * NCCL point to point as loose as NCCL allows. A send completes when it is
 * queued (eager), a receive takes the next message of its pair in issue
 * order and must have the size the receiver expects, and a rank's round ends
 * once its own messages are through, whatever the others do; each round
 * starts after a random delay of up to 300 us. nccl is refused on the cpu
 * backend, so an engine is created there with --exchange host, whose setup
 * decides as nccl's does (host-driven levels: the device loop and the device
 * search across devices need --exchange peer), and switched to
 * bb_exchange_nccl over these communicators, as setup does for --exchange
 * nccl. The 2D engine on grids 1x1 .. 3x3 and the 1D engine (top-down, and
 * auto: bitmap rounds too; valid-flag and atomic) on as many devices, every
 * wire format, on kron:10, from several roots, twice each: validated trees
 * with the reference's levels, the books of the cpu backend's reference for
 * a cuda run with --exchange nccl (books_reference_options, the one
 * test_gpu_engine checks the GPUs against: every count, per level and link),
 * every queued message received with its size and nothing left over. With
 * --exchange peer as that reference (as test_gpu_engine had it), the levels
 * of the device loop differ in device_loop and this test fails; without the
 * barrier that ends each NCCL round, a device racing ahead rewrites sizes a
 * slower one still reads (2D: fold after expand; 1D and 2D: the parent
 * gather's answers after its requests) and this test fails. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boxbfs.h"
#include "books.h"
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

/* One search on rows x cols devices (2D: that grid; 1D: as many devices)
 * with contraction ct; nccl: over the fake communicators, else the cpu
 * backend's reference for a cuda run with --exchange nccl
 * (books_reference_options). Its books in b_p. */
static int search(boxbfs_graph_t g, boxbfs_partition_t part, boxbfs_search_direction_t dir,
                  int rows, int cols, boxbfs_contract_t ct, boxbfs_wire_t wire, int nccl,
                  int64_t root, books_t *b_p)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    char what[160];
    size_t P = (size_t)rows * (size_t)cols;
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int ok = 0;
    boxbfs_engine_options_init(&o);
    o.backend = BOXBFS_BACKEND_CUDA;   /* the run this one stands for */
    o.exchange = BOXBFS_EXCHANGE_NCCL;
    o.partition = part;
    o.direction = dir;
    o.contract = ct;
    o.devices = (int)P;
    if (part == BOXBFS_PARTITION_2D) {
        o.grid_rows = rows;
        o.grid_cols = cols;
    }
    o.wire = wire;
    if (nccl) {
        /* nccl is refused on the cpu backend: created as host-staged, whose
         * setup decides as nccl's does (no device loop or device search across
         * devices, no peer access needed), then switched to the NCCL exchange
         * as setup and team->nccl_open do for --exchange nccl */
        o.backend = BOXBFS_BACKEND_CPU;
        o.exchange = BOXBFS_EXCHANGE_HOST;
    } else {
        books_reference_options(&o);
    }
    if (!parent || !level) goto out;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (e == NULL) goto out;
    if (nccl) {
        e->opts.exchange = BOXBFS_EXCHANGE_NCCL;   /* what the levels see at run time */
        e->xchg.run = bb_exchange_nccl;
        e->xchg.staged = 0;
        CHECK_OK(bb_nccl_ops_ptr->open(e->order, e->ndev, &e->xchg.nccl));
    }
    snprintf(what, sizeof what, "%s %s %dx%d %s %s %s root %lld", boxbfs_partition_name(part),
             nccl ? "nccl" : "reference", rows, cols, boxbfs_search_direction_name(dir),
             boxbfs_contract_name(ct), boxbfs_wire_name(wire), (long long)root);
    for (int rep = 0; rep < 2; rep++) {   /* the engine runs again on the same communicators */
        if (boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
            fprintf(stderr, "%s: %s\n", what, boxbfs_last_error());
            goto out;
        }
    }
    if (!check_tree_levels(g, root, parent, level, what)) goto out;
    ok = books_take(b_p, r, (int)P);
out:
    boxbfs_engine_free(e);   /* closes the fake communicators: left-over messages count */
    free(parent);
    free(level);
    return ok;
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
    /* 1D top-down (remote parents: a real gather) and auto, valid-flag and
     * atomic (the device loop and the device search across devices run
     * with peer copies, never with NCCL); 2D */
    for (int p = 0; p < 5; p++)
        for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++)
            for (size_t w = 0; w < sizeof wires / sizeof wires[0]; w++)
                for (int i = 0; i < 3; i++) {
                    boxbfs_partition_t part = p < 4 ? BOXBFS_PARTITION_1D : BOXBFS_PARTITION_2D;
                    boxbfs_search_direction_t dir = p % 2 ? BOXBFS_SEARCH_AUTO
                                                          : BOXBFS_SEARCH_TOP_DOWN;
                    boxbfs_contract_t ct = p == 2 || p == 3 ? BOXBFS_CONTRACT_ATOMIC
                                                            : BOXBFS_CONTRACT_VALID_FLAG;
                    int rows = grids[gi][0], cols = grids[gi][1];
                    books_t ref, nccl;
                    char why[200];
                    if (part == BOXBFS_PARTITION_1D && rows > cols) continue;   /* same count */
                    memset(&ref, 0, sizeof ref);
                    memset(&nccl, 0, sizeof nccl);
                    CHECK(search(g, part, dir, rows, cols, ct, wires[w], 0, roots[i], &ref));
                    CHECK(search(g, part, dir, rows, cols, ct, wires[w], 1, roots[i], &nccl));
                    if (ref.link && nccl.link &&
                        !books_compare(&nccl, &ref, "nccl", "reference", why, sizeof why)) {
                        fprintf(stderr, "%s %dx%d %s %s %s root %lld: nccl's books differ from "
                                "the cpu reference's: %s\n", boxbfs_partition_name(part), rows,
                                cols, boxbfs_search_direction_name(dir), boxbfs_contract_name(ct),
                                boxbfs_wire_name(wires[w]), (long long)roots[i], why);
                        check_failures++;
                    }
                    books_free(&ref);
                    books_free(&nccl);
                    searches += 2;
                }
    CHECK(fake_errors == 0);
    boxbfs_graph_free(g);
    fprintf(stderr, "%d searches (twice each), %d fake NCCL errors\n", searches, fake_errors);
    CHECK_DONE();
}
