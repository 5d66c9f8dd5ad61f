/* Unit tests of the graph core: edge lists, the CSR builder (both directions,
 * self-loop and duplicate counting, sorted rows, edge credits, bad ids, thread
 * count independence), id mapping, relabeling by degree, and boxbfs_graph_stats on
 * hand graphs. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "graph/graph.h"

#define COUNT(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

static int row_is(boxbfs_graph_t g, int64_t v, const int64_t *want, int64_t len)
{
    const int64_t *off = boxbfs_graph_offsets(g), *col = boxbfs_graph_columns(g);
    if (off[v + 1] - off[v] != len) return 0;
    return len == 0 || memcmp(col + off[v], want, (size_t)len * sizeof *want) == 0;
}

static int64_t credit_sum(boxbfs_graph_t g)
{
    int64_t s = 0;
    for (int64_t v = 0; v < g->n; v++) s += g->edge_credit[v];
    return s;
}

static void test_edges(void)
{
    bb_edges_t e;
    CHECK_OK(bb_edges_init(&e, 0));
    for (int64_t i = 0; i < 1000; i++) CHECK_OK(bb_edges_push(&e, i, 2 * i));
    CHECK(e.count == 1000 && e.capacity >= 1000);
    CHECK(e.src[999] == 999 && e.dst[999] == 1998 && e.src[0] == 0);
    bb_edges_free(&e);
    CHECK(e.src == NULL && e.count == 0);
    bb_edges_free(&e);   /* twice is harmless */
    CHECK(bb_edges_init(&e, -1) == BOXBFS_ERR_INVALID_ARG);
}

/* 0-1 (twice, once reversed), 1-2, 2-0, self-loop 3-3; vertex 4 untouched. */
static const int64_t hand_src[] = {0, 1, 2, 3, 0, 1};
static const int64_t hand_dst[] = {1, 2, 0, 3, 1, 0};

static void test_undirected(void)
{
    boxbfs_graph_t g = NULL;
    const int64_t r0[] = {1, 2}, r1[] = {0, 2}, r2[] = {0, 1};
    CHECK_OK(boxbfs_graph_from_edges(5, COUNT(hand_src), hand_src, hand_dst, 0, &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_vertices(g) == 5);
    CHECK(boxbfs_graph_input_edges(g) == 6);
    CHECK(boxbfs_graph_arcs(g) == 6);
    CHECK(!boxbfs_graph_is_directed(g));
    CHECK(row_is(g, 0, r0, 2) && row_is(g, 1, r1, 2) && row_is(g, 2, r2, 2));
    CHECK(row_is(g, 3, NULL, 0) && row_is(g, 4, NULL, 0));
    CHECK(boxbfs_graph_offsets(g)[5] == 6);
    CHECK(g->self_loops == 1);
    /* 5 non-loop input edges -> 10 arcs, 6 kept */
    CHECK(g->duplicate_arcs == 4);
    CHECK(g->edge_credit[0] == 2 && g->edge_credit[1] == 2 && g->edge_credit[2] == 1 &&
          g->edge_credit[3] == 1 && g->edge_credit[4] == 0);
    CHECK(credit_sum(g) == boxbfs_graph_input_edges(g));
    CHECK(strcmp(boxbfs_graph_name(g), "edges") == 0);
    boxbfs_graph_free(g);
}

static void test_directed(void)
{
    boxbfs_graph_t g = NULL;
    const int64_t r0[] = {1}, r1[] = {0, 2}, r2[] = {0};
    CHECK_OK(boxbfs_graph_from_edges(5, COUNT(hand_src), hand_src, hand_dst, 1, &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_is_directed(g));
    CHECK(boxbfs_graph_arcs(g) == 4);
    CHECK(row_is(g, 0, r0, 1) && row_is(g, 1, r1, 2) && row_is(g, 2, r2, 1));
    CHECK(row_is(g, 3, NULL, 0) && row_is(g, 4, NULL, 0));
    CHECK(g->self_loops == 1 && g->duplicate_arcs == 1);
    CHECK(credit_sum(g) == 6);
    boxbfs_graph_free(g);
}

static int cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Random multigraph large enough for the threaded path (m + n >= 65536):
 * compare with a reference built by sorting the normalized pairs, and the
 * 1-thread CSR with the 3-thread one. */
static void test_random(int directed)
{
    const int64_t n = 3000, m = 120000;
    int64_t *src = malloc((size_t)m * sizeof *src), *dst = malloc((size_t)m * sizeof *dst);
    int64_t *pairs = malloc((size_t)m * 2 * sizeof *pairs);
    boxbfs_graph_t g[2] = {NULL, NULL};
    uint64_t x = 88172645463325252u;
    int64_t unique = 0, loops = 0, np = 0;
    if (!src || !dst || !pairs) { CHECK(!"out of memory"); goto out; }
    for (int64_t k = 0; k < m; k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        src[k] = (int64_t)(x % (uint64_t)n);
        /* skewed targets for duplicates and a few heavy rows */
        dst[k] = (k % 5 == 0) ? (int64_t)((x >> 32) % 20) : (int64_t)((x >> 20) % (uint64_t)n);
        if (k % 997 == 0) dst[k] = src[k];
    }
    for (int64_t k = 0; k < m; k++) {
        int64_t u = src[k], v = dst[k];
        if (u == v) { loops++; continue; }
        if (!directed && u > v) { int64_t t = u; u = v; v = t; }
        pairs[2 * np] = u;
        pairs[2 * np + 1] = v;
        np++;
    }
    qsort(pairs, (size_t)np, 2 * sizeof *pairs, cmp_pair);
    for (int64_t i = 0; i < np; i++)
        if (i == 0 || cmp_pair(pairs + 2 * i, pairs + 2 * (i - 1)) != 0) unique++;

    for (int t = 0; t < 2; t++) {
        bb_edges_t e;
        CHECK_OK(bb_edges_init(&e, m));
        if (e.src == NULL) goto out;
        memcpy(e.src, src, (size_t)m * sizeof *src);
        memcpy(e.dst, dst, (size_t)m * sizeof *dst);
        e.n = n;
        e.count = m;
        CHECK_OK(bb_graph_build(&e, directed, t == 0 ? 1 : 3, NULL, 0, "random", &g[t]));
        CHECK(e.src == NULL);   /* consumed */
        if (g[t] == NULL) goto out;
    }
    CHECK(g[0]->arcs == (directed ? unique : 2 * unique));
    CHECK(g[0]->self_loops == loops);
    CHECK(g[0]->duplicate_arcs == (directed ? 1 : 2) * (m - loops) - g[0]->arcs);
    CHECK(credit_sum(g[0]) == m);
    CHECK(g[0]->offsets[n] == g[0]->arcs);
    for (int64_t u = 0; u < n; u++) {
        for (int64_t k = g[0]->offsets[u]; k < g[0]->offsets[u + 1]; k++) {
            int64_t v = g[0]->columns[k];
            CHECK(v >= 0 && v < n && v != u);
            if (k > g[0]->offsets[u]) CHECK(g[0]->columns[k - 1] < v);   /* strictly ascending */
            if (!directed) {   /* symmetric: v -> u is stored too */
                int found = 0;
                for (int64_t j = g[0]->offsets[v]; j < g[0]->offsets[v + 1] && !found; j++)
                    found = g[0]->columns[j] == u;
                CHECK(found);
            }
        }
    }
    /* the same CSR, credits and counts for any thread count */
    CHECK(g[1]->arcs == g[0]->arcs && g[1]->duplicate_arcs == g[0]->duplicate_arcs &&
          g[1]->self_loops == g[0]->self_loops);
    CHECK(memcmp(g[0]->offsets, g[1]->offsets, (size_t)(n + 1) * sizeof(int64_t)) == 0);
    CHECK(memcmp(g[0]->columns, g[1]->columns, (size_t)g[0]->arcs * sizeof(int64_t)) == 0);
    CHECK(memcmp(g[0]->edge_credit, g[1]->edge_credit, (size_t)n * sizeof(int64_t)) == 0);
out:
    boxbfs_graph_free(g[0]);
    boxbfs_graph_free(g[1]);
    free(src);
    free(dst);
    free(pairs);
}

static void test_bad_input(void)
{
    boxbfs_graph_t g = NULL;
    const int64_t s[] = {0, 1, 2}, d[] = {1, 7, 3}, neg[] = {-1, 0, 0};
    CHECK(boxbfs_graph_from_edges(4, 3, s, d, 0, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strcmp(boxbfs_last_error(), "edge 1: vertex 7 out of range [0, 4)") == 0);
    CHECK(g == NULL);
    CHECK(boxbfs_graph_from_edges(4, 3, neg, d, 1, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strcmp(boxbfs_last_error(), "edge 0: vertex -1 out of range [0, 4)") == 0);
    CHECK(boxbfs_graph_from_edges(0, 3, s, d, 0, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_from_edges(-3, 0, NULL, NULL, 0, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_from_edges(4, -1, s, d, 0, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_from_edges(4, 2, NULL, d, 0, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(g == NULL);

    /* threaded: the earliest bad edge is named, whichever thread saw it */
    {
        bb_edges_t e;
        const int64_t m = 100000;
        CHECK_OK(bb_edges_init(&e, m));
        if (e.src != NULL) {
            for (int64_t k = 0; k < m; k++) { e.src[k] = k % 50; e.dst[k] = (k + 1) % 50; }
            e.src[90000] = 50;
            e.dst[70001] = 1000;
            e.n = 50;
            e.count = m;
            CHECK(bb_graph_build(&e, 0, 4, NULL, 0, "bad", &g) == BOXBFS_ERR_INVALID_ARG);
            CHECK(strcmp(boxbfs_last_error(), "edge 70001: vertex 1000 out of range [0, 50)") == 0);
            CHECK(e.src == NULL && g == NULL);   /* consumed on failure too */
        }
    }
    /* n <= 0 through the internal builder: edges and external still consumed */
    {
        bb_edges_t e;
        int64_t *ext = malloc(sizeof *ext);
        CHECK_OK(bb_edges_init(&e, 4));
        e.n = 0;
        CHECK(bb_graph_build(&e, 0, 1, ext, 0, "none", &g) == BOXBFS_ERR_INVALID_ARG);
        CHECK(e.src == NULL && g == NULL);
    }
    CHECK(boxbfs_graph_load(NULL, NULL, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_load("", NULL, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_load("kron:x", NULL, &g) == BOXBFS_ERR_INVALID_ARG);
    CHECK(g == NULL);
    boxbfs_graph_free(NULL);
}

static void test_empty(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_graph_stats_t s;
    CHECK_OK(boxbfs_graph_from_edges(3, 0, NULL, NULL, 0, &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_vertices(g) == 3 && boxbfs_graph_arcs(g) == 0);
    CHECK(boxbfs_graph_input_edges(g) == 0);
    for (int v = 0; v <= 3; v++) CHECK(boxbfs_graph_offsets(g)[v] == 0);
    CHECK_OK(boxbfs_graph_stats(g, &s));
    CHECK(s.components == 3 && s.isolated == 3 && s.largest_component == 1);
    CHECK(s.degree_min == 0 && s.degree_max == 0 && s.degree_mean == 0.0);
    boxbfs_graph_free(g);
}

static void test_id_mapping(void)
{
    boxbfs_graph_t g = NULL;
    bb_edges_t e;
    int64_t *ext = malloc(3 * sizeof *ext), id = -5;
    if (ext == NULL) { CHECK(!"out of memory"); return; }
    ext[0] = 10; ext[1] = 20; ext[2] = 35;
    CHECK_OK(bb_edges_init(&e, 2));
    CHECK_OK(bb_edges_push(&e, 0, 2));
    e.n = 3;
    CHECK_OK(bb_graph_build(&e, 0, 0, ext, 0, "snap-like", &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_external_id(g, 1) == 20 && boxbfs_graph_external_id(g, 2) == 35);
    CHECK(boxbfs_graph_external_id(g, 3) == -1);
    CHECK_OK(boxbfs_graph_internal_id(g, 35, &id));
    CHECK(id == 2);
    CHECK_OK(boxbfs_graph_internal_id(g, 10, &id));
    CHECK(id == 0);
    id = -5;
    CHECK(boxbfs_graph_internal_id(g, 21, &id) == BOXBFS_ERR_INVALID_ARG && id == -5);
    CHECK(boxbfs_graph_internal_id(g, 5, &id) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_internal_id(g, 36, &id) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strcmp(boxbfs_graph_name(g), "snap-like") == 0);
    boxbfs_graph_free(g);

    /* Matrix Market style: 1-based */
    g = NULL;
    CHECK_OK(bb_edges_init(&e, 1));
    CHECK_OK(bb_edges_push(&e, 0, 1));
    e.n = 4;
    CHECK_OK(bb_graph_build(&e, 1, 1, NULL, 1, "mtx-like", &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_external_id(g, 0) == 1 && boxbfs_graph_external_id(g, 3) == 4);
    CHECK_OK(boxbfs_graph_internal_id(g, 4, &id));
    CHECK(id == 3);
    CHECK(boxbfs_graph_internal_id(g, 0, &id) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_internal_id(g, 5, &id) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_internal_id(g, INT64_MIN, &id) == BOXBFS_ERR_INVALID_ARG);
    boxbfs_graph_free(g);
}

static void test_stats(void)
{
    /* components {0,1,2}, {3,4}, {5} (self-loop only), {6} */
    const int64_t s[] = {0, 1, 3, 5}, d[] = {1, 2, 4, 5};
    const int64_t ds[] = {0, 2}, dd[] = {1, 1};
    boxbfs_graph_t g = NULL;
    boxbfs_graph_stats_t st;
    double mean = 6.0 / 7.0, var = 0.0;
    const int deg[] = {1, 2, 1, 1, 1, 0, 0};
    CHECK_OK(boxbfs_graph_from_edges(7, 4, s, d, 0, &g));
    if (g == NULL) return;
    CHECK_OK(boxbfs_graph_stats(g, &st));
    for (int v = 0; v < 7; v++) var += (deg[v] - mean) * (deg[v] - mean);
    var /= 7.0;
    CHECK(st.vertices == 7 && st.arcs == 6 && st.input_edges == 4);
    CHECK(st.self_loops == 1 && st.duplicate_arcs == 0);
    CHECK(st.components == 4 && st.largest_component == 3 && st.isolated == 2);
    CHECK(st.degree_min == 0 && st.degree_max == 2);
    CHECK(st.degree_mean > mean - 1e-12 && st.degree_mean < mean + 1e-12);
    CHECK(st.degree_stddev * st.degree_stddev > var - 1e-9 &&
          st.degree_stddev * st.degree_stddev < var + 1e-9);
    boxbfs_graph_free(g);

    /* directed 0 -> 1 <- 2: weakly one component; 1 has out-degree 0 but is
     * not isolated; 3 is */
    g = NULL;
    CHECK_OK(boxbfs_graph_from_edges(4, 2, ds, dd, 1, &g));
    if (g == NULL) return;
    CHECK_OK(boxbfs_graph_stats(g, &st));
    CHECK(st.components == 2 && st.largest_component == 3 && st.isolated == 1);
    CHECK(st.degree_min == 0 && st.degree_max == 1 && st.arcs == 2);
    boxbfs_graph_free(g);
}

static void test_load_kron(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_load_options_t opts = {BOXBFS_DIRECTION_DEFAULT, 2, 0};
    CHECK_OK(boxbfs_graph_load("kron:4", &opts, &g));
    if (g == NULL) return;
    CHECK(boxbfs_graph_vertices(g) == 16 && boxbfs_graph_input_edges(g) == 256);
    CHECK(!boxbfs_graph_is_directed(g));
    CHECK(strcmp(boxbfs_graph_name(g), "kron:4:16:1") == 0);
    CHECK(boxbfs_graph_external_id(g, 5) == 5);
    CHECK(credit_sum(g) == 256);
    boxbfs_graph_free(g);
}

/* Numbered by degree: a star with a tail, 6 vertices (external ids 1..6 of a
 * Matrix Market-like base), degrees 0:1 1:1 2:4 3:2 4:1 5:1 (edges 0-2 1-2
 * 2-3 3-4 2-5). Order by degree, ties by id: 2 3 0 1 4 5. */
static void test_relabel(void)
{
    int64_t src[] = {0, 1, 2, 3, 2}, dst[] = {2, 2, 3, 4, 5}, want[] = {2, 3, 0, 1, 4, 5};
    int64_t id, striped[] = {2, 0, 4, 3, 1, 5};   /* 2 stripes: ranks 0 2 4 | 1 3 5 */
    int64_t again[] = {2, 3, 0, 4, 1, 5};         /* s by degree: ties in s's order */
    boxbfs_graph_t g = NULL, r = NULL, rr = NULL, s = NULL, rev = NULL;
    CHECK_OK(boxbfs_graph_from_edges(6, 5, src, dst, 0, &g));
    if (g == NULL) return;
    g->id_base = 1;
    CHECK_OK(boxbfs_graph_relabel_by_degree(g, 1, &r));
    CHECK_OK(boxbfs_graph_relabel_by_degree(g, 2, &s));
    if (r == NULL || s == NULL) goto out;
    for (int64_t v = 0; v < 6; v++) {
        const int64_t *o = boxbfs_graph_offsets(r), *go = boxbfs_graph_offsets(g);
        CHECK(boxbfs_graph_external_id(r, v) == want[v] + 1);   /* the input's ids */
        CHECK(boxbfs_graph_external_id(s, v) == striped[v] + 1);
        CHECK(o[v + 1] - o[v] == go[want[v] + 1] - go[want[v]]);
        CHECK(r->edge_credit[v] == g->edge_credit[want[v]]);
        CHECK_OK(boxbfs_graph_internal_id(r, want[v] + 1, &id));
        CHECK(id == v);
    }
    {   /* rows renamed and ascending: 2 (now 0) has 0 1 4 5 -> 2 3 1 5 -> 1 2 3 5 */
        int64_t r0[] = {1, 2, 3, 5}, r1[] = {0, 4};   /* 3 (now 1): 2 4 -> 0 4 */
        CHECK(row_is(r, 0, r0, 4) && row_is(r, 1, r1, 2));
    }
    CHECK(boxbfs_graph_arcs(r) == boxbfs_graph_arcs(g) && credit_sum(r) == credit_sum(g));
    /* again, and turned around: still the input's ids */
    CHECK_OK(boxbfs_graph_relabel_by_degree(s, 1, &rr));
    CHECK_OK(boxbfs_graph_reverse(r, &rev));
    for (int64_t v = 0; rr && rev && v < 6; v++) {
        CHECK(boxbfs_graph_external_id(rr, v) == again[v] + 1);
        CHECK(boxbfs_graph_external_id(rev, v) == want[v] + 1);
    }
    CHECK_FAILS(boxbfs_graph_save(r, "relabeled.bbcsr"), BOXBFS_ERR_UNSUPPORTED);
    CHECK_FAILS(boxbfs_graph_internal_id(r, 7, &id), BOXBFS_ERR_INVALID_ARG);
out:
    boxbfs_graph_free(rev);
    boxbfs_graph_free(rr);
    boxbfs_graph_free(s);
    boxbfs_graph_free(r);
    boxbfs_graph_free(g);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* bb_sort_row against qsort on both sides of its radix threshold: random
 * ids below 2^k (k = 1, 22, 40: many equal, a Kronecker row's, wide),
 * all equal, descending, and rows with a negative entry (introsort). */
static void test_sort_row(void)
{
    static const int64_t lens[] = {0, 1, 2, 23, 24, 63, 64, 65, 1000, 4096, 100000};
    static const int bits[] = {1, 22, 40};
    uint64_t x = 88172645463325252ull;
    bb_sort_scratch_t scratch = {NULL, 0};   /* one for every row, as a builder's thread */
    for (int li = 0; li < COUNT(lens); li++)
        for (int kind = 0; kind < 6; kind++) {
            int64_t len = lens[li];
            int64_t *a = malloc((size_t)(len + 1) * 8), *b = malloc((size_t)(len + 1) * 8);
            CHECK(a && b);
            if (!a || !b) { free(a); free(b); bb_sort_scratch_free(&scratch); return; }
            for (int64_t i = 0; i < len; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                a[i] = kind < 3    ? (int64_t)(x & (((uint64_t)1 << bits[kind]) - 1))
                       : kind == 3 ? 7
                       : kind == 4 ? len - i
                                   : (int64_t)(x % 1000) - (i == len / 2 ? 5000 : 0);
            }
            memcpy(b, a, (size_t)len * 8);
            bb_sort_row(a, len, &scratch);
            qsort(b, (size_t)len, 8, cmp_i64);
            CHECK(len == 0 || memcmp(a, b, (size_t)len * 8) == 0);
            free(a);
            free(b);
        }
    bb_sort_scratch_free(&scratch);
}

int main(void)
{
    test_edges();
    test_sort_row();
    test_undirected();
    test_directed();
    test_random(0);
    test_random(1);
    test_bad_input();
    test_empty();
    test_id_mapping();
    test_relabel();
    test_stats();
    test_load_kron();
    CHECK_DONE();
}
