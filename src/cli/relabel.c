/* --relabel degree (bfs, msbfs, bc): the graph the search runs on, numbered by
 * degree (docs/architecture.md "Vertex order by degree"), with the ids the CLI
 * holds following their vertices; per-vertex files are written in the input's
 * vertex order all the same. bfs's default, --relabel auto, relabels where
 * bb_cli_relabel_pays says so (docs/performance.md "Defaults"). */
#include "config.h"

#include <string.h>

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

/* The 1 % of vertices of highest out-degree hold *share_p of the arcs: exact
 * counts per degree below 4096, log2 buckets above (a bucket taken in part
 * counts its mean degree, which can only understate the share). */
static double top_share(const struct boxbfs_graph *g)
{
    enum { EXACT = 4096, LOG = 64 };
    static int64_t exact[EXACT];
    int64_t nlog[LOG] = {0}, alog[LOG] = {0};
    double want = (double)g->n / 100, got = 0, arcs = 0;
    if (g->arcs <= 0) return 0;
    memset(exact, 0, sizeof exact);
    for (int64_t v = 0; v < g->n; v++) {
        int64_t d = g->offsets[v + 1] - g->offsets[v];
        if (d < EXACT) {
            exact[d]++;
        } else {
            int b = 0;
            while ((d >> b) > 1) b++;
            nlog[b]++;
            alog[b] += d;
        }
    }
    for (int b = LOG - 1; b >= 0 && got < want; b--) {
        if (nlog[b] == 0) continue;
        double take = nlog[b] < want - got ? (double)nlog[b] : want - got;
        arcs += (double)alog[b] * take / (double)nlog[b];
        got += take;
    }
    for (int64_t d = EXACT - 1; d > 0 && got < want; d--) {
        double take = exact[d] < want - got ? (double)exact[d] : want - got;
        arcs += take * (double)d;
        got += take;
    }
    return arcs / (double)g->arcs;
}

int bb_cli_relabel_pays(boxbfs_graph_t g, double *share_p)
{
    double share = 0;
    /* a slice cannot be renumbered; a small graph's Visited bits (n / 8 bytes)
     * stay in cache in any order */
    int pays = !bb_graph_is_slice(g) && g->n > BB_RELABEL_MIN_VERTICES &&
               (share = top_share(g)) >= BB_RELABEL_MIN_SHARE;
    if (share_p != NULL) *share_p = share;
    return pays;
}

int64_t bb_cli_input_vertex(boxbfs_graph_t g, int64_t i)
{
    return g->relabeled != NULL ? g->relabeled[i] : i;
}
