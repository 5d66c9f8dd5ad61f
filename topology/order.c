/* The topology-aware device order of the left-right ring [003 §5.2]. Step
 * j = 1 of the schedule pairs neighbours (i, i + 1) and carries the most
 * traffic-independent work of any step, so the fastest links should join
 * neighbours. Rule (greedy nearest neighbour): start at device 0; append the
 * unplaced device whose link from the last placed one has the highest
 * bandwidth, then the lowest latency, then the lowest index. When every link
 * is equal this is the identity. */
#include "config.h"

#include "topology/topology.h"

void bb_topo_ring_order(const bb_linkmat_t *L, int *perm)
{
    int n = L->ndev;
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = 1; i < n; i++) {
        int last = perm[i - 1], best = i;
        for (int k = i + 1; k < n; k++) {
            size_t cb = (size_t)last * n + perm[best], ck = (size_t)last * n + perm[k];
            /* slower than the best so far: skip; equal bandwidth: lower latency wins */
            if (L->bw[ck] > L->bw[cb] || (L->bw[ck] == L->bw[cb] && L->lat[ck] < L->lat[cb]))
                best = k;
        }
        /* keep the remaining devices in index order: move best to i, shift the rest */
        int chosen = perm[best];
        for (int k = best; k > i; k--) perm[k] = perm[k - 1];
        perm[i] = chosen;
    }
}
