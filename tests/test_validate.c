/* Mutation tests of the Graph500 validator: a correct tree from the reference
 * BFS on hand graphs and LCG random graphs is broken one way at a time, and
 * each break must fail with BOXBFS_ERR_VALIDATION and a message naming the
 * rule and the vertex. Also: other valid parent choices pass, a DFS tree fails
 * R4, directed rules, and the tree info (TEPS counts) on a hand graph. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

/* Mutations tried per kind and graph (first candidates from a rotating start). */
#define PER_KIND 4

typedef struct {
    boxbfs_graph_t g;
    int64_t n, root;
    const int64_t *off, *col;
    int directed;
    int64_t *parent0, *parent;   /* correct tree, mutated copy */
    int32_t *level0, *level;
    const char *name;
} fixture_t;

/* Totals over all graphs, so main() can check every kind ran somewhere. */
enum {
    K_ROOT_PARENT, K_ROOT_LEVEL, K_NOT_NEIGHBOR, K_LEVEL_HIGH, K_LEVEL_LOW, K_UNREACHED,
    K_SECOND_ROOT, K_ATTACHED, K_CYCLE, K_RANGE, K_LEVEL_UNREACHED, K_NO_LEVEL,
    K_OTHER_PARENT, K_COUNT
};
static const char *kind_names[K_COUNT] = {
    "root parent", "root level", "parent not a neighbor", "level too high",
    "level too low", "reachable vertex unreached", "second root in another component",
    "vertex of another component attached", "parent cycle", "parent out of range",
    "level on unreached vertex", "reached vertex without level", "other valid parent"};
static int kind_runs[K_COUNT];

/* n vertices, m random edges from a 64-bit LCG (Knuth's MMIX constants). */
static boxbfs_graph_t make_random(int64_t n, int64_t m, uint64_t seed, int directed)
{
    int64_t *src = malloc((size_t)m * sizeof *src), *dst = malloc((size_t)m * sizeof *dst);
    uint64_t x = seed;
    boxbfs_graph_t g = NULL;
    if (src == NULL || dst == NULL) {
        CHECK(!"out of memory");
        goto out;
    }
    for (int64_t i = 0; i < m; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        src[i] = (int64_t)((x >> 33) % (uint64_t)n);
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        dst[i] = (int64_t)((x >> 33) % (uint64_t)n);
    }
    CHECK_OK(boxbfs_graph_from_edges(n, m, src, dst, directed, &g));
out:
    free(src);
    free(dst);
    return g;
}

static int has_arc(const fixture_t *f, int64_t u, int64_t v)
{
    for (int64_t j = f->off[u]; j < f->off[u + 1]; j++)
        if (f->col[j] == v) return 1;
    return 0;
}

static int is_leaf(const fixture_t *f, int64_t v)
{
    for (int64_t w = 0; w < f->n; w++)
        if (w != v && f->parent0[w] == v) return 0;
    return 1;
}

static void reset(fixture_t *f)
{
    memcpy(f->parent, f->parent0, (size_t)f->n * sizeof *f->parent);
    memcpy(f->level, f->level0, (size_t)f->n * sizeof *f->level);
}

/* Validate the mutated tree (with levels, or levels NULL) and expect a
 * VALIDATION failure whose message holds rule and every non-NULL needle. */
static void expect_fail(fixture_t *f, int with_levels, const char *rule, const char *needle1,
                        const char *needle2, const char *what, long long v)
{
    boxbfs_status_t st = boxbfs_validate(f->g, f->root, f->parent,
                                         with_levels ? f->level : NULL, NULL);
    const char *msg = boxbfs_last_error();
    int ok = st == BOXBFS_ERR_VALIDATION && strstr(msg, rule) != NULL &&
             (needle1 == NULL || strstr(msg, needle1) != NULL) &&
             (needle2 == NULL || strstr(msg, needle2) != NULL);
    if (!ok) {
        fprintf(stderr, "%s, root %lld, %s at vertex %lld (levels %s): expected %s [%s] [%s], "
                        "got %s: %s\n",
                f->name, (long long)f->root, what, v, with_levels ? "given" : "NULL", rule,
                needle1 ? needle1 : "", needle2 ? needle2 : "", boxbfs_status_string(st),
                st == BOXBFS_OK ? "" : msg);
        check_failures++;
    }
}

static void expect_pass(fixture_t *f, const char *what, long long v)
{
    for (int with_levels = 1; with_levels >= 0; with_levels--) {
        boxbfs_status_t st = boxbfs_validate(f->g, f->root, f->parent,
                                             with_levels ? f->level : NULL, NULL);
        if (st != BOXBFS_OK) {
            fprintf(stderr, "%s, root %lld, %s at vertex %lld (levels %s): %s: %s\n", f->name,
                    (long long)f->root, what, v, with_levels ? "given" : "NULL",
                    boxbfs_status_string(st), boxbfs_last_error());
            check_failures++;
        }
    }
}

/* Candidate vertices in a rotating order so that random graphs are mutated
 * in several places, not only at low ids. */
#define FOR_CANDIDATES(f, v, i)                                                 \
    for (int64_t i = 0, v = (f)->n / 3; i < (f)->n; i++, v = (v + 1) % (f)->n)

static void mutate_all(fixture_t *f)
{
    const int64_t n = f->n, root = f->root;
    char a[192], b[192];
    int hits;

    /* R0: the root's parent and level. */
    if (n > 1) {
        reset(f);
        f->parent[root] = (root + 1) % n;
        snprintf(a, sizeof a, "root %lld has parent %lld", (long long)root,
                 (long long)((root + 1) % n));
        expect_fail(f, 1, "R0", a, NULL, kind_names[K_ROOT_PARENT], root);
        expect_fail(f, 0, "R0", a, NULL, kind_names[K_ROOT_PARENT], root);
        kind_runs[K_ROOT_PARENT]++;
    }
    reset(f);
    f->level[root] = 1;
    snprintf(a, sizeof a, "root %lld has level 1", (long long)root);
    expect_fail(f, 1, "R0", a, NULL, kind_names[K_ROOT_LEVEL], root);
    kind_runs[K_ROOT_LEVEL]++;

    /* R2: a parent at the right level that is not a neighbour. */
    hits = 0;
    FOR_CANDIDATES(f, v, i) {
        if (hits >= PER_KIND) break;
        if (v == root || f->parent0[v] < 0) continue;
        for (int64_t x = 0; x < n; x++) {
            if (x == f->parent0[v] || f->level0[x] != f->level0[v] - 1 || has_arc(f, x, v))
                continue;
            reset(f);
            f->parent[v] = x;
            snprintf(a, sizeof a, "vertex %lld has parent %lld", (long long)v, (long long)x);
            expect_fail(f, 1, "R2", a, NULL, kind_names[K_NOT_NEIGHBOR], v);
            expect_fail(f, 0, "R2", a, NULL, kind_names[K_NOT_NEIGHBOR], v);
            kind_runs[K_NOT_NEIGHBOR]++;
            hits++;
            break;
        }
    }

    /* R3 / R5 on leaves: level one too high, one too low, cut off. */
    hits = 0;
    FOR_CANDIDATES(f, v, i) {
        if (hits >= PER_KIND) break;
        if (v == root || f->parent0[v] < 0 || !is_leaf(f, v)) continue;
        snprintf(a, sizeof a, "vertex %lld has level", (long long)v);
        reset(f);
        f->level[v]++;
        expect_fail(f, 1, "R3", a, NULL, kind_names[K_LEVEL_HIGH], v);
        kind_runs[K_LEVEL_HIGH]++;
        reset(f);
        f->level[v]--;
        expect_fail(f, 1, "R3", a, NULL, kind_names[K_LEVEL_LOW], v);
        kind_runs[K_LEVEL_LOW]++;
        reset(f);
        f->parent[v] = -1;
        f->level[v] = -1;
        snprintf(a, sizeof a, "vertex %lld is unreached", (long long)v);
        expect_fail(f, 1, "R5", a, NULL, kind_names[K_UNREACHED], v);
        expect_fail(f, 0, "R5", a, NULL, kind_names[K_UNREACHED], v);
        kind_runs[K_UNREACHED]++;
        hits++;
    }

    /* R5 / R2 / R6 on unreached vertices: a second root, attached to the root
     * without an edge, a level without a parent. */
    hits = 0;
    FOR_CANDIDATES(f, x, i) {
        if (hits >= PER_KIND) break;
        if (f->parent0[x] >= 0) continue;
        reset(f);
        f->parent[x] = x;
        f->level[x] = 0;
        snprintf(a, sizeof a, "vertex %lld is its own parent", (long long)x);
        expect_fail(f, 1, "R5", a, NULL, kind_names[K_SECOND_ROOT], x);
        expect_fail(f, 0, "R5", a, NULL, kind_names[K_SECOND_ROOT], x);
        kind_runs[K_SECOND_ROOT]++;
        reset(f);
        f->parent[x] = root;
        f->level[x] = 1;
        snprintf(a, sizeof a, "vertex %lld has parent %lld", (long long)x, (long long)root);
        expect_fail(f, 1, "R2", a, NULL, kind_names[K_ATTACHED], x);
        expect_fail(f, 0, "R2", a, NULL, kind_names[K_ATTACHED], x);
        kind_runs[K_ATTACHED]++;
        reset(f);
        f->level[x] = 3;
        snprintf(a, sizeof a, "vertex %lld is unreached (parent -1) but has level 3",
                 (long long)x);
        expect_fail(f, 1, "R6", a, NULL, kind_names[K_LEVEL_UNREACHED], x);
        kind_runs[K_LEVEL_UNREACHED]++;
        hits++;
    }

    /* R3: a parent cycle v <-> parent(v) away from the root. Levels NULL must
     * detect the cycle (and terminate); given levels are then inconsistent. */
    hits = 0;
    FOR_CANDIDATES(f, v, i) {
        int64_t p;
        if (hits >= PER_KIND) break;
        if (v == root || f->parent0[v] < 0) continue;
        p = f->parent0[v];
        if (p == root || !has_arc(f, v, p)) continue;
        reset(f);
        f->parent[p] = v;
        snprintf(a, sizeof a, "through vertex %lld ", (long long)v);
        snprintf(b, sizeof b, "through vertex %lld ", (long long)p);
        {
            boxbfs_status_t st = boxbfs_validate(f->g, root, f->parent, NULL, NULL);
            const char *msg = boxbfs_last_error();
            if (st != BOXBFS_ERR_VALIDATION || !strstr(msg, "R3") || !strstr(msg, "cycle") ||
                (!strstr(msg, a) && !strstr(msg, b))) {
                fprintf(stderr, "%s: cycle %lld <-> %lld not reported: %s: %s\n", f->name,
                        (long long)v, (long long)p, boxbfs_status_string(st), msg);
                check_failures++;
            }
        }
        snprintf(a, sizeof a, "vertex %lld has level", (long long)p);
        expect_fail(f, 1, "R3", a, NULL, kind_names[K_CYCLE], p);
        kind_runs[K_CYCLE]++;
        hits++;
    }

    /* R1 and R6 on reached vertices. */
    hits = 0;
    FOR_CANDIDATES(f, v, i) {
        if (hits >= PER_KIND) break;
        if (v == root || f->parent0[v] < 0) continue;
        reset(f);
        f->parent[v] = n;
        snprintf(a, sizeof a, "vertex %lld has parent %lld out of range [-1, %lld)",
                 (long long)v, (long long)n, (long long)n);
        expect_fail(f, 1, "R1", a, NULL, kind_names[K_RANGE], v);
        expect_fail(f, 0, "R1", a, NULL, kind_names[K_RANGE], v);
        f->parent[v] = -7;
        snprintf(a, sizeof a, "vertex %lld has parent -7 out of range", (long long)v);
        expect_fail(f, 1, "R1", a, NULL, kind_names[K_RANGE], v);
        kind_runs[K_RANGE]++;
        reset(f);
        f->level[v] = -1;
        snprintf(a, sizeof a, "vertex %lld has parent %lld but level -1", (long long)v,
                 (long long)f->parent0[v]);
        expect_fail(f, 1, "R6", a, NULL, kind_names[K_NO_LEVEL], v);
        kind_runs[K_NO_LEVEL]++;
        hits++;
    }

    /* Still valid: another neighbour one level up as the parent. */
    hits = 0;
    FOR_CANDIDATES(f, v, i) {
        if (hits >= PER_KIND) break;
        if (v == root || f->parent0[v] < 0) continue;
        for (int64_t x = 0; x < n; x++) {
            if (x == f->parent0[v] || f->level0[x] != f->level0[v] - 1 || !has_arc(f, x, v))
                continue;
            reset(f);
            f->parent[v] = x;
            expect_pass(f, kind_names[K_OTHER_PARENT], v);
            kind_runs[K_OTHER_PARENT]++;
            hits++;
            break;
        }
    }
}

/* Reference tree from root, check it validates, then run every mutation. */
static void run_fixture(boxbfs_graph_t g, int64_t root, const char *name)
{
    fixture_t f = {.g = g, .root = root, .name = name};
    boxbfs_tree_info_t with, without;
    if (g == NULL) return;
    f.n = boxbfs_graph_vertices(g);
    f.off = boxbfs_graph_offsets(g);
    f.col = boxbfs_graph_columns(g);
    f.directed = boxbfs_graph_is_directed(g);
    f.parent0 = malloc((size_t)f.n * sizeof *f.parent0);
    f.parent = malloc((size_t)f.n * sizeof *f.parent);
    f.level0 = malloc((size_t)f.n * sizeof *f.level0);
    f.level = malloc((size_t)f.n * sizeof *f.level);
    if (!f.parent0 || !f.parent || !f.level0 || !f.level) {
        CHECK(!"out of memory");
        goto out;
    }
    CHECK_OK(boxbfs_bfs_reference(g, root, f.parent0, f.level0));
    CHECK_OK(boxbfs_validate(g, root, f.parent0, f.level0, &with));
    CHECK_OK(boxbfs_validate(g, root, f.parent0, NULL, &without));
    CHECK(with.reached == without.reached && with.input_edges == without.input_edges &&
          with.arcs == without.arcs && with.levels == without.levels);
    mutate_all(&f);
out:
    free(f.parent0);
    free(f.parent);
    free(f.level0);
    free(f.level);
}

static int64_t first_with_arcs(boxbfs_graph_t g, int64_t from)
{
    const int64_t *off = boxbfs_graph_offsets(g);
    int64_t n = boxbfs_graph_vertices(g);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (from + i) % n;
        if (off[v + 1] > off[v]) return v;
    }
    return from;
}

static void test_mutations(void)
{
    /* Hand graphs: a tree, a cycle with chords, two components, a directed
     * graph with unreachable vertices. */
    static const int64_t tree[][2] = {{0, 1}, {0, 2}, {1, 3}, {1, 4}, {2, 5}, {5, 6}, {5, 7}};
    static const int64_t grid[][2] = {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8},
                                      {0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8}};
    static const int64_t two[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 4}, {5, 6}, {6, 7}};
    static const int64_t dir[][2] = {{0, 1}, {0, 2}, {1, 3}, {3, 2}, {2, 4}, {4, 0},
                                     {5, 0}, {5, 6}, {3, 1}};
    boxbfs_graph_t g;

    g = check_graph(8, 7, tree, 0);
    run_fixture(g, 0, "tree");
    run_fixture(g, 5, "tree");
    boxbfs_graph_free(g);
    g = check_graph(9, 12, grid, 0);
    run_fixture(g, 4, "3x3 grid");
    run_fixture(g, 0, "3x3 grid");
    boxbfs_graph_free(g);
    g = check_graph(9, 7, two, 0);   /* 8 is isolated */
    run_fixture(g, 2, "two components");
    run_fixture(g, 6, "two components");
    boxbfs_graph_free(g);
    g = check_graph(7, 9, dir, 1);
    run_fixture(g, 0, "directed");
    run_fixture(g, 5, "directed");
    boxbfs_graph_free(g);

    /* Random graphs: sparse enough to leave vertices outside the giant
     * component; the larger one is split over several threads. */
    g = make_random(300, 330, 42, 0);
    if (g) run_fixture(g, first_with_arcs(g, 7), "random undirected 300");
    boxbfs_graph_free(g);
    g = make_random(300, 450, 7, 1);
    if (g) run_fixture(g, first_with_arcs(g, 11), "random directed 300");
    boxbfs_graph_free(g);

    for (int k = 0; k < K_COUNT; k++) {
        if (kind_runs[k] == 0) {
            fprintf(stderr, "mutation \"%s\" never ran\n", kind_names[k]);
            check_failures++;
        }
    }
}

/* Threads: a graph large enough for several slices; breaks near the start,
 * the middle and the end are each reported at their own vertex. */
static void test_large(void)
{
    boxbfs_graph_t g = make_random(1 << 17, 3 << 17, 1234, 0);
    int64_t n, root, *parent = NULL, *children = NULL;
    int32_t *level = NULL;
    boxbfs_tree_info_t info;
    char want[192];
    if (g == NULL) return;
    n = boxbfs_graph_vertices(g);
    root = first_with_arcs(g, 99);
    parent = malloc((size_t)n * sizeof *parent);
    level = malloc((size_t)n * sizeof *level);
    children = calloc((size_t)n, sizeof *children);
    if (!parent || !level || !children) {
        CHECK(!"out of memory");
        goto out;
    }
    CHECK_OK(boxbfs_bfs_reference(g, root, parent, level));
    CHECK_OK(boxbfs_validate(g, root, parent, level, &info));
    CHECK(info.reached > n / 2 && info.reached < n);
    /* Leaves only: a vertex with children would be reported at a child. */
    for (int64_t v = 0; v < n; v++)
        if (v != root && parent[v] >= 0) children[parent[v]]++;
    for (int64_t start = 0; start < n; start += n / 3) {
        int64_t v = start;
        int32_t saved;
        while (v < n && (v == root || parent[v] < 0 || children[v] > 0)) v++;
        if (v == n) break;
        saved = level[v];
        level[v] = saved + 5;
        snprintf(want, sizeof want, "vertex %lld has level %d", (long long)v, (int)saved + 5);
        CHECK(boxbfs_validate(g, root, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
        CHECK(strstr(boxbfs_last_error(), want) != NULL);
        level[v] = saved;
    }
    /* An unreached vertex near the end with a level. */
    for (int64_t v = n - 1; v >= 0; v--) {
        if (parent[v] >= 0) continue;
        level[v] = 2;
        snprintf(want, sizeof want, "R6: vertex %lld is unreached", (long long)v);
        CHECK(boxbfs_validate(g, root, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
        CHECK(strstr(boxbfs_last_error(), want) != NULL);
        level[v] = -1;
        break;
    }
    CHECK_OK(boxbfs_validate(g, root, parent, NULL, NULL));
out:
    free(parent);
    free(level);
    free(children);
    boxbfs_graph_free(g);
}

/* A DFS tree is a spanning tree with consistent levels but not a BFS tree:
 * only R4 catches it. */
static void test_dfs_tree(void)
{
    static const int64_t cyc[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    boxbfs_graph_t g = check_graph(4, 4, cyc, 0), d = check_graph(4, 4, cyc, 1);
    int64_t parent[4] = {0, 0, 1, 2};
    int32_t level[4] = {0, 1, 2, 3};
    if (g == NULL || d == NULL) goto out;
    CHECK(boxbfs_validate(g, 0, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R4: edge {0, 3} joins levels 0 and 3") != NULL);
    CHECK(boxbfs_validate(g, 0, parent, NULL, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R4: edge {0, 3}") != NULL);
    /* Directed 0 -> 1 -> 2 -> 3 -> 0: the same tree is the BFS tree, and the
     * back arc 3 -> 0 climbs three levels, which is allowed. */
    CHECK_OK(boxbfs_validate(d, 0, parent, level, NULL));
out:
    boxbfs_graph_free(g);
    boxbfs_graph_free(d);
}

/* Direction matters: a parent joined by an arc the wrong way, a deep arc. */
static void test_directed_rules(void)
{
    static const int64_t e[][2] = {{0, 1}, {0, 2}, {1, 3}, {3, 2}};
    static const int64_t deep[][2] = {{0, 1}, {1, 2}, {0, 2}};
    boxbfs_graph_t d = check_graph(4, 4, e, 1), u = check_graph(4, 4, e, 0), dd = check_graph(3, 3, deep, 1);
    int64_t parent[4] = {0, 0, 0, 2};
    int32_t level[4] = {0, 1, 1, 2};
    int64_t chain[3] = {0, 0, 1};
    int32_t chain_level[3] = {0, 1, 2};
    if (d == NULL || u == NULL || dd == NULL) goto out;
    /* 3's parent 2: the arc is 3 -> 2, not 2 -> 3. Fine when undirected. */
    CHECK(boxbfs_validate(d, 0, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R2: vertex 3 has parent 2 but 2 -> 3 is not an arc") !=
          NULL);
    CHECK_OK(boxbfs_validate(u, 0, parent, level, NULL));
    parent[3] = 1;
    CHECK_OK(boxbfs_validate(d, 0, parent, level, NULL));
    CHECK_OK(boxbfs_validate(d, 0, parent, NULL, NULL));
    /* Root 3 reaches only 2 (3 -> 2); 0 and 1 stay unreached legitimately. */
    {
        int64_t p3[4] = {-1, -1, 3, 3};
        int32_t l3[4] = {-1, -1, 1, 0};
        boxbfs_tree_info_t info;
        CHECK_OK(boxbfs_validate(d, 3, p3, l3, &info));
        CHECK(info.reached == 2 && info.levels == 2 && info.arcs == 1);
    }
    /* 0 -> 2 skips a level of the tree 0 -> 1 -> 2. */
    CHECK(boxbfs_validate(dd, 0, chain, chain_level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R4: arc 0 -> 2 goes from level 0 to level 2") != NULL);
out:
    boxbfs_graph_free(d);
    boxbfs_graph_free(u);
    boxbfs_graph_free(dd);
}

/* Tree info on a hand graph: duplicates and self-loops are input edges (TEPS)
 * credited to their first endpoint, but not arcs. */
static void test_tree_info(void)
{
    /* 0-1 twice, 1-2, self-loop 2-2, 1-0 (a duplicate the other way), 3-4;
     * 5 isolated. */
    static const int64_t e[][2] = {{0, 1}, {0, 1}, {1, 2}, {2, 2}, {3, 4}, {1, 0}};
    boxbfs_graph_t g = check_graph(6, 6, e, 0), d = check_graph(6, 6, e, 1);
    int64_t parent[6];
    int32_t level[6];
    boxbfs_tree_info_t info;
    if (g == NULL || d == NULL) goto out;

    CHECK_OK(boxbfs_bfs_reference(g, 0, parent, level));
    memset(&info, 0x55, sizeof info);
    CHECK_OK(boxbfs_validate(g, 0, parent, level, &info));
    CHECK(info.reached == 3);
    CHECK(info.input_edges == 5);   /* all but 3-4 */
    CHECK(info.arcs == 4);          /* 0:{1} 1:{0,2} 2:{1} */
    CHECK(info.levels == 3);
    memset(&info, 0x55, sizeof info);
    CHECK_OK(boxbfs_validate(g, 0, parent, NULL, &info));
    CHECK(info.reached == 3 && info.input_edges == 5 && info.arcs == 4 && info.levels == 3);

    CHECK_OK(boxbfs_bfs_reference(g, 4, parent, level));
    CHECK_OK(boxbfs_validate(g, 4, parent, level, &info));
    CHECK(info.reached == 2 && info.input_edges == 1 && info.arcs == 2 && info.levels == 2);

    CHECK_OK(boxbfs_bfs_reference(g, 5, parent, level));
    CHECK_OK(boxbfs_validate(g, 5, parent, level, &info));
    CHECK(info.reached == 1 && info.input_edges == 0 && info.arcs == 0 && info.levels == 1);

    /* Directed: 0 -> 1, 1 -> 2, 1 -> 0; 2 has no out-arc (its self-loop is
     * dropped) but its input edge counts. */
    CHECK_OK(boxbfs_bfs_reference(d, 0, parent, level));
    CHECK_OK(boxbfs_validate(d, 0, parent, level, &info));
    CHECK(info.reached == 3 && info.input_edges == 5 && info.arcs == 3 && info.levels == 3);
    CHECK_OK(boxbfs_bfs_reference(d, 4, parent, level));
    CHECK_OK(boxbfs_validate(d, 4, parent, level, &info));
    CHECK(info.reached == 1 && info.input_edges == 0 && info.arcs == 0 && info.levels == 1);

    /* info_p is left alone on failure. */
    CHECK_OK(boxbfs_bfs_reference(g, 0, parent, level));
    level[2] = 7;
    memset(&info, 0x55, sizeof info);
    CHECK(boxbfs_validate(g, 0, parent, level, &info) == BOXBFS_ERR_VALIDATION);
    CHECK(info.reached == 0x5555555555555555LL);
out:
    boxbfs_graph_free(g);
    boxbfs_graph_free(d);
}

static void test_arguments(void)
{
    static const int64_t e[][2] = {{0, 1}, {1, 2}};
    boxbfs_graph_t g = check_graph(10, 2, e, 0);
    int64_t parent[10];
    int32_t level[10];
    if (g == NULL) return;
    CHECK_OK(boxbfs_bfs_reference(g, 0, parent, level));
    CHECK(boxbfs_validate(g, 12, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R0: root 12 out of range [0, 10)") != NULL);
    CHECK(boxbfs_validate(g, -1, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R0: root -1 out of range") != NULL);
    CHECK(boxbfs_validate(g, 0, NULL, level, NULL) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_validate(NULL, 0, parent, level, NULL) == BOXBFS_ERR_INVALID_ARG);
    /* A tree for another root. */
    CHECK(boxbfs_validate(g, 1, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R0: root 1 has parent 0, expected itself") != NULL);
    /* A reached vertex whose parent is unreached (levels consistent). */
    parent[2] = 5;   /* 5 is isolated: also not an edge, R2 first */
    CHECK(boxbfs_validate(g, 0, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R2: vertex 2 has parent 5") != NULL);
    /* Cut the path 0-1-2 at 1: 2 hangs from an unreached parent. */
    parent[2] = 1;
    parent[1] = -1;
    level[1] = -1;
    CHECK(boxbfs_validate(g, 0, parent, level, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R3: vertex 2 has parent 1, which is unreached") != NULL);
    CHECK(boxbfs_validate(g, 0, parent, NULL, NULL) == BOXBFS_ERR_VALIDATION);
    CHECK(strstr(boxbfs_last_error(), "R3: vertex 2 has parent 1, which is unreached") != NULL);
    boxbfs_graph_free(g);
}

int main(void)
{
    test_arguments();
    test_tree_info();
    test_directed_rules();
    test_dfs_tree();
    test_mutations();
    test_large();
    CHECK_DONE();
}
