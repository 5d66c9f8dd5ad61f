/* GroupBy [000 §5.2]: outdegree rules that put sources with shared early
 * frontiers in one group. Rule 1: a source's out-degree is below p. Rule 2:
 * two sources have a common neighbor (their hub: the neighbor of highest
 * out-degree, ties to the smaller id) whose out-degree is above q. Sources
 * that satisfy both are ordered by hub, then by their own degree (the
 * paper's ascending p classes), then by index, so a hub's bucket fills
 * groups and small buckets are combined with the next hubs' (rules applied
 * "combining groups with different high-outdegree vertices"); the rest
 * follow in the given order (the paper's random grouping of the remainder). */
#include "config.h"

#include <stdlib.h>

#include "common/error.h"
#include "graph/graph.h"
#include "msbfs/msbfs.h"

#include <stdlib.h>
typedef struct {
    int64_t hub, degree;    /* hub -1: the rules do not hold */
    int64_t hub_degree;     /* out-degree of the highest-degree neighbour (0: none) */
    int cls;                /* 0: out-degree >= p; 1: the rules hold; 2: the rest */
    int index;
} key_t_;

static int mode(void) { const char *m = getenv("BB_GROUPBY_MODE"); return m ? atoi(m) : 0; }
static int g_mode;

static int cmp_key(const void *a, const void *b)
{
    const key_t_ *x = a, *y = b;
    if (g_mode == 0) {
        int xr = x->hub < 0, yr = y->hub < 0;
        if (xr != yr) return xr - yr;                       /* rule-satisfying sources first */
        if (!xr && x->hub != y->hub) return x->hub < y->hub ? -1 : 1;
        if (!xr && x->degree != y->degree) return x->degree < y->degree ? -1 : 1;
        return x->index - y->index;
    }
    if (g_mode == 2 && x->cls != y->cls) return x->cls - y->cls;
    if (x->hub_degree != y->hub_degree) return x->hub_degree > y->hub_degree ? -1 : 1;
    if (g_mode == 1 || g_mode == 2) {
        int xr = x->hub < 0, yr = y->hub < 0;
        if (xr != yr) return xr - yr;
        if (x->hub != y->hub) return x->hub < y->hub ? -1 : 1;
    }
    if (x->degree != y->degree) return x->degree < y->degree ? -1 : 1;
    return x->index - y->index;
}

boxbfs_status_t bb_msbfs_group_order(boxbfs_graph_t g, const int64_t *sources, int nsources,
                                     const boxbfs_msbfs_options_t *o, int *order_p)
{
    key_t_ *keys;
    g_mode = mode();
    BB_CHECK(bb_graph_require_whole(g, "multi-source BFS"));
    BB_CHECK(bb_malloc((size_t)(nsources > 0 ? nsources : 1) * sizeof *keys, "group keys", &keys));
    for (int i = 0; i < nsources; i++) {
        int64_t s = sources[i], deg = g->offsets[s + 1] - g->offsets[s], hub = -1, hub_deg = -1, hw = -1;
        for (int64_t e = g->offsets[s]; e < g->offsets[s + 1]; e++) {
            int64_t w = g->columns[e], d = g->offsets[w + 1] - g->offsets[w];
            if (d > hub_deg || (d == hub_deg && w < hw)) {
                hub_deg = d;
                hw = w;
            }
        }
        hub = o->groupby && deg < o->groupby_p && hub_deg > o->groupby_q ? hw : -1;
        keys[i].hub = hub;
        keys[i].degree = deg;
        keys[i].hub_degree = hub_deg < 0 ? 0 : hub_deg;
        keys[i].cls = deg >= o->groupby_p ? 0 : hub >= 0 ? 1 : 2;
        keys[i].index = i;
    }
    if (o->groupby) qsort(keys, (size_t)nsources, sizeof *keys, cmp_key);
    for (int i = 0; i < nsources; i++) order_p[i] = keys[i].index;
    free(keys);
    return BOXBFS_OK;
}
