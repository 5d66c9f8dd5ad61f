/* Device and link discovery (boxbfs_topology_*): opens the backend's
 * devices, asks each for its description (describe op) and each ordered pair
 * for its peer figures (p2p op), reads the NUMA node and CPU list of a GPU
 * from sysfs by its PCI bus id, and counts NVLinks per pair through NVML
 * when it loads (nvml.c); without NVML the link type comes from the P2P
 * attributes alone. The probe (probe.c) runs on the same open devices. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "kernels/fault.h"
#include "topology/topology.h"

struct boxbfs_topology {
    const bb_device_ops_t *ops;
    int ndev;
    bb_device_t **devs;
    boxbfs_device_info_t *info;
    boxbfs_link_info_t *links;   /* ndev x ndev */
    const char *source;
    bb_probe_t probe;
    int probed;
};

void boxbfs_topology_free(boxbfs_topology_t t)
{
    if (t == NULL) return;
    for (int d = 0; t->devs && d < t->ndev; d++)
        if (t->devs[d]) t->ops->close(t->devs[d]);
    free(t->devs);
    free(t->info);
    free(t->links);
    bb_probe_free(&t->probe);
    free(t);
}

/* First line of a small sysfs file, newline dropped; -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    if (fgets(buf, (int)len, f) == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static void numa_from_sysfs(boxbfs_device_info_t *info)
{
    char path[128], bus[32], line[256];
    size_t i;
    for (i = 0; info->pci_bus_id[i] && i < sizeof bus - 1; i++)
        bus[i] = (char)tolower((unsigned char)info->pci_bus_id[i]);
    bus[i] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/numa_node", bus);
    if (read_line(path, line, sizeof line) == 0) info->numa_node = atoi(line);
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/local_cpulist", bus);
    if (read_line(path, line, sizeof line) == 0)
        snprintf(info->cpu_affinity, sizeof info->cpu_affinity, "%s", line);
}

/* A pair both of whose devices have links into an NVSwitch is NVSWITCH (its
 * nvlinks: the source's links into the switch), whatever direct links it has. */
static void link_type(boxbfs_topology_t t, int a, int b, const int *switch_links)
{
    boxbfs_link_info_t *L = &t->links[(size_t)a * t->ndev + b];
    if (a == b) snprintf(L->type, sizeof L->type, "self");
    else if (t->info[a].emulated) snprintf(L->type, sizeof L->type, "EMULATED");
    else if (switch_links && switch_links[a] > 0 && switch_links[b] > 0)
        snprintf(L->type, sizeof L->type, "NVSWITCH");
    else if (L->nvlinks > 0) snprintf(L->type, sizeof L->type, "NVLINK x%d", L->nvlinks);
    else if (L->access) snprintf(L->type, sizeof L->type, "P2P");
    else snprintf(L->type, sizeof L->type, "HOST");
}

boxbfs_status_t boxbfs_topology_discover(boxbfs_backend_t backend, int devices,
                                         boxbfs_topology_t *topo_p)
{
    boxbfs_topology_t t;
    boxbfs_status_t st = BOXBFS_OK;
    const bb_device_ops_t *ops = backend == BOXBFS_BACKEND_CUDA ? bb_cuda_ops_ptr : &bb_cpu_ops;
    int available = 0, n;
    int *direct = NULL, *switch_links = NULL;
    char (*bus)[32] = NULL;
    if (topo_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_topology_discover: NULL");
    if (backend != BOXBFS_BACKEND_CPU && backend != BOXBFS_BACKEND_CUDA)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "backend %d: use cpu (0) or cuda (1)", (int)backend);
    if (ops == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED, "the cuda backend is not built in (configure "
                                                    "found no CUDA; rebuild with --with-cuda)");
    if (devices < 0 || devices > 1024)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device count %d out of range [0, 1024]", devices);
    BB_CHECK(bb_fault_wrap(ops, &ops));   /* BOXBFS_FAULT (tests) */
    BB_CHECK(ops->count(&available));
    if (backend == BOXBFS_BACKEND_CUDA && available == 0)
        return bb_error_set(BOXBFS_ERR_NO_DEVICE, "the cuda backend found no GPU");
    n = devices ? devices : available ? available : 2;
    if (available && n > available)
        return bb_error_set(BOXBFS_ERR_NO_DEVICE, "%d devices asked, %d %s device%s available", n,
                            available, ops->name, available == 1 ? "" : "s");
    BB_CHECK(bb_calloc(1, sizeof *t, "a topology", &t));
    t->ops = ops;
    t->ndev = n;
    t->source = backend == BOXBFS_BACKEND_CUDA ? "cuda p2p attributes" : "emulated";
    BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *t->devs, "topology devices", &t->devs), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *t->info, "topology devices", &t->info), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)n * n, sizeof *t->links, "topology links", &t->links), st, fail);
    for (int d = 0; d < n; d++) {
        char name[128];
        BB_CHECK_GOTO(ops->open(d, &t->devs[d], name, sizeof name), st, fail);
        BB_CHECK_GOTO(ops->describe(t->devs[d], &t->info[d]), st, fail);
        if (!t->info[d].emulated) numa_from_sysfs(&t->info[d]);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            boxbfs_link_info_t *L = &t->links[(size_t)a * n + b];
            bb_p2p_info_t p;
            L->nvlinks = -1;
            if (a == b) {
                L->access = 1;
                L->perf_rank = 0;
                continue;
            }
            BB_CHECK_GOTO(ops->p2p(t->devs[a], t->devs[b], &p), st, fail);
            L->access = p.access;
            L->perf_rank = p.perf_rank;
            L->native_atomics = p.native_atomics;
        }
    if (backend == BOXBFS_BACKEND_CUDA) {
        BB_CHECK_GOTO(bb_calloc((size_t)n * n, sizeof *direct, "NVLink counts", &direct), st, fail);
        BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *switch_links, "NVLink counts", &switch_links),
                      st, fail);
        BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *bus, "bus ids", &bus), st, fail);
        for (int d = 0; d < n; d++) memcpy(bus[d], t->info[d].pci_bus_id, 32);
        if (bb_nvml_nvlinks((const char (*)[32])bus, n, direct, switch_links) == 0) {
            t->source = "nvml";
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++)
                    t->links[(size_t)a * n + b].nvlinks =
                        bb_nvlink_count(direct, switch_links, n, a, b);
        } else {
            free(switch_links);
            switch_links = NULL;
        }
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) link_type(t, a, b, switch_links);
    free(direct);
    free(switch_links);
    free(bus);
    *topo_p = t;
    return BOXBFS_OK;
fail:
    free(direct);
    free(switch_links);
    free(bus);
    boxbfs_topology_free(t);
    return st;
}

int boxbfs_topology_device_count(boxbfs_topology_t t) { return t ? t->ndev : 0; }

const char *boxbfs_topology_link_source(boxbfs_topology_t t) { return t ? t->source : ""; }

boxbfs_status_t boxbfs_topology_device(boxbfs_topology_t t, int d, boxbfs_device_info_t *info_p)
{
    if (t == NULL || info_p == NULL || d < 0 || d >= t->ndev)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "topology device %d out of range", d);
    *info_p = t->info[d];
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_topology_link(boxbfs_topology_t t, int src, int dst,
                                     boxbfs_link_info_t *info_p)
{
    if (t == NULL || info_p == NULL || src < 0 || src >= t->ndev || dst < 0 || dst >= t->ndev)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "topology link %d -> %d out of range", src, dst);
    *info_p = t->links[(size_t)src * t->ndev + dst];
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_topology_probe(boxbfs_topology_t t, const size_t *sizes, int nsizes,
                                      int repeats)
{
    if (t == NULL || sizes == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_topology_probe: NULL argument");
    for (int k = 0; k < nsizes; k++)
        if (sizes[k] == 0)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG, "probe size %d is 0 bytes", k);
    bb_probe_free(&t->probe);
    t->probed = 0;
    BB_CHECK(bb_probe_run(t->ops, t->devs, t->ndev, sizes, nsizes, repeats,
                          (1 << BOXBFS_PROBE_MODES) - 1, &t->probe));
    t->probed = 1;
    return BOXBFS_OK;
}

double boxbfs_topology_probe_time(boxbfs_topology_t t, int src, int dst, boxbfs_probe_mode_t mode,
                                  int k)
{
    size_t n;
    if (t == NULL || !t->probed || src < 0 || dst < 0 || src >= t->ndev || dst >= t->ndev ||
        (int)mode < 0 || mode >= BOXBFS_PROBE_MODES || k < 0 || k >= t->probe.nsizes)
        return 0;
    n = (size_t)t->ndev;
    return t->probe.times[(((size_t)src * n + dst) * BOXBFS_PROBE_MODES + mode) * t->probe.nsizes + k];
}

int boxbfs_topology_probe_direct(boxbfs_topology_t t, int src, int dst)
{
    if (t == NULL || !t->probed || src < 0 || dst < 0 || src >= t->ndev || dst >= t->ndev ||
        src == dst)
        return -1;
    return t->probe.direct[(size_t)src * t->ndev + dst];
}

double boxbfs_topology_probe_latency(boxbfs_topology_t t, int src, int dst)
{
    if (t == NULL || !t->probed || src < 0 || dst < 0 || src >= t->ndev || dst >= t->ndev) return 0;
    return t->probe.lat[(size_t)src * t->ndev + dst];
}

boxbfs_status_t boxbfs_topology_probe_links(boxbfs_topology_t t, boxbfs_links_t *links_p)
{
    bb_linkmat_t L;
    boxbfs_links_t l;
    boxbfs_status_t st = BOXBFS_OK;
    if (t == NULL || links_p == NULL || !t->probed)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_topology_probe_links: no probe yet");
    BB_CHECK(bb_probe_linkmat(&t->probe, &L));
    BB_CHECK_GOTO(bb_calloc(1, sizeof *l, "a link description", &l), st, out);
    snprintf(l->name, sizeof l->name, "measured");
    for (int s = 0; s < t->ndev; s++)
        for (int d = 0; d < t->ndev; d++) {
            /* link rules are symmetric: one rule per unordered pair, the slower direction */
            size_t c = (size_t)s * t->ndev + d, r = (size_t)d * t->ndev + s;
            bb_link_rule_t rule = {1, s, d, L.bw[c] < L.bw[r] ? L.bw[c] : L.bw[r],
                                   L.lat[c] > L.lat[r] ? L.lat[c] : L.lat[r], 0};
            if (s >= d) continue;
            if (l->nrules == l->cap) {
                int cap = l->cap ? 2 * l->cap : 16;
                bb_link_rule_t *g = realloc(l->rules, (size_t)cap * sizeof *g);
                if (g == NULL) {
                    boxbfs_links_free(l);
                    BB_FAIL_GOTO(st, BOXBFS_ERR_NO_MEMORY, out, "cannot grow a link description");
                }
                l->rules = g;
                l->cap = cap;
            }
            l->rules[l->nrules++] = rule;
        }
    *links_p = l;
out:
    bb_linkmat_free(&L);
    return st;
}
