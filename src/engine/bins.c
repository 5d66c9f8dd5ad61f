/* Binned top-down levels (--expand binned; kernels.h bb_search_binned,
 * README "Binned top-down levels"): the bins' layout and room. Bin b holds
 * the arcs of a level whose heads are in [b << shift, (b + 1) << shift),
 * with room for all in-arcs of those vertices: a search expands each arc
 * once at most, so no level's arcs overflow their bin. The shift makes at
 * most 256 bins (a GPU block each; fewer bins, longer runs for the
 * scatter's writes) of at most 2^BB_BIN_SHIFT_MAX vertices (a bin's Visited
 * bits fit a block's shared memory), so up to BB_BIN_MAX << BB_BIN_SHIFT_MAX
 * vertices. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "engine/engine.h"

#define BIN_TARGET_LOG 8   /* at most 2^8 bins: a GPU block per bin */

/* The bins' shift for n vertices, or -1 where there would be too many. */
static int bin_shift(uint64_t n)
{
    int log = 0, shift;
    while (log < 63 && ((uint64_t)1 << log) < n) log++;
    shift = log - BIN_TARGET_LOG < 5 ? 5 : log - BIN_TARGET_LOG;
    if (shift > BB_BIN_SHIFT_MAX) shift = BB_BIN_SHIFT_MAX;
    return ((n + ((uint64_t)1 << shift) - 1) >> shift) <= BB_BIN_MAX ? shift : -1;
}

static uint32_t bin_count(uint64_t n, int shift)
{
    return (uint32_t)((n + ((uint64_t)1 << shift) - 1) >> shift);
}

/* Whether the engine makes bins: --expand binned where the search runs on
 * the device and the graph has few enough vertices. */
static int bins_used(const struct boxbfs_engine *e)
{
    return e->opts.expand == BOXBFS_EXPAND_BINNED && bb_search_applies(e) &&
           bin_shift((uint64_t)e->graph->n) >= 0;
}

size_t bb_bins_bytes(const struct boxbfs_engine *e, int d)
{
    uint64_t n = (uint64_t)e->graph->n;
    uint64_t arcs = (uint64_t)(e->graph->offsets[e->part.lo[d + 1]] - e->graph->offsets[e->part.lo[d]]);
    if (!bins_used(e)) return 0;
    return ((size_t)arcs + 1 + (size_t)bin_count(n, bin_shift(n)) * 2 + 1) * 8;
}

/* base[0 .. nbins]: where each bin starts, room for the in-arcs of its
 * vertices from device d's rows (undirected: a vertex's in-arcs are its row). */
static void bin_bases(const struct boxbfs_engine *e, int d, int shift, uint32_t nbins,
                      uint64_t *base)
{
    const struct boxbfs_graph *g = e->graph;
    uint64_t n = (uint64_t)g->n, lo = e->part.lo[d], hi = e->part.lo[d + 1];
    memset(base, 0, ((size_t)nbins + 1) * 8);
    if (!g->directed && lo == 0 && hi == n) {
        for (uint32_t b = 0; b < nbins; b++) {
            uint64_t end = ((uint64_t)b + 1) << shift;
            base[b + 1] = (uint64_t)(g->offsets[end < n ? end : n] - g->offsets[(uint64_t)b << shift]);
        }
    } else {
        for (int64_t a = g->offsets[lo]; a < g->offsets[hi]; a++)
            base[((uint64_t)g->columns[a - g->columns_base] >> shift) + 1]++;
    }
    for (uint32_t b = 0; b < nbins; b++) base[b + 1] += base[b];
}

boxbfs_status_t bb_bins_setup(boxbfs_engine_t e, int d)
{
    bb_kstate_t *k = &e->devs[d].k;
    uint64_t n = (uint64_t)e->graph->n, *base;
    int shift = bin_shift(n);
    uint32_t nbins;
    boxbfs_status_t st;
    if (e->opts.expand != BOXBFS_EXPAND_BINNED) return BOXBFS_OK;
    if (!bins_used(e)) {
        if (d == e->first)
            BB_WARN(-1, "--expand binned: %s; top-down levels use binsearch",
                    shift < 0 ? "the graph has more vertices than the bins can hold (2^27)"
                              : "the bins serve the search on the device only (one device, "
                                "--contract atomic, the device loop on)");
        return BOXBFS_OK;
    }
    nbins = bin_count(n, shift);
    BB_CHECK(bb_engine_dev_alloc(e, d, ((size_t)nbins + 1) * 8, &k->bin_base));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)nbins * 8, &k->bin_count));
    BB_CHECK(bb_calloc((size_t)nbins + 1, 8, "the bins' bases", &base));
    bin_bases(e, d, shift, nbins, base);
    st = bb_engine_dev_alloc(e, d, ((size_t)base[nbins] + 1) * 8, &k->bin_pairs);
    if (st == BOXBFS_OK)
        st = e->ops->copy_h2d(e->devs[d].dev, (void *)k->bin_base, base, ((size_t)nbins + 1) * 8);
    if (st == BOXBFS_OK) st = e->ops->sync(e->devs[d].dev);
    free(base);
    BB_CHECK(st);
    k->nbins = nbins;
    k->bin_shift = (uint32_t)shift;
    return BOXBFS_OK;
}
