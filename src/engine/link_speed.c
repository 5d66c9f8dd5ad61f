/* How fast the links between this process's devices are, as far as the
 * engine knows (docs/architecture.md "Where a search runs"): the search
 * across devices meets over the links at every level, which pays on NVLink
 * and NVSwitch; over PCIe through a host bridge, or a GPU-BOX's Ethernet
 * slots, each meeting costs what host-driven levels with contracted bulk
 * copies (the papers' method) avoid. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "engine/engine.h"
#include "topology/topology.h"

/* Slower than this is not NVLink: NVLink 4 carries 450 GB/s a direction,
 * PCIe 5 x16 about 64 GB/s, a GPU-BOX slot 2.5 GB/s. */
#define BB_NVLINK_MIN_BPS 100e9

/* A description's or a probe's figures: the first pair under the bound. */
static int slow_figures(const struct boxbfs_engine *e, char *why, size_t why_len)
{
    const bb_linkmat_t *L = &e->linkmat;
    int n = e->ndev;
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            size_t c = (size_t)s * (size_t)n + (size_t)d;
            double bw = L->bw[c];
            if (s == d || e->order[s] == e->order[d]) continue;   /* one GPU: no link */
            if (L->via_slot[c] && L->pool[s] > 0 && L->pool[s] < bw) bw = L->pool[s];
            if (L->via_slot[c] && L->pool[d] > 0 && L->pool[d] < bw) bw = L->pool[d];
            if (bw >= BB_NVLINK_MIN_BPS) continue;
            snprintf(why, why_len, "links: devices %d and %d are linked at %.3g GB/s (%s), "
                     "slower than NVLink", s, d, bw / 1e9, L->name);
            return 1;
        }
    return 0;
}

/* GPUs: NVML's NVLinks between two distinct GPUs (none: PCIe); nothing
 * known without NVML. */
static boxbfs_status_t slow_discovered(const struct boxbfs_engine *e, int *slow_p, char *why,
                                       size_t why_len)
{
    int n = e->ndev, *direct = NULL, *switch_links = NULL;
    char (*bus)[32] = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    *slow_p = 0;
    BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *bus, "bus ids", &bus), st, out);
    BB_CHECK_GOTO(bb_calloc((size_t)n * n, sizeof *direct, "NVLink counts", &direct), st, out);
    BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *switch_links, "NVLink counts", &switch_links), st,
                  out);
    for (int d = 0; d < n; d++) {
        bb_device_info_t info;
        BB_CHECK_GOTO(e->ops->describe(e->handles[d], &info), st, out);
        if (info.emulated) goto out;   /* the cpu backend: no links to weigh */
        snprintf(bus[d], sizeof bus[d], "%s", info.pci_bus_id);
    }
    if (bb_nvml_nvlinks((const char (*)[32])bus, n, direct, switch_links) != 0) goto out;
    for (int a = 0; a < n && !*slow_p; a++)
        for (int b = 0; b < n && !*slow_p; b++) {
            if (a == b || e->order[a] == e->order[b]) continue;
            if (bb_nvlink_count(direct, switch_links, n, a, b) > 0) continue;
            snprintf(why, why_len, "links: GPUs %d and %d have no NVLink between them (PCIe)",
                     e->order[a], e->order[b]);
            *slow_p = 1;
        }
out:
    free(bus);
    free(direct);
    free(switch_links);
    return st;
}

boxbfs_status_t bb_engine_slow_links(const struct boxbfs_engine *e, int *slow_p, char *why,
                                     size_t why_len)
{
    *slow_p = 0;
    if (e->ndev < 2 || e->nlocal != e->ndev) return BOXBFS_OK;
    if (e->links_described) {
        *slow_p = slow_figures(e, why, why_len);
        return BOXBFS_OK;
    }
    if (e->opts.backend != BOXBFS_BACKEND_CUDA) return BOXBFS_OK;   /* a named model: no machine */
    return slow_discovered(e, slow_p, why, why_len);
}
