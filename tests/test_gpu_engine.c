/* The level engine on the cuda backend (skips with 77 without a GPU): for 1
 * GPU and every larger available count, every contraction x expand x wire x
 * visited layout x direction (top-down, bottom-up, auto) on kron:14, a
 * directed kron:12 and a hand graph with isolated vertices gives
 * trees that pass the Graph500 validator with the reference levels, and the
 * same traffic (totals, phases, link matrix, per-level rows) as the cpu
 * backend with the same options. Built with NCCL, --exchange nccl with every
 * contraction x wire (visited alternating, every expand) gives the same trees
 * and the traffic of the peer exchange (= the cpu backend's). Three engine
 * devices on GPU 0 run every contraction with parents kept and recomputed
 * against the cpu backend the same way. Bad device ids
 * and a too small memory limit fail with their own status and a message,
 * without leaking; so does NCCL's refusal of a GPU given twice. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

#define NROOTS 3

typedef struct {
    boxbfs_graph_t g;
    int64_t roots[NROOTS];
    int32_t *ref_level[NROOTS];
} case_t;

/* What a search reports about traffic, copied out of the engine. */
typedef struct {
    int64_t total, messages, reached, phase[BOXBFS_PHASE_COUNT], phase_msg[BOXBFS_PHASE_COUNT];
    int nlevels, levels, ndev;
    int64_t *link, *link_msg;
    boxbfs_level_report_t *lv;
} snap_t;

static void snap_free(snap_t *s)
{
    free(s->link);
    free(s->link_msg);
    free(s->lv);
}

static int snap_take(snap_t *s, const boxbfs_search_report_t *r, int ndev)
{
    size_t cells = (size_t)ndev * (size_t)ndev;
    memset(s, 0, sizeof *s);
    s->total = r->total_bytes;
    s->messages = r->total_messages;
    s->reached = r->reached;
    memcpy(s->phase, r->phase_bytes, sizeof s->phase);
    memcpy(s->phase_msg, r->phase_messages, sizeof s->phase_msg);
    s->nlevels = r->nlevels;
    s->levels = r->levels;
    s->ndev = ndev;
    s->link = malloc(cells * 8);
    s->link_msg = malloc(cells * 8);
    s->lv = malloc((size_t)(r->nlevels > 0 ? r->nlevels : 1) * sizeof *s->lv);
    if (!s->link || !s->link_msg || !s->lv) {
        snap_free(s);
        return 0;
    }
    memcpy(s->link, r->link_bytes, cells * 8);
    memcpy(s->link_msg, r->link_messages, cells * 8);
    memcpy(s->lv, r->level_reports, (size_t)r->nlevels * sizeof *s->lv);
    return 1;
}

/* Every count the engine reports is a property of the algorithm: equal. */
static int snap_equal(const snap_t *a, const snap_t *b)
{
    size_t cells = (size_t)a->ndev * (size_t)a->ndev;
    if (a->total != b->total || a->messages != b->messages || a->reached != b->reached ||
        a->nlevels != b->nlevels || a->levels != b->levels ||
        memcmp(a->phase, b->phase, sizeof a->phase) != 0 ||
        memcmp(a->phase_msg, b->phase_msg, sizeof a->phase_msg) != 0 ||
        memcmp(a->link, b->link, cells * 8) != 0 ||
        memcmp(a->link_msg, b->link_msg, cells * 8) != 0)
        return 0;
    for (int l = 0; l < a->nlevels; l++) {
        const boxbfs_level_report_t *x = &a->lv[l], *y = &b->lv[l];
        if (x->level != y->level || x->frontier != y->frontier ||
            x->sent_vertices != y->sent_vertices || x->bytes != y->bytes ||
            x->messages != y->messages || x->bitmap_messages != y->bitmap_messages ||
            x->direction != y->direction || x->frontier_arcs != y->frontier_arcs ||
            x->device_loop != y->device_loop ||
            x->unexplored_arcs != y->unexplored_arcs)
            return 0;
    }
    return 1;
}

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

/* The cpu backend's reports for the case's roots with these options (the
 * expand method does not change them). Returns 0 on failure, snaps freed. */
static int cpu_reports(const case_t *c, const boxbfs_engine_options_t *opts, snap_t *snaps)
{
    boxbfs_engine_options_t o = *opts;
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int taken = 0;
    o.backend = BOXBFS_BACKEND_CPU;
    o.device_ids = NULL;
    /* NCCL moves the same messages as the left-right schedule: same counts */
    if (o.exchange == BOXBFS_EXCHANGE_NCCL) o.exchange = BOXBFS_EXCHANGE_PEER;
    CHECK_OK(boxbfs_engine_create(c->g, &o, &e));
    for (; e && taken < NROOTS; taken++) {
        boxbfs_status_t st = boxbfs_engine_run(e, c->roots[taken], NULL, NULL, &r);
        CHECK_OK(st);
        if (st != BOXBFS_OK || !snap_take(&snaps[taken], r, o.devices)) break;
    }
    boxbfs_engine_free(e);
    if (taken == NROOTS) return 1;
    while (taken > 0) snap_free(&snaps[--taken]);
    return 0;
}

/* Run the case's roots on the cuda backend; check trees and levels against
 * the reference and traffic against the cpu backend's reports. */
static void check_gpu(const case_t *c, const boxbfs_engine_options_t *o, const snap_t *cpu)
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
        snap_t gs;
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
        CHECK(snap_take(&gs, r, o->devices));
        if (gs.link == NULL) continue;
        if (!snap_equal(&cpu[i], &gs)) {
            fprintf(stderr,
                    "%s %s root %lld: traffic differs from the cpu backend "
                    "(bytes %lld vs %lld, levels %d vs %d)\n",
                    boxbfs_graph_name(c->g), describe(o), (long long)root, (long long)gs.total,
                    (long long)cpu[i].total, gs.nlevels, cpu[i].nlevels);
            check_failures++;
        }
        snap_free(&gs);
    }
    boxbfs_engine_free(e);
    free(parent);
    free(level);
}

/* Every expand method against one set of cpu reports (the default K = 8),
 * and every K on the binsearch and merge-path expands; with one_expand the
 * options' own expand only. */
static void compare_expands(const case_t *c, boxbfs_engine_options_t *o, int one_expand)
{
    static const boxbfs_expand_t expands[] = {BOXBFS_EXPAND_BINSEARCH, BOXBFS_EXPAND_MERGEPATH,
                                              BOXBFS_EXPAND_AUTO};
    static const int ks[] = {1, 2, 4, 16};
    snap_t cpu[NROOTS];
    if (!cpu_reports(c, o, cpu)) return;
    if (one_expand) {
        check_gpu(c, o, cpu);
        for (int i = 0; i < NROOTS; i++) snap_free(&cpu[i]);
        return;
    }
    for (int x = 0; x < 3; x++) {
        o->expand = expands[x];
        check_gpu(c, o, cpu);
    }
    for (int x = 0; x < 2; x++)
        for (int i = 0; i < 4; i++) {
            o->expand = expands[x];
            o->expand_edges_per_thread = ks[i];
            check_gpu(c, o, cpu);
        }
    o->expand_edges_per_thread = 8;
    for (int i = 0; i < NROOTS; i++) snap_free(&cpu[i]);
}

static void compare(const case_t *c, boxbfs_engine_options_t *o) { compare_expands(c, o, 0); }

/* Every contraction x wire x visited layout: direction auto with every
 * expand, top-down and bottom-up with the default one. */
static void sweep(const case_t *c, int ndev)
{
    boxbfs_engine_options_t o;
    for (int ct = 0; ct < 3; ct++)
        for (int w = 0; w < 3; w++)
            for (int v = 0; v < 2; v++)
                for (int dir = 0; dir < 3; dir++) {
                    boxbfs_engine_options_init(&o);
                    o.backend = BOXBFS_BACKEND_CUDA;
                    o.devices = ndev;
                    o.contract = (boxbfs_contract_t)ct;
                    o.wire = (boxbfs_wire_t)w;
                    o.visited = (boxbfs_visited_t)v;
                    o.direction = (boxbfs_search_direction_t)dir;
                    compare_expands(c, &o, dir != BOXBFS_SEARCH_AUTO);
                }
#ifdef BB_HAVE_NCCL
    for (int ct = 0; ct < 3; ct++)
        for (int w = 0; w < 3; w++) {
            boxbfs_engine_options_init(&o);
            o.backend = BOXBFS_BACKEND_CUDA;
            o.devices = ndev;
            o.exchange = BOXBFS_EXCHANGE_NCCL;
            o.contract = (boxbfs_contract_t)ct;
            o.wire = (boxbfs_wire_t)w;
            o.visited = (boxbfs_visited_t)((ct + w) % 2);
            compare(c, &o);
        }
#endif
    if (ndev > 1) {   /* staged through pinned host memory: copies into another device */
        boxbfs_engine_options_init(&o);
        o.backend = BOXBFS_BACKEND_CUDA;
        o.devices = ndev;
        o.exchange = BOXBFS_EXCHANGE_HOST;
        o.wire = BOXBFS_WIRE_AUTO;
        compare(c, &o);
        o.contract = BOXBFS_CONTRACT_ATOMIC;
        o.visited = BOXBFS_VISITED_BIT;
        compare(c, &o);
    }
}

/* Three engine devices on GPU 0 (peer copies become copies within it):
 * every contraction x wire list and auto x parents kept and recomputed, auto
 * and top-down (README "Memory plan": the atomic method's bitmap outbox, the
 * recomputed parents, the parent gather's rounds) against the cpu backend. */
static void logical(const case_t *c)
{
    static const int gpu0[3] = {0, 0, 0};
    boxbfs_engine_options_t o;
    for (int ct = 0; ct < 3; ct++)
        for (int w = 0; w < 3; w += 2)
            for (int par = 1; par <= 2; par++)
                for (int dir = 0; dir < 2; dir++) {
                    boxbfs_engine_options_init(&o);
                    o.backend = BOXBFS_BACKEND_CUDA;
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

int main(void)
{
    int available = boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
    boxbfs_graph_t kron = NULL, dkron = NULL, hand;
    boxbfs_load_options_t directed = {BOXBFS_DIRECTION_DIRECTED, 0, 0};
    case_t cases[3];
    int64_t roots[NROOTS], droots[NROOTS], hand_roots[NROOTS] = {0, 6, 21};
    if (available == 0) SKIP("no GPU (or the cuda backend is not built in)");
    CHECK_OK(boxbfs_graph_load("kron:14", NULL, &kron));
    CHECK_OK(boxbfs_graph_load("kron:12", &directed, &dkron));   /* in-arcs for bottom-up */
    hand = hand_graph();
    CHECK(kron != NULL && dkron != NULL && hand != NULL);
    if (!kron || !dkron || !hand) {
        boxbfs_graph_free(kron);
        boxbfs_graph_free(dkron);
        boxbfs_graph_free(hand);
        CHECK_DONE();
    }
    pick_roots(kron, roots);
    pick_roots(dkron, droots);
    CHECK(case_init(&cases[0], kron, roots));
    CHECK(case_init(&cases[1], hand, hand_roots));
    CHECK(case_init(&cases[2], dkron, droots));
    for (int ndev = 1; ndev <= available && check_failures == 0; ndev++) {
        fprintf(stderr, "%d GPU%s\n", ndev, ndev == 1 ? "" : "s");
        for (int i = 0; i < 3; i++) sweep(&cases[i], ndev);
    }
    fprintf(stderr, "3 engine devices on GPU 0\n");
    for (int i = 0; i < 3 && check_failures == 0; i++) logical(&cases[i]);
    errors(available);
    for (int i = 0; i < 3; i++) case_free(&cases[i]);
    CHECK_DONE();
}
