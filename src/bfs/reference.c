/* Sequential reference BFS: a FIFO queue over the CSR out-arcs (undirected
 * graphs store both directions). The ground truth that tests compare every
 * backend against; one queue of n ids is the only allocation, so a search is
 * O(n + arcs) time. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "boxbfs.h"
#include "common/error.h"
#include "graph/graph.h"

boxbfs_status_t boxbfs_bfs_reference(boxbfs_graph_t graph, int64_t root, int64_t *parent,
                                     int32_t *level)
{
    boxbfs_status_t st = BOXBFS_OK;
    int64_t *queue = NULL;
    int64_t head = 0, tail = 0, n;
    const int64_t *offsets, *columns;

    if (graph == NULL || parent == NULL || level == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "reference BFS: %s is NULL",
                            graph == NULL ? "graph" : parent == NULL ? "parent array"
                                                                     : "level array");
    BB_CHECK(bb_graph_require_whole(graph, "the reference BFS"));
    n = graph->n;
    if (root < 0 || root >= n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "root %lld out of range [0, %lld)",
                            (long long)root, (long long)n);
    offsets = graph->offsets;
    columns = graph->columns;
    BB_CHECK(bb_malloc((size_t)n * sizeof *queue, "the reference BFS queue", &queue));

    for (int64_t v = 0; v < n; v++) {
        parent[v] = BOXBFS_UNREACHED;
        level[v] = BOXBFS_UNREACHED;
    }
    parent[root] = root;
    level[root] = 0;
    queue[tail++] = root;
    /* Every vertex enters the queue once (when its parent is set), so the
     * queue never holds more than n ids and head/tail never wrap. */
    while (head < tail) {
        int64_t u = queue[head++];
        int32_t next;
        if (level[u] == INT32_MAX)
            BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, out,
                         "reference BFS: depth of vertex %lld exceeds the 32-bit level range",
                         (long long)u);
        next = level[u] + 1;
        for (int64_t j = offsets[u]; j < offsets[u + 1]; j++) {
            int64_t v = columns[j];
            if (parent[v] != BOXBFS_UNREACHED) continue;
            parent[v] = u;
            level[v] = next;
            queue[tail++] = v;
        }
    }
out:
    free(queue);
    return st;
}
