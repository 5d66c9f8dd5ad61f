/* Growable edge lists (bb_edges_t): the common currency between the loaders,
 * the Kronecker generator and the CSR builder (graph.h). Capacity doubles on
 * demand; every allocation failure is reported as NO_MEMORY. */
#include "config.h"

#include "graph/graph.h"

#include <stdint.h>
#include <stdlib.h>

#include "common/error.h"

boxbfs_status_t bb_edges_init(bb_edges_t *edges, int64_t capacity)
{
    int64_t *src = NULL, *dst = NULL;
    boxbfs_status_t st;
    if (edges == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "edge list is NULL");
    if (capacity < 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "negative edge list capacity %lld",
                            (long long)capacity);
    if ((uint64_t)capacity > SIZE_MAX / sizeof(int64_t))
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "edge list of %lld edges does not fit in memory",
                            (long long)capacity);
    BB_CHECK_GOTO(bb_malloc((size_t)capacity * sizeof *src, "edge sources", &src), st, out_fail);
    BB_CHECK_GOTO(bb_malloc((size_t)capacity * sizeof *dst, "edge targets", &dst), st, out_fail);
    edges->n = 0;
    edges->count = 0;
    edges->capacity = capacity;
    edges->src = src;
    edges->dst = dst;
    return BOXBFS_OK;

out_fail:
    free(src);
    return st;
}

/* Grow both arrays to at least need edges (doubling). On failure the list is
 * unchanged (realloc keeps the old block). */
static boxbfs_status_t grow(bb_edges_t *edges, int64_t need)
{
    int64_t cap = edges->capacity < 16 ? 16 : edges->capacity;
    int64_t *p;
    while (cap < need) {
        if (cap > INT64_MAX / 2) { cap = need; break; }
        cap *= 2;
    }
    if ((uint64_t)cap > SIZE_MAX / sizeof(int64_t))
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "edge list of %lld edges does not fit in memory",
                            (long long)cap);
    p = realloc(edges->src, (size_t)cap * sizeof *p);
    if (p == NULL) goto out_nomem;
    edges->src = p;
    p = realloc(edges->dst, (size_t)cap * sizeof *p);
    if (p == NULL) goto out_nomem;   /* src is larger than needed: harmless */
    edges->dst = p;
    edges->capacity = cap;
    return BOXBFS_OK;

out_nomem:
    return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot grow the edge list to %lld edges (%zu bytes)",
                        (long long)cap, (size_t)cap * 2 * sizeof(int64_t));
}

boxbfs_status_t bb_edges_push(bb_edges_t *edges, int64_t src, int64_t dst)
{
    if (edges->count == edges->capacity) BB_CHECK(grow(edges, edges->count + 1));
    edges->src[edges->count] = src;
    edges->dst[edges->count] = dst;
    edges->count++;
    return BOXBFS_OK;
}

void bb_edges_free(bb_edges_t *edges)
{
    if (edges == NULL) return;
    free(edges->src);
    free(edges->dst);
    edges->src = edges->dst = NULL;
    edges->count = edges->capacity = 0;
}
