/* boxbfs_graph_stats: out-degree statistics and weakly connected components
 * (union-find with path halving, near-linear) of a built graph. Isolated
 * vertices are those with no arc in or out (self-loops are already gone), so
 * for undirected graphs they are exactly the vertices of degree 0. */
#include "config.h"

#include "graph/graph.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/error.h"

static inline int64_t find_root(int64_t *parent, int64_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];   /* path halving */
        v = parent[v];
    }
    return v;
}

boxbfs_status_t boxbfs_graph_stats(boxbfs_graph_t graph, boxbfs_graph_stats_t *stats_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_stats_t s = {0};
    int64_t *parent = NULL, *size = NULL;
    double sum = 0.0, sumsq = 0.0;
    int64_t n;

    if (graph == NULL || stats_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph stats: %s is NULL",
                            graph == NULL ? "graph" : "output");
    BB_CHECK(bb_graph_require_whole(graph, "graph statistics"));
    n = graph->n;
    s.vertices = n;
    s.arcs = graph->arcs;
    s.input_edges = graph->input_edges;
    s.self_loops = graph->self_loops;
    s.duplicate_arcs = graph->duplicate_arcs;
    if (n <= 0) {
        *stats_p = s;
        return BOXBFS_OK;
    }

    s.degree_min = INT64_MAX;
    for (int64_t v = 0; v < n; v++) {
        int64_t d = graph->offsets[v + 1] - graph->offsets[v];
        if (d < s.degree_min) s.degree_min = d;
        if (d > s.degree_max) s.degree_max = d;
        sum += (double)d;
    }
    s.degree_mean = sum / (double)n;
    for (int64_t v = 0; v < n; v++) {   /* second pass: no cancellation */
        double e = (double)(graph->offsets[v + 1] - graph->offsets[v]) - s.degree_mean;
        sumsq += e * e;
    }
    s.degree_stddev = sqrt(sumsq / (double)n);

    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *parent, "component labels", &parent), st, out_free);
    BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *size, "component sizes", &size), st, out_free);
    for (int64_t v = 0; v < n; v++) parent[v] = v;
    for (int64_t u = 0; u < n; u++) {
        for (int64_t k = graph->offsets[u]; k < graph->offsets[u + 1]; k++) {
            int64_t v = graph->columns[k], ru, rv;
            if (!graph->directed && v < u) continue;   /* stored both ways: one suffices */
            ru = find_root(parent, u);
            rv = find_root(parent, v);
            if (ru == rv) continue;
            if (ru < rv) parent[rv] = ru;   /* the smaller id becomes the root */
            else parent[ru] = rv;
        }
    }
    for (int64_t v = 0; v < n; v++) size[find_root(parent, v)]++;
    for (int64_t v = 0; v < n; v++) {
        if (size[v] == 0) continue;
        s.components++;
        if (size[v] == 1) s.isolated++;
        if (size[v] > s.largest_component) s.largest_component = size[v];
    }
    *stats_p = s;

out_free:
    free(size);
    free(parent);
    return st;
}
