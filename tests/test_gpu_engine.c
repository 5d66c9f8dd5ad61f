/* The level engine on the cuda backend (skips with 77 without a GPU): for 1
 * GPU and every larger available count, every contraction x expand x wire x
 * visited layout x direction (top-down, bottom-up, auto) on kron:14, a
 * directed kron:12 and a hand graph with isolated vertices gives
 * trees that pass the Graph500 validator with the reference levels, and the
 * same traffic (totals, phases and links with their messages, per level its
 * row and its bytes per link: books.h) as the cpu backend with the same
 * options. Built with NCCL, --exchange nccl with every contraction x wire
 * (visited alternating, every expand) gives the same trees and the books of
 * the cpu backend's host-staged exchange (both run host-driven levels on
 * several devices: books_reference_options). Three engine devices on GPU 0
 * run every contraction with parents kept and recomputed against the cpu
 * backend the same way. Bad device ids and a too small memory limit fail
 * with their own status and a message, without leaking; so does NCCL's
 * refusal of a GPU given twice.
 *
 * The work is cut into parts (one graph, device count and contraction each)
 * spread over GPU_ENGINE_SHARDS (default: a quarter of the CPUs, at least 8)
 * processes that run at once,
 * balanced by the parts' engine runs (a part on fewer devices than there
 * are GPUs starts at GPU shard mod GPUs, so that the shards spread over every
 * GPU): with no arguments the test starts
 * itself once per shard (--shard K/S runs shard K of S alone) and fails if
 * any shard fails. A difference is named by field, level and link.
 * GPU_ENGINE_DRY_RUN=N runs every part on the cpu backend as if there were
 * N GPUs, against itself (the test's own plumbing, where there is no GPU). */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boxbfs.h"
#include "books.h"
#include "check.h"

#define NROOTS 3

/* the backend under test: cuda, or cpu in a dry run */
static boxbfs_backend_t gpu_backend = BOXBFS_BACKEND_CUDA;

typedef struct {
    boxbfs_graph_t g;
    int64_t roots[NROOTS];
    int32_t *ref_level[NROOTS];
} case_t;

static const char *describe(const boxbfs_engine_options_t *o)
{
    static char buf[200];
    snprintf(buf, sizeof buf,
             "N=%d %s expand=%s K=%d wire=%s visited=%s exchange=%s dir=%s parents=%s",
             o->devices, boxbfs_contract_name(o->contract), boxbfs_expand_name(o->expand),
             o->expand_edges_per_thread,
             boxbfs_wire_name(o->wire), boxbfs_visited_name(o->visited),
             boxbfs_exchange_name(o->exchange), boxbfs_search_direction_name(o->direction),
             boxbfs_parents_name(o->parents));
    return buf;
}

/* The cpu backend's books for the case's roots with these options (the
 * expand method does not change them; --exchange nccl is checked against
 * the host-staged exchange: books.h, books_reference_options). Returns 0
 * on failure, books freed. */
static int cpu_reports(const case_t *c, const boxbfs_engine_options_t *opts, books_t *books)
{
    boxbfs_engine_options_t o = *opts;
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int taken = 0;
    books_reference_options(&o);
    CHECK_OK(boxbfs_engine_create(c->g, &o, &e));
    for (; e && taken < NROOTS; taken++) {
        boxbfs_status_t st = boxbfs_engine_run(e, c->roots[taken], NULL, NULL, &r);
        CHECK_OK(st);
        if (st != BOXBFS_OK || !books_take(&books[taken], r, o.devices)) break;
    }
    boxbfs_engine_free(e);
    if (taken == NROOTS) return 1;
    while (taken > 0) books_free(&books[--taken]);
    return 0;
}

/* Run the case's roots on the cuda backend; check trees and levels against
 * the reference and traffic against the cpu backend's reports. */
static void check_gpu(const case_t *c, const boxbfs_engine_options_t *o, const books_t *cpu)
{
    boxbfs_engine_t e = NULL;
    int64_t n = boxbfs_graph_vertices(c->g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    const boxbfs_search_report_t *r;
    CHECK(parent && level);
    if (parent && level) CHECK_OK(boxbfs_engine_create(c->g, o, &e));
    for (int i = 0; e && i < NROOTS; i++) {
        int64_t root = c->roots[i];
        books_t gs;
        char why[200];
        memset(parent, 0x5a, (size_t)n * 8);   /* poison: every entry must be written */
        memset(level, 0x5a, (size_t)n * 4);
        if (boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
            fprintf(stderr, "%s %s root %lld: run: %s\n", boxbfs_graph_name(c->g), describe(o),
                    (long long)root, boxbfs_last_error());
            check_failures++;
            continue;
        }
        if (boxbfs_validate(c->g, root, parent, level, NULL) != BOXBFS_OK) {
            fprintf(stderr, "%s %s root %lld: %s\n", boxbfs_graph_name(c->g), describe(o),
                    (long long)root, boxbfs_last_error());
            check_failures++;
        }
        if (memcmp(level, c->ref_level[i], (size_t)n * 4) != 0) {
            fprintf(stderr, "%s %s root %lld: levels differ from the reference\n",
                    boxbfs_graph_name(c->g), describe(o), (long long)root);
            check_failures++;
        }
        CHECK(books_take(&gs, r, o->devices));
        if (gs.link == NULL) continue;
        if (!books_compare(&gs, &cpu[i], "gpu", "cpu", why, sizeof why)) {
            fprintf(stderr, "%s %s root %lld: traffic differs from the cpu backend: %s\n",
                    boxbfs_graph_name(c->g), describe(o), (long long)root, why);
            check_failures++;
        }
        books_free(&gs);
    }
    boxbfs_engine_free(e);
    free(parent);
    free(level);
}

/* Every expand method against one set of cpu reports (the default K, auto),
 * and every K on the binsearch and merge-path expands; with one_expand the
 * options' own expand only. */
static void compare_expands(const case_t *c, boxbfs_engine_options_t *o, int one_expand)
{
    static const boxbfs_expand_t expands[] = {BOXBFS_EXPAND_BINSEARCH, BOXBFS_EXPAND_MERGEPATH,
                                              BOXBFS_EXPAND_AUTO};
    static const int ks[] = {1, 2, 4, 8, 16};
    books_t cpu[NROOTS];
    if (!cpu_reports(c, o, cpu)) return;
    if (one_expand) {
        check_gpu(c, o, cpu);
        for (int i = 0; i < NROOTS; i++) books_free(&cpu[i]);
        return;
    }
    for (int x = 0; x < 3; x++) {
        o->expand = expands[x];
        check_gpu(c, o, cpu);
    }
    for (int x = 0; x < 2; x++)
        for (int i = 0; i < 5; i++) {
            o->expand = expands[x];
            o->expand_edges_per_thread = ks[i];
            check_gpu(c, o, cpu);
        }
    o->expand_edges_per_thread = 0;
    for (int i = 0; i < NROOTS; i++) books_free(&cpu[i]);
}

static void compare(const case_t *c, boxbfs_engine_options_t *o) { compare_expands(c, o, 0); }

/* One contraction's x wire x visited layout: direction auto with every
 * expand, top-down and bottom-up with the default one. */
static void sweep(const case_t *c, int ndev, const int *ids, int ct)
{
    boxbfs_engine_options_t o;
    for (int w = 0; w < 3; w++)
        for (int v = 0; v < 2; v++)
            for (int dir = 0; dir < 3; dir++) {
                boxbfs_engine_options_init(&o);
                o.backend = gpu_backend;
                o.devices = ndev;
                o.device_ids = ids;
                o.contract = (boxbfs_contract_t)ct;
                o.wire = (boxbfs_wire_t)w;
                o.visited = (boxbfs_visited_t)v;
                o.direction = (boxbfs_search_direction_t)dir;
                compare_expands(c, &o, dir != BOXBFS_SEARCH_AUTO);
            }
}

#ifdef BB_HAVE_NCCL
/* NCCL with one contraction x every wire (visited alternating). */
static void sweep_nccl(const case_t *c, int ndev, const int *ids, int ct)
{
    boxbfs_engine_options_t o;
    for (int w = 0; w < 3; w++) {
        boxbfs_engine_options_init(&o);
        o.backend = gpu_backend;
        o.devices = ndev;
        o.device_ids = ids;
        o.exchange = BOXBFS_EXCHANGE_NCCL;
        o.contract = (boxbfs_contract_t)ct;
        o.wire = (boxbfs_wire_t)w;
        o.visited = (boxbfs_visited_t)((ct + w) % 2);
        compare(c, &o);
    }
}
#endif

/* Staged through pinned host memory: copies into another device. */
static void sweep_host(const case_t *c, int ndev, const int *ids)
{
    boxbfs_engine_options_t o;
    boxbfs_engine_options_init(&o);
    o.backend = gpu_backend;
    o.devices = ndev;
    o.device_ids = ids;
    o.exchange = BOXBFS_EXCHANGE_HOST;
    o.wire = BOXBFS_WIRE_AUTO;
    o.contract = BOXBFS_CONTRACT_VALID_FLAG;   /* named: the defaults are atomic and bit */
    o.visited = BOXBFS_VISITED_BYTE;
    compare(c, &o);
    o.contract = BOXBFS_CONTRACT_ATOMIC;
    o.visited = BOXBFS_VISITED_BIT;
    compare(c, &o);
}

/* Three engine devices on GPU 0 (peer copies become copies within it), one
 * contraction: wire list and auto x parents kept and recomputed, auto and
 * top-down (README "Memory plan": the atomic method's bitmap outbox, the
 * recomputed parents, the parent gather's rounds) against the cpu backend. */
static void logical(const case_t *c, int ct)
{
    static const int gpu0[3] = {0, 0, 0};
    boxbfs_engine_options_t o;
    for (int w = 0; w < 3; w += 2)
        for (int par = 1; par <= 2; par++)
            for (int dir = 0; dir < 2; dir++) {
                boxbfs_engine_options_init(&o);
                o.backend = gpu_backend;
                o.devices = 3;
                o.device_ids = gpu0;
                o.contract = (boxbfs_contract_t)ct;
                o.wire = (boxbfs_wire_t)w;
                o.parents = (boxbfs_parents_t)par;
                o.visited = (boxbfs_visited_t)((ct + par) % 2);
                o.direction = dir ? BOXBFS_SEARCH_TOP_DOWN : BOXBFS_SEARCH_AUTO;
                compare_expands(c, &o, 1);
            }
}

static int case_init(case_t *c, boxbfs_graph_t g, const int64_t *roots)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int ok = parent != NULL;
    memset(c, 0, sizeof *c);
    c->g = g;
    for (int i = 0; i < NROOTS && ok; i++) {
        c->roots[i] = roots[i];
        c->ref_level[i] = malloc((size_t)n * 4);
        ok = c->ref_level[i] != NULL &&
             boxbfs_bfs_reference(g, roots[i], parent, c->ref_level[i]) == BOXBFS_OK;
    }
    free(parent);
    return ok;
}

static void case_free(case_t *c)
{
    for (int i = 0; i < NROOTS; i++) free(c->ref_level[i]);
    boxbfs_graph_free(c->g);
}

/* Roots with edges: the first, the highest-degree and one past the middle. */
static void pick_roots(boxbfs_graph_t g, int64_t *roots)
{
    const int64_t *off = boxbfs_graph_offsets(g);
    int64_t n = boxbfs_graph_vertices(g), best = 0;
    roots[0] = roots[1] = roots[2] = 0;
    for (int64_t v = n - 1; v >= 0; v--)
        if (off[v + 1] > off[v]) roots[0] = v;
    for (int64_t v = 0; v < n; v++)
        if (off[v + 1] - off[v] > best) {
            best = off[v + 1] - off[v];
            roots[1] = v;
        }
    roots[2] = roots[0];
    for (int64_t v = n / 2; v < n; v++)
        if (off[v + 1] > off[v]) {
            roots[2] = v;
            break;
        }
}

/* 24 vertices: a path, a star, a 4-cycle with a chord, a pair, a duplicate
 * edge and a self-loop, and five isolated vertices (one is a root). */
static boxbfs_graph_t hand_graph(void)
{
    static const int64_t src[] = {0, 1, 2, 3, 4, 6, 6, 6, 6, 11, 12, 13, 14, 11, 15, 1, 17, 9,
                                  3};
    static const int64_t dst[] = {1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 11, 13, 16, 0, 17, 22,
                                  17};
    boxbfs_graph_t g = NULL;
    if (boxbfs_graph_from_edges(24, (int64_t)(sizeof src / sizeof src[0]), src, dst, 0, &g) !=
        BOXBFS_OK)
        return NULL;
    return g;
}

/* Two one-GPU engines alive at once, their searches in turn: each search
 * runs on its own engine's loop constants (kernels/cuda/small_levels.cu
 * c_loop, which the GPU holds for one engine at a time). */
static void two_engines(void)
{
    boxbfs_graph_t g[2] = {NULL, NULL};
    boxbfs_engine_t e[2] = {NULL, NULL};
    boxbfs_engine_options_t o;
    int64_t roots[2][3];
    CHECK_OK(boxbfs_graph_load("kron:15", NULL, &g[0]));
    g[1] = hand_graph();
    CHECK(g[1] != NULL);
    boxbfs_engine_options_init(&o);
    o.backend = BOXBFS_BACKEND_CUDA;
    o.devices = 1;
    for (int i = 0; i < 2 && g[0] && g[1]; i++) {
        pick_roots(g[i], roots[i]);
        CHECK_OK(boxbfs_engine_create(g[i], &o, &e[i]));
        CHECK(boxbfs_engine_alpha(e[i]) == 40);   /* one device's own (options: 0) */
    }
    for (int turn = 0; turn < 6 && e[0] && e[1]; turn++) {
        const int i = turn % 2;
        const int64_t n = boxbfs_graph_vertices(g[i]), root = roots[i][turn / 2];
        int64_t *parent = malloc((size_t)n * 8);
        int32_t *level = malloc((size_t)n * 4);
        CHECK(parent && level);
        if (parent && level) {
            CHECK_OK(boxbfs_engine_run(e[i], root, parent, level, NULL));
            CHECK_OK(boxbfs_validate(g[i], root, parent, level, NULL));
        }
        free(parent);
        free(level);
    }
    for (int i = 0; i < 2; i++) {
        boxbfs_engine_free(e[i]);
        boxbfs_graph_free(g[i]);
    }
}

static void errors(int available)
{
    boxbfs_graph_t g = NULL;
    boxbfs_engine_t e = NULL;
    boxbfs_engine_options_t o;
    int bad_id[1] = {99};
    CHECK_OK(boxbfs_graph_load("kron:16", NULL, &g));
    if (g == NULL) return;
    boxbfs_engine_options_init(&o);
    o.backend = BOXBFS_BACKEND_CUDA;
    o.devices = 1;
    o.device_ids = bad_id;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_NO_DEVICE);
    CHECK(strstr(boxbfs_last_error(), "99") != NULL);
    boxbfs_engine_free(e);
    e = NULL;
    o.device_ids = NULL;
    o.devices = available + 1;   /* one more than there is */
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_NO_DEVICE);
    CHECK(boxbfs_last_error()[0] != '\0');
    boxbfs_engine_free(e);
    e = NULL;
    o.devices = 1;
    o.device_memory_limit = (size_t)1 << 20;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_DEVICE_MEMORY);
    CHECK(strstr(boxbfs_last_error(), "short by") != NULL);
    boxbfs_engine_free(e);
    e = NULL;
#ifdef BB_HAVE_NCCL
    o.device_memory_limit = 0;
    o.exchange = BOXBFS_EXCHANGE_NCCL;
    {   /* one GPU twice: the engine takes it, NCCL cannot (one rank per GPU) */
        int twice[2] = {0, 0};
        o.devices = 2;
        o.device_ids = twice;
        CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
        CHECK(strstr(boxbfs_last_error(), "given twice") != NULL);
        boxbfs_engine_free(e);
        e = NULL;
        o.device_ids = NULL;
        o.devices = 1;
    }
    o.exchange = BOXBFS_EXCHANGE_PEER;
    o.device_memory_limit = (size_t)1 << 20;
#endif
    /* the device is still usable after the failures */
    o.device_memory_limit = 0;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (e) CHECK_OK(boxbfs_engine_run(e, 1, NULL, NULL, NULL));
    boxbfs_engine_free(e);
    boxbfs_graph_free(g);
}

/* ---- parts and shards ---------------------------------------------------- */

typedef enum { PART_SWEEP, PART_NCCL, PART_HOST, PART_LOGICAL, PART_ERRORS } part_kind_t;

typedef struct {
    part_kind_t kind;
    int ndev, c, ct;   /* devices, case, contraction */
    double weight;     /* engine runs x devices: the part's expected cost */
    int shard;
} part_t;

#define MAX_SHARDS 64
#define MAX_GPUS 64

static const char *const kind_names[] = {"sweep", "nccl", "host", "logical", "errors"};

/* Every part of the test for `available` GPUs, in the order a single process
 * ran them (device counts ascending, then the logical devices, the errors);
 * *count_p parts. NULL when out of memory. */
static part_t *list_parts(int available, int *count_p)
{
    int cap = available * 3 * 7 + 9 + 1, n = 0;
    part_t *p = calloc((size_t)cap, sizeof *p);
    if (p == NULL) return NULL;
    for (int ndev = 1; ndev <= available; ndev++)
        for (int c = 0; c < 3; c++) {
            for (int ct = 0; ct < 3; ct++) {
                /* 3 wires x 2 layouts x (11 expands of auto + top-down + bottom-up) */
                p[n++] = (part_t){PART_SWEEP, ndev, c, ct, 78.0 * ndev, 0};
#ifdef BB_HAVE_NCCL
                if (gpu_backend == BOXBFS_BACKEND_CUDA)   /* 3 wires x 11 expands, + NCCL's start */
                    p[n++] = (part_t){PART_NCCL, ndev, c, ct, 33.0 * ndev * 2, 0};
#endif
            }
            if (ndev > 1) p[n++] = (part_t){PART_HOST, ndev, c, 0, 22.0 * ndev, 0};
        }
    for (int c = 0; c < 3; c++)
        for (int ct = 0; ct < 3; ct++) p[n++] = (part_t){PART_LOGICAL, 3, c, ct, 8.0 * 3, 0};
    if (gpu_backend == BOXBFS_BACKEND_CUDA) p[n++] = (part_t){PART_ERRORS, 1, 0, 0, 5.0, 0};
    *count_p = n;
    return p;
}

/* Heaviest part first to the least loaded shard (ties: the lower index):
 * the same assignment in every process. */
static void assign_shards(part_t *p, int n, int shards)
{
    double load[MAX_SHARDS] = {0};
    for (int i = 0; i < n; i++) p[i].shard = -1;
    for (int k = 0; k < n; k++) {
        int best = -1, s = 0;
        for (int i = 0; i < n; i++)
            if (p[i].shard < 0 && (best < 0 || p[i].weight > p[best].weight)) best = i;
        for (int t = 1; t < shards; t++)
            if (load[t] < load[s]) s = t;
        p[best].shard = s;
        load[s] += p[best].weight;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The GPUs of a part on ndev of the `available` ones: shard k's start at GPU
 * k mod available, so that the shards' parts on fewer devices than there are
 * spread over every GPU instead of all taking GPU 0 (the same trees and
 * books: they are per engine device). NULL (the first ndev) on the cpu
 * backend of a dry run. */
static const int *part_gpus(int shard, int ndev, int available, int gpus[MAX_GPUS])
{
    if (gpu_backend != BOXBFS_BACKEND_CUDA || available > MAX_GPUS) return NULL;
    for (int i = 0; i < ndev; i++) gpus[i] = (shard + i) % available;
    return gpus;
}

/* Shard `shard` of `shards`: its parts, in the listing's order. After a
 * failure at some device count, parts with more devices and the logical
 * devices are skipped, as one process did (the first failures say it). */
static int run_shard(int shard, int shards, int dry_devices)
{
    int available = dry_devices ? dry_devices : boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
    boxbfs_graph_t kron = NULL, dkron = NULL, hand;
    boxbfs_load_options_t directed = {BOXBFS_DIRECTION_DIRECTED, 0, 0};
    case_t cases[3];
    int64_t roots[NROOTS], droots[NROOTS], hand_roots[NROOTS] = {0, 6, 21};
    int nparts = 0, failed_ndev = 0, skipped = 0, ran = 0, gpus[MAX_GPUS];
    const int *ids;
    part_t *parts;
    double t_shard = now_s();
    if (available == 0) SKIP("no GPU (or the cuda backend is not built in)");
    parts = list_parts(available, &nparts);
    CHECK(parts != NULL);
    if (parts == NULL) CHECK_DONE();
    assign_shards(parts, nparts, shards);
    CHECK_OK(boxbfs_graph_load("kron:14", NULL, &kron));
    CHECK_OK(boxbfs_graph_load("kron:12", &directed, &dkron));   /* in-arcs for bottom-up */
    hand = hand_graph();
    CHECK(kron != NULL && dkron != NULL && hand != NULL);
    if (!kron || !dkron || !hand) {
        boxbfs_graph_free(kron);
        boxbfs_graph_free(dkron);
        boxbfs_graph_free(hand);
        free(parts);
        CHECK_DONE();
    }
    pick_roots(kron, roots);
    pick_roots(dkron, droots);
    CHECK(case_init(&cases[0], kron, roots));
    CHECK(case_init(&cases[1], hand, hand_roots));
    CHECK(case_init(&cases[2], dkron, droots));
    for (int i = 0; i < nparts; i++) {
        const part_t *q = &parts[i];
        const case_t *c = &cases[q->c];
        int before = check_failures;
        double t0 = now_s();
        if (q->shard != shard) continue;
        if (check_failures && q->kind != PART_ERRORS &&
            (q->kind == PART_LOGICAL || q->ndev > failed_ndev)) {
            skipped++;
            continue;
        }
        ids = part_gpus(shard, q->ndev, available, gpus);
        switch (q->kind) {
        case PART_SWEEP: sweep(c, q->ndev, ids, q->ct); break;
#ifdef BB_HAVE_NCCL
        case PART_NCCL: sweep_nccl(c, q->ndev, ids, q->ct); break;
#endif
        case PART_HOST: sweep_host(c, q->ndev, ids); break;
        case PART_LOGICAL: logical(c, q->ct); break;
        case PART_ERRORS:
            errors(available);
            two_engines();
            break;
        default: break;
        }
        ran++;
        if (check_failures > before && failed_ndev == 0) failed_ndev = q->ndev;
        fprintf(stderr, "shard %d/%d: %s N=%d%s %s %s: %.1f s%s\n", shard, shards,
                kind_names[q->kind], q->ndev, q->kind == PART_LOGICAL ? " on GPU 0" : "",
                boxbfs_graph_name(c->g),
                q->kind == PART_HOST || q->kind == PART_ERRORS
                    ? "-" : boxbfs_contract_name((boxbfs_contract_t)q->ct),
                now_s() - t0, check_failures > before ? " FAILED" : "");
    }
    fprintf(stderr, "shard %d/%d: %d parts in %.1f s%s", shard, shards, ran, now_s() - t_shard,
            skipped ? "" : "\n");
    if (skipped) fprintf(stderr, ", %d skipped after failures with %d device(s)\n", skipped,
                         failed_ndev);
    for (int i = 0; i < 3; i++) case_free(&cases[i]);
    free(parts);
    CHECK_DONE();
}

/* Start this program once per shard (--shard K/S), all at once, and wait:
 * 1 if any failed (or died), 77 if every one skipped, 0 otherwise. */
static int run_all(const char *self, int shards)
{
    pid_t pid[MAX_SHARDS];
    int fails = 0, skips = 0;
    double t0 = now_s();
    for (int k = 0; k < shards; k++) {
        char arg[32];
        snprintf(arg, sizeof arg, "%d/%d", k, shards);
        pid[k] = fork();
        if (pid[k] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);   /* no shard outlives a killed test */
            execl("/proc/self/exe", self, "--shard", arg, (char *)NULL);
            execl(self, self, "--shard", arg, (char *)NULL);
            fprintf(stderr, "shard %s: cannot start %s\n", arg, self);
            _exit(99);
        }
        if (pid[k] < 0) {
            fprintf(stderr, "shard %s: fork failed\n", arg);
            fails++;
        }
    }
    for (int k = 0; k < shards; k++) {
        int status = 0;
        if (pid[k] <= 0) continue;
        if (waitpid(pid[k], &status, 0) < 0) status = -1;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            skips++;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fails++;
            if (WIFSIGNALED(status))
                fprintf(stderr, "shard %d/%d: killed by signal %d\n", k, shards, WTERMSIG(status));
            else
                fprintf(stderr, "shard %d/%d: exit %d\n", k, shards,
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
    }
    fprintf(stderr, "%d shard(s) in %.1f s: %d failed, %d skipped\n", shards, now_s() - t0, fails,
            skips);
    if (fails) return 1;
    return skips == shards ? 77 : 0;
}

static int positive_env(const char *name, int dflt, int max)
{
    const char *v = getenv(name);
    char *end;
    long x;
    if (v == NULL || *v == '\0') return dflt;
    x = strtol(v, &end, 10);
    if (*end != '\0' || x < 1 || x > max) {
        fprintf(stderr, "%s=%s: use a number in [1, %d]\n", name, v, max);
        exit(99);
    }
    return (int)x;
}

/* A quarter of the CPUs, at least 8, at most MAX_SHARDS: the parts' host work
 * (cpu books, validation) grows with the GPUs, as the machines' cores do. */
static int default_shards(void)
{
    long quarter = sysconf(_SC_NPROCESSORS_ONLN) / 4;
    return quarter < 8 ? 8 : quarter > MAX_SHARDS ? MAX_SHARDS : (int)quarter;
}

int main(int argc, char **argv)
{
    int dry = getenv("GPU_ENGINE_DRY_RUN") ? positive_env("GPU_ENGINE_DRY_RUN", 2, 8) : 0;
    int shards = positive_env("GPU_ENGINE_SHARDS", default_shards(), MAX_SHARDS), k = 0, s = 0;
    char tail;
    if (dry) gpu_backend = BOXBFS_BACKEND_CPU;
    if (argc == 1) return run_all(argv[0], shards);
    if (argc != 3 || strcmp(argv[1], "--shard") != 0 ||
        sscanf(argv[2], "%d/%d%c", &k, &s, &tail) != 2 || s < 1 || s > MAX_SHARDS || k < 0 ||
        k >= s) {
        fprintf(stderr, "usage: %s [--shard K/S]   (shard K of S, 0 <= K < S <= %d; no "
                        "arguments: every shard at once)\n", argv[0], MAX_SHARDS);
        return 99;
    }
    return run_shard(k, s, dry);
}
