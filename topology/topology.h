/* Topology internals: link descriptions (links.c), device and link discovery
 * through the device-operations table and NVML loaded at run time
 * (discover.c, nvml.c), the bandwidth/latency probe (probe.c), and the
 * topology-aware ring order (order.c). Public side: boxbfs_links_*,
 * boxbfs_topology_* in boxbfs.h. */
#ifndef BB_TOPOLOGY_H
#define BB_TOPOLOGY_H

#include <stddef.h>

#include "boxbfs.h"
#include "kernels/kernels.h"
#include "peer/traffic.h"

/* One line of a description: `slot` (per device) or `link` (per pair, both
 * directions); a or b = -1 for `*`. */
typedef struct {
    int is_link, a, b;
    double bw, lat;
    int shared;
} bb_link_rule_t;

struct boxbfs_links {
    char name[64];
    bb_link_rule_t *rules;
    int nrules, cap;
};

/* Resolve a description for ndev engine devices; engine device i is physical
 * device ids[i] (ids NULL: i). Fails (INVALID_ARG, naming the pair) when a
 * pair has no figure. */
/* The figures of the built-in description name (every slot alike) in
 * *model_p; returns 1 if its slots are shared, 0 if dedicated, -1 (model_p
 * untouched) if name is not built in. */
int bb_links_builtin(const char *name, boxbfs_link_model_t *model_p);
boxbfs_status_t bb_links_resolve(boxbfs_links_t links, int ndev, const int *ids, bb_linkmat_t *L);

/* Greedy ring order over L (see order.c): perm[i] = old index of new device i. */
void bb_topo_ring_order(const bb_linkmat_t *L, int *perm);

/* Probe of opened devices (probe.c). times[((s * n + d) * BOXBFS_PROBE_MODES + mode)
 * * nsizes + k] and lat[s * n + d], seconds (0 on the diagonal). */
typedef struct {
    int ndev, nsizes;
    size_t *sizes;
    double *times, *lat;
    int *direct;   /* n x n: 1 peer access s -> d enabled, so the "peer" figures are
                      direct copies; 0 not possible: the driver staged them */
} bb_probe_t;

boxbfs_status_t bb_probe_run(const bb_device_ops_t *ops, bb_device_t **devs, int ndev,
                             const size_t *sizes, int nsizes, int repeats, int modes_mask,
                             bb_probe_t *p);
void bb_probe_free(bb_probe_t *p);
/* Figures from a probe: bandwidth of the largest size's peer copy, latency of
 * the 8-byte copy; dedicated pairs. */
boxbfs_status_t bb_probe_linkmat(const bb_probe_t *p, bb_linkmat_t *L);

/* What one active NVLink ends on (nvlinks.c). UNKNOWN: NVML cannot say (a
 * driver without nvmlDeviceGetNvLinkRemoteDeviceType); has_pci: NVML gave the
 * far end's PCI address (domain, bus, device). */
typedef enum {
    BB_NVLINK_END_GPU, BB_NVLINK_END_SWITCH, BB_NVLINK_END_OTHER, BB_NVLINK_END_UNKNOWN
} bb_nvlink_end_kind_t;
typedef struct {
    bb_nvlink_end_kind_t kind;
    int has_pci;
    unsigned domain, bus, device;
} bb_nvlink_end_t;
/* Book device a's active links ends[0..nends) among the n devices with these
 * PCI bus ids: a link to listed device b adds one to direct[a * n + b], a link
 * into an NVSwitch one to switch_links[a]. Where NVML cannot name the far end,
 * an address that is no listed device counts as a switch. */
void bb_nvlink_tally(const char (*bus_ids)[32], int n, int a, const bb_nvlink_end_t *ends,
                     int nends, int *direct, int *switch_links);
/* NVLinks from a to b as `nvidia-smi topo -m` counts them: the direct ones,
 * plus a's links into the NVSwitch where a and b both have links into one. */
int bb_nvlink_count(const int *direct, const int *switch_links, int n, int a, int b);

/* NVML through dlopen (nvml.c): the devices' active NVLinks with these PCI
 * bus ids booked by bb_nvlink_tally into direct (n x n) and switch_links (n).
 * Returns 0 when NVML answered, -1 when it is absent or failed (then the
 * arrays hold nothing to use). */
int bb_nvml_nvlinks(const char (*bus_ids)[32], int n, int *direct, int *switch_links);

#endif /* BB_TOPOLOGY_H */
