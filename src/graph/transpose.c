/* The transpose of a CSR: every vertex's in-arcs as rows, sorted ascending
 * (a counting sort over the sources in order). The engine's bottom-up step
 * on a directed graph scans in-arcs (DESIGN "Data model": the reverse CSR is
 * kept only when bottom-up needs it), and boxbfs_graph_reverse turns a
 * directed graph around for searches against the arcs' direction. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "graph/graph.h"

boxbfs_status_t bb_graph_transpose_csr(const struct boxbfs_graph *g, int64_t **offsets_p,
                                       int64_t **columns_p)
{
    int64_t n = g->n, *off = NULL, *col = NULL, *fill = NULL;
    boxbfs_status_t st;
    BB_CHECK(bb_graph_require_whole(g, "the in-arcs of a directed graph (bottom-up, --reverse)"));
    BB_CHECK(bb_calloc((size_t)n + 1, sizeof *off, "in-arc offsets", &off));
    BB_CHECK_GOTO(bb_malloc((size_t)(g->arcs > 0 ? g->arcs : 1) * sizeof *col, "in-arc columns",
                            &col), st, fail);
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *fill, "in-arc cursors", &fill), st, fail);
    for (int64_t e = 0; e < g->arcs; e++) off[g->columns[e] + 1]++;
    for (int64_t v = 0; v < n; v++) off[v + 1] += off[v];
    memcpy(fill, off, (size_t)n * sizeof *fill);
    for (int64_t u = 0; u < n; u++)
        for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) col[fill[g->columns[e]]++] = u;
    free(fill);
    *offsets_p = off;
    *columns_p = col;
    return BOXBFS_OK;
fail:
    free(off);
    free(col);
    return st;
}

boxbfs_status_t boxbfs_graph_reverse(boxbfs_graph_t graph, boxbfs_graph_t *reversed_p)
{
    struct boxbfs_graph *r;
    boxbfs_status_t st;
    if (graph == NULL || reversed_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_graph_reverse: NULL argument");
    BB_CHECK(bb_calloc(1, sizeof *r, "the reversed graph", &r));
    r->n = graph->n;
    r->arcs = graph->arcs;
    /* directed: each stored arc, credited to its new source; undirected: as given */
    r->input_edges = graph->directed ? graph->arcs : graph->input_edges;
    r->directed = graph->directed;
    r->row_hi = graph->n;
    snprintf(r->name, sizeof r->name, "%.240s reversed", graph->name);
    BB_CHECK_GOTO(bb_graph_transpose_csr(graph, &r->offsets, &r->columns), st, fail);
    BB_CHECK_GOTO(bb_malloc((size_t)(r->n > 0 ? r->n : 1) * sizeof *r->edge_credit,
                            "edge credits", &r->edge_credit), st, fail);
    for (int64_t v = 0; v < r->n; v++)
        r->edge_credit[v] = graph->directed || graph->edge_credit == NULL
                                ? r->offsets[v + 1] - r->offsets[v] : graph->edge_credit[v];
    BB_CHECK_GOTO(bb_graph_copy_ids(r, graph), st, fail);
    *reversed_p = r;
    return BOXBFS_OK;
fail:
    boxbfs_graph_free(r);
    return st;
}
