/* boxbfs_engine_check_tree: Graph500 validation (or only the TEPS counts) of
 * a search's tree over all processes of the engine. Each process checks the
 * rows of its devices (bfs/validate.c on a range) with the parents of those
 * rows, its own; the levels of all rows are allgathered, and of the other
 * rows' parents only what the check reads travels (bb_other_rows_t); the
 * results are combined, so every process returns the same status, message
 * and counts. With the thread team this is boxbfs_validate on the whole graph. */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "bfs/bfs.h"
#include "common/error.h"
#include "common/timer.h"

/* Records from this process for the others' checks, and theirs for its. */
typedef struct {
    int64_t *unlike, nunlike;       /* received: R6 breaks of the other rows */
    int64_t *children, nchildren;   /* received: (v, parent) pairs */
    int64_t *send, *counts;         /* this process's, in process order */
} shared_t;

/* v's parent is -1 exactly when its level is not: R6 breaks at v, and its
 * level alone does not say whether it is reached. */
static int unlike(const int64_t *parent, const int32_t *level, int64_t v)
{
    return (parent[v] == BOXBFS_UNREACHED) != (level[v] == BOXBFS_UNREACHED);
}

/* Another process checks R2 of v (directed slices: the arc is in the
 * parent's row, see validate.c's parent pass) when it holds parent p's row. */
static int sends_child(int64_t n, int64_t lo, int64_t hi, int64_t root, int64_t v, int64_t p)
{
    return p >= 0 && p < n && (p < lo || p >= hi) && v != root;
}

/* Rows [lo, hi)'s R6 breaks, the same list to every other process. */
static boxbfs_status_t send_unlike(boxbfs_engine_t e, int64_t lo, int64_t hi,
                                   const int64_t *parent, const int32_t *level, shared_t *s)
{
    int64_t k = 0, at = 0;
    for (int64_t v = lo; v < hi; v++) k += unlike(parent, level, v);
    BB_CHECK(bb_malloc((size_t)(k > 0 ? k : 1) * (size_t)(e->ndev - 1) * 8,
                       "the R6 breaks to send", &s->send));
    for (int r = 0; r < e->ndev; r++) {
        s->counts[r] = r == e->first ? 0 : k;
        for (int64_t v = lo; v < hi && r != e->first; v++)
            if (unlike(parent, level, v)) s->send[at++] = v;
    }
    return BOXBFS_OK;
}

/* Rows [lo, hi)'s (v, parent) pairs, each to the process of the parent's row. */
static boxbfs_status_t send_children(boxbfs_engine_t e, int64_t lo, int64_t hi, int64_t root,
                                     const int64_t *parent, shared_t *s)
{
    const int64_t n = e->graph->n;
    int64_t total = 0, *at;
    memset(s->counts, 0, (size_t)e->ndev * sizeof *s->counts);
    for (int64_t v = lo; v < hi; v++)
        if (sends_child(n, lo, hi, root, v, parent[v]))
            s->counts[bb_partition_owner(&e->part, (uint64_t)parent[v])]++;
    for (int r = 0; r < e->ndev; r++) total += s->counts[r];
    BB_CHECK(bb_malloc((size_t)(total > 0 ? total : 1) * 16, "the tree pairs to send",
                       &s->send));
    BB_CHECK(bb_malloc((size_t)e->ndev * sizeof *at, "the tree pair offsets", &at));
    at[0] = 0;
    for (int r = 1; r < e->ndev; r++) at[r] = at[r - 1] + s->counts[r - 1];
    for (int64_t v = lo; v < hi; v++) {
        int64_t p = parent[v], *pair;
        if (!sends_child(n, lo, hi, root, v, p)) continue;
        pair = s->send + 2 * at[bb_partition_owner(&e->part, (uint64_t)p)]++;
        pair[0] = v;
        pair[1] = p;
    }
    free(at);
    return BOXBFS_OK;
}

static void free_shared(shared_t *s)
{
    free(s->unlike);
    free(s->children);
    free(s->send);
    free(s->counts);
    memset(s, 0, sizeof *s);
}

/* What this process's check reads of the other rows, from their processes:
 * the levels (into level), the root's parent, the R6 breaks and, for
 * directed slices, the pairs whose parent's row is here. Every process
 * returns the same status. */
static boxbfs_status_t share(boxbfs_engine_t e, int64_t root, int64_t lo, int64_t hi,
                             const int64_t *parent, int32_t *level, shared_t *s,
                             bb_other_rows_t *o_p)
{
    boxbfs_status_t st;
    int64_t root_parent = root >= lo && root < hi ? parent[root] : INT64_MIN;
    int pairs = e->graph->directed && bb_graph_is_slice(e->graph);

    st = bb_calloc((size_t)e->ndev, sizeof *s->counts, "record counts", &s->counts);
    if (st == BOXBFS_OK) st = send_unlike(e, lo, hi, parent, level, s);
    BB_CHECK(e->team->first_error(e, st));
    BB_CHECK(e->team->exchange_records(e, s->send, s->counts, 1, &s->unlike, &s->nunlike));
    free(s->send);
    s->send = NULL;
    if (pairs) {
        BB_CHECK(e->team->first_error(e, send_children(e, lo, hi, root, parent, s)));
        BB_CHECK(e->team->exchange_records(e, s->send, s->counts, 2, &s->children,
                                           &s->nchildren));
    }
    BB_CHECK(e->team->allgather_levels(e, level));
    BB_CHECK(e->team->allreduce(e, &root_parent, 1, 1));   /* only its row's process has it */
    *o_p = (bb_other_rows_t){root_parent, s->unlike, s->nunlike, s->children, s->nchildren};
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_engine_check_tree(boxbfs_engine_t e, int64_t root, int64_t *parent,
                                         int32_t *level, int validate, boxbfs_tree_info_t *info_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_tree_info_t info = {0, 0, 0, 0};
    shared_t shared = {0};
    bb_other_rows_t others;
    int64_t lo, hi, sums[3], levels;
    double t0 = bb_now_s(), t1 = t0;

    if (e == NULL || parent == NULL || level == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_check_tree: %s is NULL",
                            e == NULL ? "engine" : parent == NULL ? "parent array"
                                                                  : "level array");
    lo = (int64_t)e->part.lo[e->first];
    hi = (int64_t)e->part.lo[e->first + e->nlocal];
    if (!validate) {
        bb_tree_count_rows(e->graph, lo, hi, level, &info);   /* its rows' levels: here */
    } else if (e->nlocal == e->ndev && e->graph->on_devices) {   /* columns on the devices */
        st = bb_engine_validate_built(e, root, parent, level, &info);
    } else if (e->nlocal == e->ndev) {   /* one process: the whole tree is here */
        st = bb_validate_rows(e->graph, lo, hi, root, parent, level, e->opts.max_depth, NULL,
                              &info);
    } else {
        st = share(e, root, lo, hi, parent, level, &shared, &others);
        t1 = bb_now_s();
        if (st == BOXBFS_OK)
            st = bb_validate_rows(e->graph, lo, hi, root, parent, level, e->opts.max_depth,
                                  &others, &info);
        boxbfs_log(BOXBFS_LOG_DEBUG, "tree check: %.3f s sharing the levels, %lld R6 breaks "
                   "and %lld tree pairs, %.3f s checking rows [%lld, %lld)", t1 - t0,
                   (long long)shared.nunlike, (long long)shared.nchildren, bb_now_s() - t1,
                   (long long)lo, (long long)hi);
        free_shared(&shared);
    }
    BB_CHECK(e->team->first_error(e, st));
    sums[0] = info.reached;
    sums[1] = info.input_edges;
    sums[2] = info.arcs;
    levels = info.levels;
    BB_CHECK(e->team->allreduce(e, sums, 3, 0));
    BB_CHECK(e->team->allreduce(e, &levels, 1, 1));
    info.reached = sums[0];
    info.input_edges = sums[1];
    info.arcs = sums[2];
    info.levels = (int32_t)levels;
    if (info_p) *info_p = info;
    return BOXBFS_OK;
}
