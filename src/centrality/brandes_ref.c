/* The sequential reference for shortest-path counts and betweenness
 * [Brandes 2001]: a FIFO BFS over the CSR out-arcs that adds each vertex's
 * count to its children one level down, and the backward accumulation of
 * dependencies in reverse BFS order. Independent of the driver and the
 * kernels it checks: plain loops, doubles for betweenness. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "centrality/centrality.h"
#include "common/error.h"
#include "graph/graph.h"

static boxbfs_status_t check_root(boxbfs_graph_t g, int64_t root, const char *what)
{
    BB_CHECK(bb_graph_require_whole(g, what));
    if (root < 0 || root >= g->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "%s: root %lld out of range [0, %lld)", what,
                            (long long)root, (long long)g->n);
    return BOXBFS_OK;
}

/* BFS order into order (n), levels into level; returns the count reached. */
static int64_t bfs_order(boxbfs_graph_t g, int64_t root, int32_t *level, int64_t *order)
{
    int64_t head = 0, tail = 0;
    for (int64_t v = 0; v < g->n; v++) level[v] = -1;
    level[root] = 0;
    order[tail++] = root;
    while (head < tail) {
        int64_t u = order[head++];
        for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
            int64_t v = g->columns[e];
            if (level[v] == -1) {
                level[v] = level[u] + 1;
                order[tail++] = v;
            }
        }
    }
    return tail;
}

boxbfs_status_t bb_ref_sigma(boxbfs_graph_t g, int64_t root, int32_t *level, uint64_t *sigma,
                             double *sigma_d, int *overflow_p)
{
    int64_t *order, reached;
    int overflow = 0;
    BB_CHECK(check_root(g, root, "the reference shortest-path counts"));
    BB_CHECK(bb_malloc((size_t)g->n * sizeof *order, "the reference BFS order", &order));
    reached = bfs_order(g, root, level, order);
    if (sigma) memset(sigma, 0, (size_t)g->n * sizeof *sigma);
    if (sigma_d) memset(sigma_d, 0, (size_t)g->n * sizeof *sigma_d);
    if (sigma) sigma[root] = 1;
    if (sigma_d) sigma_d[root] = 1;
    for (int64_t i = 0; i < reached; i++) {
        int64_t u = order[i];
        for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
            int64_t v = g->columns[e];
            if (level[v] != level[u] + 1) continue;
            if (sigma) {
                uint64_t old = sigma[v];
                sigma[v] += sigma[u];
                overflow |= sigma[v] < old;
            }
            if (sigma_d) sigma_d[v] += sigma_d[u];
        }
    }
    free(order);
    if (overflow_p) *overflow_p = overflow;
    return BOXBFS_OK;
}

boxbfs_status_t bb_sigma_double_from_levels(boxbfs_graph_t g, int64_t root, const int32_t *level,
                                            double *sigma_d)
{
    int64_t *order, *start, n = g->n;
    int32_t depth = 0;
    BB_CHECK(check_root(g, root, "the shortest-path counts in double"));
    for (int64_t v = 0; v < n; v++)
        if (level[v] > depth) depth = level[v];
    BB_CHECK(bb_malloc((size_t)n * sizeof *order, "the vertices by level", &order));
    if (bb_calloc((size_t)depth + 2, sizeof *start, "the level starts", &start) != BOXBFS_OK) {
        free(order);
        return BOXBFS_ERR_NO_MEMORY;
    }
    /* counting sort of the reached vertices by level */
    for (int64_t v = 0; v < n; v++)
        if (level[v] >= 0) start[level[v] + 1]++;
    for (int32_t d = 0; d <= depth; d++) start[d + 1] += start[d];
    for (int64_t v = 0; v < n; v++)
        if (level[v] >= 0) order[start[level[v]]++] = v;
    memset(sigma_d, 0, (size_t)n * sizeof *sigma_d);
    sigma_d[root] = 1;
    /* start[d] is now the end of level d: push each level's counts down */
    for (int64_t i = 0; i < (depth >= 0 ? start[depth] : 0); i++) {
        int64_t u = order[i];
        for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
            if (level[g->columns[e]] == level[u] + 1) sigma_d[g->columns[e]] += sigma_d[u];
    }
    free(start);
    free(order);
    return BOXBFS_OK;
}

boxbfs_status_t bb_ref_brandes(boxbfs_graph_t g, const int64_t *sources, int64_t nsources,
                               double *bc)
{
    boxbfs_status_t st = BOXBFS_OK;
    int64_t n = g->n, *order = NULL;
    int32_t *level = NULL;
    double *sigma = NULL, *delta = NULL;
    BB_CHECK(bb_graph_require_whole(g, "the reference betweenness"));
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *order, "the BFS order", &order), st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *level, "the levels", &level), st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *sigma, "the counts", &sigma), st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *delta, "the dependencies", &delta), st, out);
    memset(bc, 0, (size_t)n * sizeof *bc);
    for (int64_t i = 0; i < nsources; i++) {
        int64_t s = sources[i], reached;
        BB_CHECK_GOTO(check_root(g, s, "the reference betweenness"), st, out);
        BB_CHECK_GOTO(bb_ref_sigma(g, s, level, NULL, sigma, NULL), st, out);
        reached = bfs_order(g, s, level, order);
        memset(delta, 0, (size_t)n * sizeof *delta);
        for (int64_t j = reached - 1; j >= 0; j--) {
            int64_t v = order[j];
            for (int64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
                int64_t w = g->columns[e];
                if (level[w] == level[v] + 1) delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
            }
            if (v != s) bc[v] += delta[v];
        }
    }
out:
    free(order);
    free(level);
    free(sigma);
    free(delta);
    return st;
}

void bb_bc_scale(double *bc, int64_t n, int directed, int normalized, int64_t nsources)
{
    double scale = 1.0;
    if (normalized) scale = n > 2 ? 1.0 / ((double)(n - 1) * (double)(n - 2)) : 1.0;
    else if (!directed) scale = 0.5;
    if (nsources > 0 && nsources < n) scale *= (double)n / (double)nsources;
    for (int64_t v = 0; v < n; v++) bc[v] *= scale;
}
