/* Graph500 validation of a BFS tree [Graph500 spec, verify.c]: rules R0-R6,
 * each a distinct failure whose message names the rule and the vertices
 * (internal ids). Independent of every BFS implementation (it does not call
 * reference.c). Linear time: one pass over the vertices (tree edges by binary
 * search in the sorted rows, or a scan of unsorted ones), one over the arcs,
 * both split over threads in contiguous slices so the error reported is the
 * lowest vertex's. Works on a range of rows (an MPI rank's share,
 * graph/graph.h), so that the ranks of a search together check the whole
 * tree (engine/check_tree.c), each with the parents of its rows only and
 * what the others tell (bb_other_rows_t). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "bfs/bfs.h"
#include "boxbfs.h"
#include "common/error.h"
#include "common/search.h"
#include "common/threads.h"
#include "graph/graph.h"

/* Rules (a vertex v is "reached" when parent[v] != -1):
 *   R0  root in [0, n), parent[root] == root, level[root] == 0.
 *   R1  every parent in [-1, n).
 *   R2  for reached v != root, parent[v] -> v is a graph edge (for directed
 *       graphs an out-arc of parent[v]).
 *   R3  for reached v != root, parent[v] is reached and level[v] ==
 *       level[parent[v]] + 1. Without levels they are derived from the
 *       parents, and a parent cycle that avoids the root is an R3 failure.
 *   R4  for every arc u -> v with u reached: level[v] <= level[u] + 1. An
 *       undirected graph stores both arcs of an edge, so this is
 *       |level[u] - level[v]| <= 1 on every edge.
 *   R5  exactly the root's component (directed: the vertices reachable from
 *       the root) is reached. Detected in two halves:
 *       - reached but not connected: a non-root vertex that is its own parent
 *         is reported here; otherwise R2 + R3 make every parent pointer a graph
 *         edge (arc parent -> child) to a reached vertex one level up, so the
 *         chain from any reached vertex strictly climbs to the only
 *         self-parented vertex, the root, along graph edges.
 *       - connected but unreached: the arc pass reports an arc u -> v from a
 *         reached u to an unreached v; since the root is reached, induction
 *         along any path from the root shows that no such arc means every
 *         vertex of the component is reached.
 *   R6  level[v] == -1 exactly when parent[v] == -1 (levels given).
 *   R7  with a depth limit K (boxbfs_validate_depth): no level exceeds K, and
 *       R5 becomes "exactly the vertices within K levels of the root": the
 *       arcs of level-K vertices may lead to unreached vertices.
 *
 * Rows [lo, hi): the vertex rules of those vertices and the arc rules of
 * their arcs are checked (the tree arrays are whole). R2 needs a row: an
 * undirected edge is in both, so v's own row serves; for a directed graph
 * the arc is in the parent's row, so on a slice R2 of v is checked where
 * its parent's row is, by the parent pass over all vertices (or over the
 * pairs that the other rows sent). Levels derived from parents walk the
 * whole tree, checking what the walk relies on. */

#define MAX_THREADS 64
#define MIN_WORK_PER_THREAD ((int64_t)1 << 16)
/* Marks in the derived-level array besides -1 (unreached) and levels >= 0. */
#define LEVEL_UNKNOWN (-2)
#define LEVEL_ON_PATH (-3)

typedef struct {
    int64_t reached, credit, arcs;
    int32_t max_level;
} partial_t;

typedef struct {
    const struct boxbfs_graph *g;
    int64_t lo, hi;            /* the rows checked */
    int64_t root;
    const int64_t *parent;
    const int32_t *level;      /* given levels, or the derived ones in the arc pass */
    int32_t max_depth;         /* < 0: none */
    const bb_other_rows_t *others;   /* NULL: parent is whole */
    int rows;                  /* 0: the rules that read rows are checked elsewhere */
    partial_t part[MAX_THREADS];
} job_t;

static int thread_count(int64_t work)
{
    int64_t t = work / MIN_WORK_PER_THREAD + 1;
    int cpus = bb_cpu_count();
    if (t > cpus) t = cpus;
    if (t > MAX_THREADS) t = MAX_THREADS;
    return (int)t;
}

static int holds_row(const struct boxbfs_graph *g, int64_t u)
{
    return u >= g->row_lo && u < g->row_hi;
}

/* Is v in the row of u (a row the graph holds)? A sorted row by binary
 * search; an unsorted one by a scan, which over all the vertices reads each
 * row at most once. */
static int row_contains(const struct boxbfs_graph *g, int64_t u, int64_t v)
{
    const int64_t base = g->columns_base;
    int64_t at = g->offsets[u] - base, end = g->offsets[u + 1] - base;
    if (g->columns32) {
        while (at < end && g->columns32[at] != (uint64_t)v) at++;
        return at < end;
    }
    at = bb_lower_bound_i64(g->columns, at, end, v);
    return at < end && g->columns[at] == v;
}

/* Is p -> v a stored arc (v's row is held)? 1 yes, 0 no, -1 when the
 * graph cannot tell (directed, p's row is another rank's). An undirected
 * edge is in both rows: search the shorter one (the parent is often a hub). */
static int is_tree_edge(const struct boxbfs_graph *g, int64_t p, int64_t v)
{
    if (g->directed) return holds_row(g, p) ? row_contains(g, p, v) : -1;
    if (!holds_row(g, p) ||
        g->offsets[v + 1] - g->offsets[v] < g->offsets[p + 1] - g->offsets[p])
        return row_contains(g, v, p);
    return row_contains(g, p, v);
}

static boxbfs_status_t not_tree_edge(const struct boxbfs_graph *g, int64_t p, int64_t v)
{
    if (g->directed)
        return bb_error_set(BOXBFS_ERR_VALIDATION,
                            "R2: vertex %lld has parent %lld but %lld -> %lld is not an arc of "
                            "the graph",
                            (long long)v, (long long)p, (long long)p, (long long)v);
    return bb_error_set(BOXBFS_ERR_VALIDATION,
                        "R2: vertex %lld has parent %lld but {%lld, %lld} is not an edge of "
                        "the graph",
                        (long long)v, (long long)p, (long long)p, (long long)v);
}

/* Is p reached (parent not -1)? Another row's parent is not here: its level
 * says, but for the R6 breaks that its rank listed. */
static int is_reached(const job_t *job, int64_t p)
{
    const bb_other_rows_t *o = job->others;
    int64_t at;
    if (o == NULL || (p >= job->lo && p < job->hi)) return job->parent[p] != BOXBFS_UNREACHED;
    at = bb_lower_bound_i64(o->unlike, 0, o->nunlike, p);
    return (job->level[p] != BOXBFS_UNREACHED) != (at < o->nunlike && o->unlike[at] == p);
}

/* Per-vertex rules R1, R2, R3 (given levels), R5 (second root), R6, and the
 * tree counts, over one slice of the vertices. */
static boxbfs_status_t tree_pass(int tid, int nthreads, void *arg)
{
    job_t *job = arg;
    const struct boxbfs_graph *g = job->g;
    const int64_t *parent = job->parent, *offsets = g->offsets;
    const int32_t *level = job->level;
    const int64_t n = g->n, root = job->root;
    partial_t sum = {0, 0, 0, -1};
    int64_t lo, hi;

    bb_split_range(job->hi - job->lo, tid, nthreads, &lo, &hi);
    lo += job->lo;
    hi += job->lo;
    for (int64_t v = lo; v < hi; v++) {
        int64_t p = parent[v];
        int32_t lv = level ? level[v] : 0;
        if (p < -1 || p >= n)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R1: vertex %lld has parent %lld out of range [-1, %lld)",
                                (long long)v, (long long)p, (long long)n);
        if (level && p == BOXBFS_UNREACHED && lv != BOXBFS_UNREACHED)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R6: vertex %lld is unreached (parent -1) but has level %d",
                                (long long)v, (int)lv);
        if (p == BOXBFS_UNREACHED) continue;
        if (level && lv < 0)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R6: vertex %lld has parent %lld but level %d", (long long)v,
                                (long long)p, (int)lv);
        sum.reached++;
        sum.credit += g->edge_credit ? g->edge_credit[v] : 0;
        sum.arcs += offsets[v + 1] - offsets[v];
        if (lv > sum.max_level) sum.max_level = lv;
        if (v == root) continue;
        if (p == v)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R5: vertex %lld is its own parent but the root is %lld: "
                                "a second tree, not connected to the root",
                                (long long)v, (long long)root);
        if (job->rows && is_tree_edge(g, p, v) == 0) return not_tree_edge(g, p, v);
        if (!is_reached(job, p))
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R3: vertex %lld has parent %lld, which is unreached",
                                (long long)v, (long long)p);
        /* A negative level[p] is reported at p (R6), the vertex that is wrong. */
        if (level && level[p] >= 0 && (int64_t)lv != (int64_t)level[p] + 1)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R3: vertex %lld has level %d but its parent %lld has level %d "
                                "(expected %lld)",
                                (long long)v, (int)lv, (long long)p, (int)level[p],
                                (long long)level[p] + 1);
    }
    job->part[tid] = sum;
    return BOXBFS_OK;
}

/* Vertices the parent pass looks at: all, or the pairs the others sent. */
static int64_t parent_pass_count(const job_t *job)
{
    return job->others ? job->others->nchildren : job->g->n;
}

/* R2 of the vertices outside the rows whose parent's row is one of them
 * (a slice of a directed graph, see above), in ascending vertex order. */
static boxbfs_status_t parent_pass(int tid, int nthreads, void *arg)
{
    job_t *job = arg;
    const int64_t *pairs = job->others ? job->others->children : NULL;
    int64_t lo, hi;
    bb_split_range(parent_pass_count(job), tid, nthreads, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        int64_t v = pairs ? pairs[2 * i] : i, p = pairs ? pairs[2 * i + 1] : job->parent[i];
        if (v >= job->lo && v < job->hi) continue;   /* the tree pass's */
        if (p < job->lo || p >= job->hi || p == v || v == job->root) continue;
        if (!row_contains(job->g, p, v)) return not_tree_edge(job->g, p, v);
    }
    return BOXBFS_OK;
}

/* First vertex of thread tid's slice of the rows in the arc pass: slices
 * hold equal numbers of arcs (a Kronecker hub must not land on one thread
 * with all its neighbours' rows). */
static int64_t arc_slice_start(const job_t *job, int tid, int nthreads)
{
    const int64_t *off = job->g->offsets;
    int64_t arcs = off[job->hi] - off[job->lo];
    int64_t target = off[job->lo] + arcs / nthreads * tid + arcs % nthreads * tid / nthreads;
    if (tid == 0) return job->lo;
    if (tid >= nthreads) return job->hi;
    return bb_lower_bound_i64(off, job->lo, job->hi, target);   /* first u with off[u] >= target */
}

/* R4 and the "connected but unreached" half of R5, over one slice of the
 * arcs. level[] is -1 exactly for unreached vertices here, so one unsigned
 * compare catches both an unreached head (-1 becomes UINT32_MAX) and a head
 * more than one level deeper. */
static boxbfs_status_t arc_pass(int tid, int nthreads, void *arg)
{
    job_t *job = arg;
    const struct boxbfs_graph *g = job->g;
    const int64_t *offsets = g->offsets, *columns = g->columns, base = g->columns_base;
    const uint32_t *columns32 = g->columns32;
    const int32_t *level = job->level;
    int64_t lo = arc_slice_start(job, tid, nthreads), hi = arc_slice_start(job, tid + 1, nthreads);

    for (int64_t u = lo; u < hi; u++) {
        int32_t lu = level[u];
        uint32_t limit;
        if (lu < 0) continue;
        if (job->max_depth >= 0 && lu >= job->max_depth) {
            if (lu > job->max_depth)
                return bb_error_set(BOXBFS_ERR_VALIDATION,
                                    "R7: vertex %lld has level %d, deeper than the depth limit %d",
                                    (long long)u, (int)lu, (int)job->max_depth);
            continue;   /* what lies beyond the limit stays unreached */
        }
        limit = (uint32_t)lu + 1u;
        for (int64_t j = offsets[u] - base; j < offsets[u + 1] - base; j++) {
            int64_t v = columns32 ? (int64_t)columns32[j] : columns[j];
            int32_t lv = level[v];
            if ((uint32_t)lv <= limit) continue;
            if (lv == BOXBFS_UNREACHED)
                return bb_error_set(BOXBFS_ERR_VALIDATION,
                                    "R5: vertex %lld is unreached but reached vertex %lld "
                                    "(level %d) has %s to it: the root's component is not "
                                    "fully reached",
                                    (long long)v, (long long)u, (int)lu,
                                    g->directed ? "an arc" : "an edge");
            if (g->directed)
                return bb_error_set(BOXBFS_ERR_VALIDATION,
                                    "R4: arc %lld -> %lld goes from level %d to level %d, more "
                                    "than one level deeper",
                                    (long long)u, (long long)v, (int)lu, (int)lv);
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R4: edge {%lld, %lld} joins levels %d and %d, which differ by "
                                "more than one",
                                (long long)u, (long long)v, (int)lu, (int)lv);
        }
    }
    return BOXBFS_OK;
}

/* Levels from parent pointers (sequential, O(n)): walk up from each vertex of
 * unknown level, marking the path, to a vertex of known level; then walk the
 * path again numbering it. Meeting a marked vertex means a cycle. Runs after
 * the tree pass, which for a whole graph has checked that every parent is in
 * range and every reached vertex's parent is reached; on a slice the walk
 * meets vertices of other rows and checks both itself. */
static boxbfs_status_t derive_levels(const struct boxbfs_graph *g, int64_t root,
                                     const int64_t *parent, int32_t *d, int32_t *max_level_p)
{
    const int64_t n = g->n;
    int32_t max_level = 0;

    for (int64_t v = 0; v < n; v++) d[v] = parent[v] == BOXBFS_UNREACHED ? -1 : LEVEL_UNKNOWN;
    d[root] = 0;
    for (int64_t v = 0; v < n; v++) {
        int64_t u = v, prev = v, steps = 0, next_level;
        if (d[v] != LEVEL_UNKNOWN) continue;
        while (d[u] == LEVEL_UNKNOWN) {
            int64_t p = parent[u];   /* not -1: u is reached */
            if (p < 0 || p >= n)
                return bb_error_set(BOXBFS_ERR_VALIDATION,
                                    "R1: vertex %lld has parent %lld out of range [-1, %lld)",
                                    (long long)u, (long long)p, (long long)n);
            d[u] = LEVEL_ON_PATH;
            prev = u;
            u = p;
            steps++;
        }
        if (d[u] == LEVEL_ON_PATH)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R3: the parent pointers from vertex %lld run into a cycle "
                                "through vertex %lld that does not contain the root %lld",
                                (long long)v, (long long)u, (long long)root);
        if (d[u] < 0)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "R3: vertex %lld has parent %lld, which is unreached",
                                (long long)prev, (long long)u);
        next_level = d[u] + steps;
        if (next_level > INT32_MAX)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "validation: depth of vertex %lld exceeds the 32-bit level range",
                                (long long)v);
        if (next_level > max_level) max_level = (int32_t)next_level;
        for (int64_t w = v; d[w] == LEVEL_ON_PATH; w = parent[w]) d[w] = (int32_t)next_level--;
    }
    *max_level_p = max_level;
    return BOXBFS_OK;
}

/* Order: R0, then the vertex pass (per vertex R1, R6, R5 second root, R2, R3),
 * the parent pass (R2, directed slices), then level derivation (R3 cycles)
 * when level is NULL, then the arc pass (R5 unreached, R4). info.input_edges
 * sums edge_credit over the reached vertices; a graph without edge_credit
 * counts its stored edges instead. */
static boxbfs_status_t validate(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                const int64_t *parent, const int32_t *level, int32_t max_depth,
                                const bb_other_rows_t *others, int rows,
                                boxbfs_tree_info_t *info_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    int32_t *derived = NULL;
    job_t *job = NULL;
    boxbfs_tree_info_t info = {0, 0, 0, 0};
    int32_t max_level = -1;
    int nthreads;
    int64_t n, root_parent;

    if (graph == NULL || parent == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "validate: %s is NULL",
                            graph == NULL ? "graph" : "parent array");
    n = graph->n;
    if (lo < graph->row_lo || lo > hi || hi > graph->row_hi)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "validate: rows [%lld, %lld) are not within the rows [%lld, %lld) "
                            "that graph %s holds", (long long)lo, (long long)hi,
                            (long long)graph->row_lo, (long long)graph->row_hi, graph->name);
    if (others && level == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "validate: the parents of rows [%lld, %lld) alone need the levels",
                            (long long)lo, (long long)hi);
    /* R0 */
    if (root < 0 || root >= n)
        return bb_error_set(BOXBFS_ERR_VALIDATION, "R0: root %lld out of range [0, %lld)",
                            (long long)root, (long long)n);
    root_parent = others ? others->root_parent : parent[root];
    if (root_parent != root)
        return bb_error_set(BOXBFS_ERR_VALIDATION,
                            "R0: root %lld has parent %lld, expected itself", (long long)root,
                            (long long)root_parent);
    if (level && level[root] != 0)
        return bb_error_set(BOXBFS_ERR_VALIDATION, "R0: root %lld has level %d, expected 0",
                            (long long)root, (int)level[root]);

    BB_CHECK(bb_malloc(sizeof *job, "the validation job", &job));
    job->g = graph;
    job->lo = lo;
    job->hi = hi;
    job->root = root;
    job->parent = parent;
    job->level = level;
    job->max_depth = max_depth;
    job->others = others;
    job->rows = rows;
    nthreads = thread_count(hi - lo);
    BB_CHECK_GOTO(bb_parallel_run(nthreads, tree_pass, job), st, out);
    for (int t = 0; t < nthreads; t++) {
        info.reached += job->part[t].reached;
        info.input_edges += job->part[t].credit;
        info.arcs += job->part[t].arcs;
        if (job->part[t].max_level > max_level) max_level = job->part[t].max_level;
    }
    if (graph->edge_credit == NULL)   /* no per-vertex credit: count stored edges */
        info.input_edges = graph->directed ? info.arcs : info.arcs / 2;
    if (!rows) goto counted;
    if (graph->directed && bb_graph_is_slice(graph))
        BB_CHECK_GOTO(bb_parallel_run(thread_count(parent_pass_count(job)), parent_pass, job), st, out);

    if (level == NULL) {
        BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *derived, "levels derived from parents",
                                &derived), st, out);
        BB_CHECK_GOTO(derive_levels(graph, root, parent, derived, &max_level), st, out);
        job->level = derived;
    }
    BB_CHECK_GOTO(bb_parallel_run(thread_count(hi - lo + graph->offsets[hi] - graph->offsets[lo]),
                                  arc_pass, job), st, out);
counted:
    info.levels = max_level + 1;
    if (info_p) *info_p = info;
out:
    free(derived);
    free(job);
    return st;
}

boxbfs_status_t bb_validate_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                 const int64_t *parent, const int32_t *level, int32_t max_depth,
                                 const bb_other_rows_t *others, boxbfs_tree_info_t *info_p)
{
    return validate(graph, lo, hi, root, parent, level, max_depth, others, 1, info_p);
}

boxbfs_status_t bb_validate_vertices(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                     const int64_t *parent, const int32_t *level,
                                     int32_t max_depth, boxbfs_tree_info_t *info_p)
{
    if (level == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "validate: the vertex rules need the levels");
    return validate(graph, lo, hi, root, parent, level, max_depth, NULL, 0, info_p);
}

boxbfs_status_t boxbfs_validate(boxbfs_graph_t graph, int64_t root, const int64_t *parent,
                                const int32_t *level, boxbfs_tree_info_t *info_p)
{
    return boxbfs_validate_depth(graph, root, parent, level, -1, info_p);
}

boxbfs_status_t boxbfs_validate_depth(boxbfs_graph_t graph, int64_t root, const int64_t *parent,
                                      const int32_t *level, int32_t max_depth,
                                      boxbfs_tree_info_t *info_p)
{
    if (graph == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "validate: graph is NULL");
    if (graph->on_devices)   /* its rows are on an engine's devices, none here */
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "validate: graph %s is built on the devices: its engine checks its "
                            "trees (boxbfs_engine_check_tree)", graph->name);
    return bb_validate_rows(graph, graph->row_lo, graph->row_hi, root, parent, level, max_depth,
                            NULL, info_p);
}

void bb_tree_count_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, const int32_t *level,
                        boxbfs_tree_info_t *info_p)
{
    boxbfs_tree_info_t info = {0, 0, 0, 0};
    int32_t max_level = -1;
    for (int64_t v = lo; v < hi; v++) {
        if (level[v] < 0) continue;
        info.reached++;
        info.input_edges += graph->edge_credit[v];
        info.arcs += graph->offsets[v + 1] - graph->offsets[v];
        if (level[v] > max_level) max_level = level[v];
    }
    info.levels = max_level + 1;
    *info_p = info;
}
