/* boxbfs_engine_check_tree: Graph500 validation (or only the TEPS counts) of
 * a search's tree over all processes of the engine. Rank 0 holds the
 * gathered tree and broadcasts it; each process checks the rows of its
 * devices (bfs/validate.c on a range) and the results are combined, so every
 * process returns the same status, message and counts. With the thread team
 * this is boxbfs_validate on the whole graph. */
#include "config.h"

#include "engine/engine.h"

#include "bfs/bfs.h"
#include "common/error.h"

boxbfs_status_t boxbfs_engine_check_tree(boxbfs_engine_t e, int64_t root, int64_t *parent,
                                         int32_t *level, int validate, boxbfs_tree_info_t *info_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_tree_info_t info = {0, 0, 0, 0};
    int64_t n, lo, hi, sums[3], levels;

    if (e == NULL || parent == NULL || level == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_check_tree: %s is NULL",
                            e == NULL ? "engine" : parent == NULL ? "parent array"
                                                                  : "level array");
    n = e->graph->n;
    lo = (int64_t)e->part.lo[e->first];
    hi = (int64_t)e->part.lo[e->first + e->nlocal];
    BB_CHECK(e->team->bcast(e, parent, (size_t)n * sizeof *parent));
    BB_CHECK(e->team->bcast(e, level, (size_t)n * sizeof *level));
    if (validate)
        st = bb_validate_rows(e->graph, lo, hi, root, parent, level, e->opts.max_depth, NULL,
                              &info);
    else bb_tree_count_rows(e->graph, lo, hi, level, &info);
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
