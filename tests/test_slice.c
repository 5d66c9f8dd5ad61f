/* Graph slices without MPI: the row-range builder (bb_rows_build,
 * bb_kron_rows) gives exactly the whole graph's rows for any range (empty
 * ones, P not dividing n, directed and undirected); a .bbcsr file read by
 * range equals the whole file's rows; the validator on hand-made slices of a
 * partition passes a good tree with counts summing to the whole graph's and
 * fails a broken one on the slice that holds the broken rule; whole-graph
 * operations and the thread team refuse a slice with a clear message. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bfs/bfs.h"
#include "boxbfs.h"
#include "check.h"
#include "engine/partition.h"
#include "graph/graph.h"
#include "io/io.h"

#define SCALE 10
#define EDGEFACTOR 16
#define SEED 7

static boxbfs_graph_t whole_kron(int directed)
{
    bb_edges_t edges;
    boxbfs_graph_t g = NULL;
    CHECK_OK(bb_kron_generate(SCALE, EDGEFACTOR, SEED, 2, &edges));
    CHECK_OK(bb_graph_build(&edges, directed, 2, NULL, 0, "whole", &g));
    return g;
}

/* rows equal the rows [lo, hi) of the whole graph g */
static int same_rows(boxbfs_graph_t g, const bb_rows_t *r)
{
    int64_t lo = r->lo, hi = r->hi, base = g->offsets[lo];
    for (int64_t v = lo; v <= hi; v++)
        if (r->offsets[v - lo] != g->offsets[v] - base) return 0;
    for (int64_t v = lo; v < hi; v++)
        if (r->edge_credit[v - lo] != g->edge_credit[v]) return 0;
    return memcmp(r->columns, g->columns + base,
                  (size_t)(g->offsets[hi] - base) * sizeof(int64_t)) == 0;
}

static void test_kron_range(void)
{
    bb_edges_t all, part;
    int64_t m = (int64_t)EDGEFACTOR << SCALE;
    const int64_t firsts[] = {0, 1, 1000, m - 5}, counts[] = {m, 17, 4096, 5};
    CHECK_OK(bb_kron_generate(SCALE, EDGEFACTOR, SEED, 1, &all));
    CHECK_OK(bb_edges_init(&part, m));
    for (int i = 0; i < 4; i++) {
        CHECK_OK(bb_kron_generate_range(SCALE, EDGEFACTOR, SEED, 3, firsts[i], counts[i], &part));
        CHECK(part.count == counts[i] && part.n == (int64_t)1 << SCALE);
        CHECK(memcmp(part.src, all.src + firsts[i], (size_t)counts[i] * 8) == 0);
        CHECK(memcmp(part.dst, all.dst + firsts[i], (size_t)counts[i] * 8) == 0);
    }
    CHECK(bb_kron_generate_range(SCALE, EDGEFACTOR, SEED, 1, m - 4, 5, &part) ==
          BOXBFS_ERR_INVALID_ARG);
    bb_edges_free(&part);
    bb_edges_free(&all);
}

/* Generated rows of several ranges and of every part of equal-vertex
 * partitions (P not dividing n) against the whole graph. */
static void test_kron_rows(int directed)
{
    boxbfs_graph_t g = whole_kron(directed);
    const int64_t n = (int64_t)1 << SCALE;
    const int64_t ranges[][2] = {{0, 0}, {n, n}, {5, 5}, {0, n}, {1000, n}, {3, 700}, {511, 512}};
    const int parts[] = {1, 2, 3, 5, 7};
    if (g == NULL) return;
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        bb_rows_t r;
        CHECK_OK(bb_kron_rows(SCALE, EDGEFACTOR, SEED, directed, 2, ranges[i][0], ranges[i][1], &r));
        CHECK(r.lo == ranges[i][0] && r.hi == ranges[i][1] && same_rows(g, &r));
        bb_rows_free(&r);
    }
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        int64_t loops = 0, dups = 0;
        for (int p = 0; p < parts[k]; p++) {
            bb_rows_t r;
            int64_t lo = n * p / parts[k], hi = n * (p + 1) / parts[k];
            CHECK_OK(bb_kron_rows(SCALE, EDGEFACTOR, SEED, directed, 1, lo, hi, &r));
            CHECK(same_rows(g, &r));
            loops += r.self_loops;
            dups += r.duplicate_arcs;
            bb_rows_free(&r);
        }
        /* what the parts dropped adds up to what the whole build dropped */
        CHECK(loops == g->self_loops && dups == g->duplicate_arcs);
    }
    {
        bb_rows_t r;
        CHECK(bb_kron_rows(SCALE, EDGEFACTOR, SEED, directed, 1, 5, 4, &r) == BOXBFS_ERR_INVALID_ARG);
        CHECK(bb_kron_rows(SCALE, EDGEFACTOR, SEED, directed, 1, 0, n + 1, &r) ==
              BOXBFS_ERR_INVALID_ARG);
    }
    boxbfs_graph_free(g);
}

/* bb_rows_build on a hand edge list: loops and duplicates per range. */
static void test_rows_build(void)
{
    /* 0-1 twice, 1-2, self-loop 3-3, 2-4; 5 isolated */
    static const int64_t src[] = {0, 1, 1, 3, 2}, dst[] = {1, 0, 2, 3, 4};
    bb_edges_t e;
    bb_rows_t r;
    CHECK_OK(bb_edges_init(&e, 5));
    memcpy(e.src, src, sizeof src);
    memcpy(e.dst, dst, sizeof dst);
    e.n = 6;
    e.count = 5;
    CHECK_OK(bb_rows_build(&e, 1, 4, 0, 1, &r));   /* rows 1, 2, 3 */
    CHECK(e.src == NULL);                           /* consumed */
    CHECK(r.offsets[0] == 0 && r.offsets[1] == 2 && r.offsets[2] == 4 && r.offsets[3] == 4);
    CHECK(r.columns[0] == 0 && r.columns[1] == 2 && r.columns[2] == 1 && r.columns[3] == 4);
    CHECK(r.edge_credit[0] == 2 && r.edge_credit[1] == 1 && r.edge_credit[2] == 1);
    CHECK(r.self_loops == 1 && r.duplicate_arcs == 1);   /* row 1 holds 0 twice */
    bb_rows_free(&r);
    CHECK_OK(bb_edges_init(&e, 1));
    CHECK_OK(bb_edges_push(&e, 0, 9));
    e.n = 6;
    CHECK(bb_rows_build(&e, 4, 6, 0, 1, &r) == BOXBFS_ERR_INVALID_ARG);   /* ids are checked all */
    CHECK(strstr(boxbfs_last_error(), "vertex 9 out of range") != NULL);
}

/* A hand-made slice of g: rows [lo, hi), everything else copied whole. */
static boxbfs_graph_t make_slice(boxbfs_graph_t g, int64_t lo, int64_t hi)
{
    boxbfs_graph_t s = calloc(1, sizeof *s);
    int64_t n = g->n, base = g->offsets[lo], arcs = g->offsets[hi] - base;
    *s = *g;
    s->offsets = malloc((size_t)(n + 1) * 8);
    s->edge_credit = malloc((size_t)n * 8);
    s->columns = malloc((size_t)(arcs ? arcs : 1) * 8);
    memcpy(s->offsets, g->offsets, (size_t)(n + 1) * 8);
    memcpy(s->edge_credit, g->edge_credit, (size_t)n * 8);
    memcpy(s->columns, g->columns + base, (size_t)arcs * 8);
    s->row_lo = lo;
    s->row_hi = hi;
    s->columns_base = base;
    return s;
}

#define NPARTS 3

typedef struct {
    boxbfs_graph_t g, slice[NPARTS];
    bb_partition_t part;
    int64_t root, *parent;
    int32_t *level;
} fixture_t;

static int owner(const fixture_t *f, int64_t v) { return bb_partition_owner(&f->part, (uint64_t)v); }

/* Validate the tree on every slice: 1 << s set in the result when slice s fails. */
static unsigned failing(fixture_t *f, int with_levels, char message[NPARTS][256])
{
    unsigned bad = 0;
    for (int s = 0; s < NPARTS; s++) {
        boxbfs_status_t st = boxbfs_validate(f->slice[s], f->root, f->parent,
                                             with_levels ? f->level : NULL, NULL);
        snprintf(message[s], 256, "%s", st == BOXBFS_OK ? "" : boxbfs_last_error());
        if (st != BOXBFS_OK) bad |= 1u << s;
        CHECK(st == BOXBFS_OK || st == BOXBFS_ERR_VALIDATION);
    }
    return bad;
}

/* A reached vertex v and a vertex p one level up, in another part, with no
 * arc p -> v: making p the parent of v breaks R2 only. */
static int find_bad_parent(const fixture_t *f, int64_t *v_p, int64_t *p_p)
{
    const boxbfs_graph_t g = f->g;
    for (int64_t v = 0; v < g->n; v++) {
        if (v == f->root || f->level[v] <= 0) continue;
        for (int64_t p = 0; p < g->n; p++) {
            int arc = 0;
            if (f->level[p] != f->level[v] - 1 || owner(f, p) == owner(f, v)) continue;
            for (int64_t k = g->offsets[p]; k < g->offsets[p + 1]; k++) arc |= g->columns[k] == v;
            for (int64_t k = g->offsets[v]; k < g->offsets[v + 1] && !g->directed; k++)
                arc |= g->columns[k] == p;
            if (!arc) {
                *v_p = v;
                *p_p = p;
                return 1;
            }
        }
    }
    return 0;
}

static void test_validate_slices(int directed)
{
    fixture_t f;
    boxbfs_tree_info_t whole, sum = {0, 0, 0, 0}, info;
    char msg[NPARTS][256], want[256];
    int64_t n, v, p, old;
    memset(&f, 0, sizeof f);
    f.g = whole_kron(directed);
    if (f.g == NULL) return;
    n = f.g->n;
    CHECK_OK(bb_partition_by_edges(f.g->offsets, n, NPARTS, &f.part));
    for (int s = 0; s < NPARTS; s++)
        f.slice[s] = make_slice(f.g, (int64_t)f.part.lo[s], (int64_t)f.part.lo[s + 1]);
    f.parent = malloc((size_t)n * 8);
    f.level = malloc((size_t)n * 4);
    for (f.root = 0; f.g->offsets[f.root + 1] == f.g->offsets[f.root]; f.root++) continue;
    CHECK_OK(boxbfs_bfs_reference(f.g, f.root, f.parent, f.level));
    CHECK_OK(boxbfs_validate(f.g, f.root, f.parent, f.level, &whole));

    /* a good tree passes everywhere, with or without levels; counts add up */
    CHECK(failing(&f, 1, msg) == 0 && failing(&f, 0, msg) == 0);
    for (int s = 0; s < NPARTS; s++) {
        CHECK_OK(boxbfs_validate(f.slice[s], f.root, f.parent, f.level, &info));
        sum.reached += info.reached;
        sum.input_edges += info.input_edges;
        sum.arcs += info.arcs;
        if (info.levels > sum.levels) sum.levels = info.levels;
    }
    CHECK(sum.reached == whole.reached && sum.input_edges == whole.input_edges &&
          sum.arcs == whole.arcs && sum.levels == whole.levels);

    /* a parent that is no neighbour, at the right level: only the slice
     * holding the arc's row sees it (v's own row, undirected; the parent's,
     * directed: the parent pass) */
    if (find_bad_parent(&f, &v, &p)) {
        int holder = directed ? owner(&f, p) : owner(&f, v);
        old = f.parent[v];
        f.parent[v] = p;
        snprintf(want, sizeof want, "R2: vertex %lld has parent %lld", (long long)v, (long long)p);
        CHECK(failing(&f, 1, msg) == 1u << holder);
        CHECK(strstr(msg[holder], want) != NULL);
        CHECK(boxbfs_validate(f.g, f.root, f.parent, f.level, NULL) == BOXBFS_ERR_VALIDATION);
        f.parent[v] = old;
    } else {
        CHECK(!"no vertex with a non-neighbour one level up in another part");
    }

    /* a parent out of range: its slice says R1; without levels the others'
     * walks up the tree must say so too, not read out of bounds */
    v = (int64_t)f.part.lo[NPARTS - 1];
    while (v < n && f.parent[v] < 0) v++;
    if (v < n && v != f.root) {
        old = f.parent[v];
        f.parent[v] = n + 5;
        CHECK(failing(&f, 1, msg) & (1u << (NPARTS - 1)));
        CHECK(strstr(msg[NPARTS - 1], "R1: vertex") != NULL);
        CHECK(failing(&f, 0, msg) == (1u << NPARTS) - 1);
        for (int s = 0; s < NPARTS; s++) CHECK(strstr(msg[s], "R1: vertex") != NULL);
        f.parent[v] = old;
    }

    /* the ranges checked must be held */
    CHECK(bb_validate_rows(f.slice[0], 0, n, f.root, f.parent, f.level, -1, NULL, NULL) ==
          BOXBFS_ERR_INVALID_ARG);
    CHECK(bb_validate_rows(f.g, 10, 20, f.root, f.parent, f.level, -1, NULL, &info) == BOXBFS_OK);

    for (int s = 0; s < NPARTS; s++) boxbfs_graph_free(f.slice[s]);
    bb_partition_free(&f.part);
    free(f.parent);
    free(f.level);
    boxbfs_graph_free(f.g);
}

static int same_info(const boxbfs_tree_info_t *a, const boxbfs_tree_info_t *b)
{
    return a->reached == b->reached && a->input_edges == b->input_edges && a->arcs == b->arcs &&
           a->levels == b->levels;
}

/* Everything that walks the columns of a whole graph refuses a slice. */
static void test_refusals(void)
{
    boxbfs_graph_t g = whole_kron(0), s;
    boxbfs_graph_stats_t stats;
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    int64_t n, lo, hi, *parent;
    int32_t *level;
    char path[] = "/tmp/boxbfs-slice-XXXXXX";
    int fd = mkstemp(path);
    if (g == NULL) return;
    n = g->n;
    CHECK_OK(boxbfs_graph_rows(g, &lo, &hi));
    CHECK(lo == 0 && hi == n);
    CHECK(boxbfs_graph_rows(NULL, &lo, &hi) == BOXBFS_ERR_INVALID_ARG);
    s = make_slice(g, 100, 300);
    CHECK_OK(boxbfs_graph_rows(s, &lo, &hi));
    CHECK(lo == 100 && hi == 300);
    parent = malloc((size_t)n * 8);
    level = malloc((size_t)n * 4);
    CHECK(boxbfs_bfs_reference(s, 0, parent, level) == BOXBFS_ERR_UNSUPPORTED);
    CHECK(strstr(boxbfs_last_error(), "the reference BFS needs the whole graph") != NULL);
    CHECK(strstr(boxbfs_last_error(), "rows [100, 300) of 1024") != NULL);
    CHECK(boxbfs_graph_stats(s, &stats) == BOXBFS_ERR_UNSUPPORTED);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK(boxbfs_graph_save(s, path) == BOXBFS_ERR_UNSUPPORTED);
    CHECK(strstr(boxbfs_last_error(), "needs the whole graph") != NULL);
    CHECK(bb_io_save_edgelist(s, path) == BOXBFS_ERR_UNSUPPORTED);
    unlink(path);
    boxbfs_engine_options_init(&o);
    o.devices = 2;
    CHECK(boxbfs_engine_create(s, &o, &e) == BOXBFS_ERR_INVALID_ARG && e == NULL);
    CHECK(strstr(boxbfs_last_error(), "runs with one device per MPI rank only") != NULL);
    /* the thread team's check_tree is boxbfs_validate on the whole graph */
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (e != NULL) {
        boxbfs_tree_info_t a, b;
        CHECK_OK(boxbfs_engine_run(e, 1, parent, level, NULL));
        CHECK_OK(boxbfs_engine_check_tree(e, 1, parent, level, 1, &a));
        CHECK_OK(boxbfs_validate(g, 1, parent, level, &b));
        CHECK(same_info(&a, &b));
        CHECK_OK(boxbfs_engine_check_tree(e, 1, parent, level, 0, &b));
        CHECK(same_info(&a, &b));
        parent[1] = 2;
        CHECK(boxbfs_engine_check_tree(e, 1, parent, level, 1, &a) == BOXBFS_ERR_VALIDATION);
        CHECK(strstr(boxbfs_last_error(), "R0: root 1") != NULL);
        CHECK(boxbfs_engine_check_tree(e, 1, NULL, level, 1, &a) == BOXBFS_ERR_INVALID_ARG);
        boxbfs_engine_free(e);
    }
#ifndef BB_HAVE_MPI
    {
        boxbfs_load_options_t lo_opts = {BOXBFS_DIRECTION_DEFAULT, 1, 1};
        boxbfs_graph_t x = NULL;
        CHECK(boxbfs_graph_load("kron:6", &lo_opts, &x) == BOXBFS_ERR_UNSUPPORTED && x == NULL);
        CHECK(strstr(boxbfs_last_error(), "not built with MPI") != NULL);
    }
#endif
    free(parent);
    free(level);
    boxbfs_graph_free(s);
    boxbfs_graph_free(g);
}

typedef struct {
    int64_t lo, hi;
} fixed_rows_t;

static boxbfs_status_t pick_fixed(const int64_t *offsets, int64_t n, void *arg, int64_t *lo_p,
                                  int64_t *hi_p)
{
    const fixed_rows_t *r = arg;
    (void)offsets;
    (void)n;
    *lo_p = r->lo;
    *hi_p = r->hi;
    return BOXBFS_OK;
}

/* A .bbcsr file read by range: the whole file's rows; a bad column inside
 * the range is found, one outside is not read (no payload checksum). */
static void test_binary_rows(void)
{
    boxbfs_graph_t g = whole_kron(0), s = NULL;
    char path[] = "/tmp/boxbfs-slice-XXXXXX";
    int fd = mkstemp(path);
    const int64_t ranges[][2] = {{0, 0}, {0, 1024}, {17, 18}, {300, 1024}, {1024, 1024}};
    if (g == NULL || fd < 0) {
        CHECK(!"no graph or temporary file");
        return;
    }
    CHECK_OK(boxbfs_graph_save(g, path));
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        fixed_rows_t want = {ranges[i][0], ranges[i][1]};
        bb_rows_t r;
        CHECK_OK(bb_io_load_binary_rows(path, pick_fixed, &want, &s));
        if (s == NULL) continue;
        CHECK(s->row_lo == want.lo && s->row_hi == want.hi && s->n == g->n && s->arcs == g->arcs);
        CHECK(s->columns_base == g->offsets[want.lo] && s->input_edges == g->input_edges);
        CHECK(memcmp(s->offsets, g->offsets, (size_t)(g->n + 1) * 8) == 0);
        r.lo = want.lo;
        r.hi = want.hi;
        r.offsets = malloc((size_t)(want.hi - want.lo + 1) * 8);
        for (int64_t v = want.lo; v <= want.hi; v++) r.offsets[v - want.lo] = s->offsets[v] - s->offsets[want.lo];
        r.edge_credit = s->edge_credit + want.lo;
        r.columns = s->columns;
        CHECK(same_rows(g, &r));
        free(r.offsets);
        boxbfs_graph_free(s);
        s = NULL;
    }
    {
        /* break the first column of row 500 */
        int64_t bad = 99999, at = 384 + 8 * (g->n + 1) + 8 * g->offsets[500];
        fixed_rows_t inside = {400, 600}, outside = {0, 400}, wrong = {5, 2000};
        CHECK(pwrite(fd, &bad, 8, (off_t)at) == 8);
        CHECK(bb_io_load_binary_rows(path, pick_fixed, &inside, &s) == BOXBFS_ERR_PARSE);
        CHECK(strstr(boxbfs_last_error(), "column 99999 out of range") != NULL);
        CHECK_OK(bb_io_load_binary_rows(path, pick_fixed, &outside, &s));
        boxbfs_graph_free(s);
        s = NULL;
        CHECK(bb_io_load_binary(path, &s) == BOXBFS_ERR_PARSE);   /* the whole file: checksum */
        CHECK(bb_io_load_binary_rows(path, pick_fixed, &wrong, &s) == BOXBFS_ERR_INTERNAL);
    }
    close(fd);
    unlink(path);
    boxbfs_graph_free(g);
}

int main(void)
{
    test_kron_range();
    test_rows_build();
    test_kron_rows(0);
    test_kron_rows(1);
    test_validate_slices(0);
    test_validate_slices(1);
    test_refusals();
    test_binary_rows();
    CHECK_DONE();
}
