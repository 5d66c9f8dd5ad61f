/* Hubs split by destination (docs/architecture.md "Hubs split by
 * destination"; kernels.h bb_peers_split_hubs). In the search across
 * devices a vertex of at least hub_degree out-arcs is a hub, and every
 * device holds, after its own rows, the part of each hub's row that leads
 * into its own range (rows are sorted, so each part is a run of the row). A
 * big top-down level then expands each hub of its frontier on every device
 * at once, each into its own range: the owner no longer expands the whole
 * row alone (kron:24's second level: 188 hubs, 1.7 M arcs, two thirds of
 * them on one device) nor sends the heads it finds to the others. This
 * file picks the hubs, sizes each device's part and writes it. */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define HUB_MIN_DEGREE 1024   /* auto: the least hub degree, */
#define HUB_MAX 262144        /* doubled until at most this many hubs */

static uint64_t count_hubs(const struct boxbfs_graph *g, int64_t degree)
{
    uint64_t count = 0;
    for (int64_t v = 0; v < g->n; v++) count += g->offsets[v + 1] - g->offsets[v] >= degree;
    return count;
}

/* The first arc of row v whose head is at least x (the row is sorted). */
static int64_t row_lower_bound(const struct boxbfs_graph *g, int64_t v, uint64_t x)
{
    int64_t a = g->offsets[v], b = g->offsets[v + 1];
    while (a < b) {
        int64_t mid = a + (b - a) / 2;
        if ((uint64_t)g->columns[mid - g->columns_base] < x) a = mid + 1;
        else b = mid;
    }
    return a;
}

void bb_hubs_free(boxbfs_engine_t e)
{
    free(e->hub_gid);
    free(e->hub_first);
    free(e->hub_arcs);
    e->hub_gid = e->hub_first = NULL;
    e->hub_arcs = NULL;
    e->hubs = e->hub_degree = 0;
}

boxbfs_status_t bb_hubs_choose(boxbfs_engine_t e)
{
    const struct boxbfs_graph *g = e->graph;
    int64_t degree = e->opts.hub_degree;
    uint64_t count;
    uint32_t h = 0;
    if (!e->search_peers || degree == 0 || g->row_lo != 0 || g->row_hi != g->n)
        return BOXBFS_OK;
    if (degree < 0)
        for (degree = HUB_MIN_DEGREE; count_hubs(g, degree) > HUB_MAX; degree *= 2) {}
    count = count_hubs(g, degree);
    if (count == 0) return BOXBFS_OK;
    if (count > UINT32_MAX / 2 || degree > UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--hub-degree %lld makes %llu hubs; at most 2^31: raise it",
                            (long long)degree, (unsigned long long)count);
    BB_CHECK(bb_calloc(count, sizeof *e->hub_gid, "the hubs' ids", &e->hub_gid));
    BB_CHECK(bb_calloc((size_t)e->ndev + 1, sizeof *e->hub_first, "the hubs' devices",
                       &e->hub_first));
    BB_CHECK(bb_calloc((size_t)e->ndev, sizeof *e->hub_arcs, "the hubs' arcs", &e->hub_arcs));
    for (int64_t v = 0; v < g->n; v++) {
        if (g->offsets[v + 1] - g->offsets[v] < degree) continue;
        for (int d = 0; d < e->ndev; d++)   /* the part of v's row that leads into d */
            e->hub_arcs[d] += (uint64_t)(row_lower_bound(g, v, e->part.lo[d + 1]) -
                                         row_lower_bound(g, v, e->part.lo[d]));
        e->hub_gid[h++] = (uint32_t)v;
    }
    for (int d = 0, i = 0; d <= e->ndev; d++) {   /* the first hub at or past lo[d] */
        while (i < (int64_t)count && e->hub_gid[i] < e->part.lo[d]) i++;
        e->hub_first[d] = (uint32_t)i;
    }
    e->hubs = (uint32_t)count;
    e->hub_degree = (uint32_t)degree;
    return BOXBFS_OK;
}

/* Where each hub's part of device d's rows ends, counted from the first. */
static boxbfs_status_t hub_ends(const struct boxbfs_engine *e, int d, int64_t *ends)
{
    const struct boxbfs_graph *g = e->graph;
    int64_t end = 0;
    for (uint32_t h = 0; h < e->hubs; h++) {
        int64_t v = e->hub_gid[h];
        end += row_lower_bound(g, v, e->part.lo[d + 1]) - row_lower_bound(g, v, e->part.lo[d]);
        ends[h] = end;
    }
    return (uint64_t)end == e->hub_arcs[d]
               ? BOXBFS_OK
               : bb_error_set(BOXBFS_ERR_INTERNAL, "hubs of device %d: %lld arcs, planned %llu",
                              d, (long long)end, (unsigned long long)e->hub_arcs[d]);
}

boxbfs_status_t bb_hubs_upload(boxbfs_engine_t e, int d)
{
    enum { CHUNK = 1 << 22 };
    const struct boxbfs_graph *g = e->graph;
    bb_engine_dev_t *D = &e->devs[d];
    bb_kstate_t *k = &D->k;
    uint64_t nloc = k->hi - k->lo, own = (uint64_t)(g->offsets[k->hi] - g->offsets[k->lo]);
    uint64_t lo = e->part.lo[d], hi = e->part.lo[d + 1], fill = 0, at = own;
    int64_t *ends;
    uint32_t *buf;
    boxbfs_status_t st;
    if (e->hubs == 0) return BOXBFS_OK;
    k->hubs = e->hubs;
    k->hub_degree = e->hub_degree;
    k->hub_first = e->hub_first[d];
    k->hub_own = e->hub_first[d + 1] - e->hub_first[d];
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)e->hubs * 4, &k->hub_gid));
    BB_CHECK(bb_engine_dev_alloc(e, d, (size_t)e->hubs * 4, &k->hub_level));
    BB_CHECK(e->ops->copy_h2d(D->dev, (uint32_t *)k->hub_gid, e->hub_gid, (size_t)e->hubs * 4));
    BB_CHECK(bb_malloc((size_t)e->hubs * 8, "the hubs' row ends", &ends));
    st = hub_ends(e, d, ends);
    for (uint32_t h = 0; h < e->hubs && st == BOXBFS_OK; h++) ends[h] += (int64_t)own;
    if (st == BOXBFS_OK)   /* rows nloc + 1 .. nloc + hubs end where each hub's part ends */
        st = e->ops->copy_h2d(D->dev, (int64_t *)k->offsets + nloc + 1, ends, (size_t)e->hubs * 8);
    if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
    free(ends);
    BB_CHECK(st);
    BB_CHECK(bb_malloc((size_t)CHUNK * 4, "the hubs' upload buffer", &buf));
    for (uint32_t h = 0; h < e->hubs && st == BOXBFS_OK; h++) {
        int64_t v = e->hub_gid[h], a = row_lower_bound(g, v, lo), b = row_lower_bound(g, v, hi);
        for (int64_t x = a; x < b && st == BOXBFS_OK; x++) {
            buf[fill++] = (uint32_t)g->columns[x - g->columns_base];
            if (fill < CHUNK) continue;
            st = e->ops->copy_h2d(D->dev, (uint32_t *)k->columns + at, buf, fill * 4);
            if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
            at += fill;
            fill = 0;
        }
    }
    if (st == BOXBFS_OK && fill) {   /* the last chunk */
        st = e->ops->copy_h2d(D->dev, (uint32_t *)k->columns + at, buf, fill * 4);
        if (st == BOXBFS_OK) st = e->ops->sync(D->dev);
    }
    free(buf);
    return st;
}

boxbfs_status_t bb_hubs_rows(const struct boxbfs_engine *e, int d, int64_t **rows_p)
{
    const int64_t *off = e->graph->offsets;
    uint64_t lo = e->part.lo[d], nloc = e->part.lo[d + 1] - lo;
    int64_t *rows;
    boxbfs_status_t st;
    BB_CHECK(bb_malloc((nloc + e->hubs + 1) * 8, "the rows' offsets", &rows));
    memcpy(rows, off + lo, (nloc + 1) * 8);
    st = hub_ends(e, d, rows + nloc + 1);
    for (uint32_t h = 0; h < e->hubs; h++) rows[nloc + 1 + h] += rows[nloc];
    if (st != BOXBFS_OK) free(rows);
    else *rows_p = rows;
    return st;
}
