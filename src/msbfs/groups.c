/* GroupBy [000 §5.2]: outdegree rules that put sources with shared early
 * frontiers in one group. Rule 1: a source's out-degree is below p. Rule 2:
 * two sources have a common neighbor (their hub: the neighbor of highest
 * out-degree, ties to the smaller id) whose out-degree is above q.
 *
 * A group costs little when its instances are in step: a bottom-up level
 * stops at a vertex only once every instance still searching has reached it
 * (driver.c). How soon a search reaches the bulk of the graph follows the
 * out-degree of the source's hub, so the sources go in three classes, each
 * by hub out-degree (highest first), then hub, own degree and index:
 *   1. out-degree >= p (rule 1 fails: hubs themselves, in the bulk at once);
 *   2. both rules hold: a hub's bucket fills groups, and small buckets are
 *      combined with those of hubs of similar degree (the paper combines
 *      groups with different high-outdegree vertices);
 *   3. the rest: no neighbor above q, far from every hub.
 * The paper groups the remainder at random. In the given order, the
 * remainder's hubs and its far sources shared the last group, the outlier
 * (kron:20, 1024 sources, groups of 128: 65 M arcs touched against ~18 M
 * for the others; kron:24 on a GPU: 40 ms against 16): in every bottom-up
 * level the far instances had not arrived where the hubs' had, and no
 * vertex's scan ended early. In these classes all groups touch 102 M arcs
 * instead of 190 M (docs/performance.md). */
#include "config.h"

#include <stdlib.h>

#include "common/error.h"
#include "graph/graph.h"
#include "msbfs/msbfs.h"

typedef struct {
    int cls;                /* 0: out-degree >= p; 1: both rules hold; 2: the rest */
    int64_t hub_degree;     /* out-degree of the hub (0: no neighbor) */
    int64_t hub, degree;    /* hub -1: no neighbor */
    int index;
} key_t_;

static int cmp_key(const void *a, const void *b)
{
    const key_t_ *x = a, *y = b;
    if (x->cls != y->cls) return x->cls - y->cls;
    if (x->hub_degree != y->hub_degree) return x->hub_degree > y->hub_degree ? -1 : 1;
    if (x->hub != y->hub) return x->hub < y->hub ? -1 : 1;
    if (x->degree != y->degree) return x->degree < y->degree ? -1 : 1;
    return x->index - y->index;
}

boxbfs_status_t bb_msbfs_group_order(boxbfs_graph_t g, const int64_t *sources, int nsources,
                                     const boxbfs_msbfs_options_t *o, int *order_p)
{
    key_t_ *keys;
    BB_CHECK(bb_graph_require_whole(g, "multi-source BFS"));
    BB_CHECK(bb_malloc((size_t)(nsources > 0 ? nsources : 1) * sizeof *keys, "group keys", &keys));
    for (int i = 0; i < nsources; i++) {
        int64_t s = sources[i], deg = g->offsets[s + 1] - g->offsets[s], hub = -1, hub_deg = 0;
        for (int64_t e = g->offsets[s]; o->groupby && e < g->offsets[s + 1]; e++) {
            int64_t w = g->columns[e], d = g->offsets[w + 1] - g->offsets[w];
            if (hub < 0 || d > hub_deg || (d == hub_deg && w < hub)) {
                hub_deg = d;
                hub = w;
            }
        }
        keys[i].cls = deg >= o->groupby_p ? 0 : hub >= 0 && hub_deg > o->groupby_q ? 1 : 2;
        keys[i].hub_degree = hub_deg;
        keys[i].hub = hub;
        keys[i].degree = deg;
        keys[i].index = i;
    }
    if (o->groupby) qsort(keys, (size_t)nsources, sizeof *keys, cmp_key);
    for (int i = 0; i < nsources; i++) order_p[i] = keys[i].index;
    free(keys);
    return BOXBFS_OK;
}
