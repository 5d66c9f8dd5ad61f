/* --relabel degree (bfs, msbfs, bc): the graph the search runs on, numbered by
 * degree (README "Vertex order by degree"), with the ids the CLI holds
 * following their vertices; per-vertex files are written in the input's
 * vertex order all the same. */
#include "config.h"

#include "cli/cli.h"
#include "common/timer.h"
#include "graph/graph.h"

int bb_cli_relabel(boxbfs_graph_t *graph_p, int stripes, int64_t *ids, int64_t count,
                   double *seconds_p)
{
    boxbfs_graph_t g = *graph_p, relabeled;
    boxbfs_status_t st;
    bb_progress_t progress;   /* elapsed time on a terminal: seconds at kron:26 */
    bb_progress_tick_t tick;
    double t0 = bb_now_s();
    if (bb_graph_is_slice(g)) {
        bb_cli_error("--relabel numbers the whole graph: it does not combine with per-rank "
                     "slices (add --whole-graph)");
        return BB_EXIT_USAGE;
    }
    bb_progress_start(&progress, "relabeling by degree", 0);
    bb_progress_update(&progress, 0);
    bb_progress_tick_start(&tick, &progress);
    st = boxbfs_graph_relabel_by_degree(g, stripes, &relabeled);
    bb_progress_tick_stop(&tick);
    bb_progress_end(&progress);
    if (st != BOXBFS_OK) return bb_cli_fail(st);
    for (int64_t i = 0; i < count; i++)   /* through the external id: the same vertex */
        boxbfs_graph_internal_id(relabeled, boxbfs_graph_external_id(g, ids[i]), &ids[i]);
    boxbfs_graph_free(g);
    *graph_p = relabeled;
    *seconds_p = bb_now_s() - t0;
    boxbfs_log(BOXBFS_LOG_INFO, "relabeled by degree (%d stripes) in %.3f s", stripes, *seconds_p);
    return 0;
}

int64_t bb_cli_input_vertex(boxbfs_graph_t g, int64_t i)
{
    return g->relabeled != NULL ? g->relabeled[i] : i;
}
