/* NVLink counts per device pair from what each device's active links end on
 * (nvml.c asks NVML; tests/test_nvlinks.c makes the ends up): links straight
 * to a listed GPU count for that pair; links into an NVSwitch reach every
 * other GPU on the switch, so such a pair gets the source's links into it,
 * as `nvidia-smi topo -m` prints them (NV18 between two H200s of an HGX board). */
#include "config.h"

#include <stdio.h>

#include "topology/topology.h"

/* The listed device with this PCI address, or -1. */
static int listed(const char (*bus_ids)[32], int n, const bb_nvlink_end_t *end)
{
    for (int b = 0; b < n; b++) {
        unsigned dom, bus, dev;
        if (sscanf(bus_ids[b], "%x:%x:%x", &dom, &bus, &dev) == 3 && dom == end->domain &&
            bus == end->bus && dev == end->device)
            return b;
    }
    return -1;
}

void bb_nvlink_tally(const char (*bus_ids)[32], int n, int a, const bb_nvlink_end_t *ends,
                     int nends, int *direct, int *switch_links)
{
    for (int k = 0; k < nends; k++) {
        const bb_nvlink_end_t *end = &ends[k];
        int b = end->has_pci ? listed(bus_ids, n, end) : -1;
        if (end->kind == BB_NVLINK_END_SWITCH) switch_links[a]++;
        else if ((end->kind == BB_NVLINK_END_GPU || end->kind == BB_NVLINK_END_UNKNOWN) && b >= 0 &&
                 b != a)
            direct[(size_t)a * n + b]++;
        /* an NVML that cannot name the far end: an address that is no listed GPU was,
         * before NVML named ends, a switch's */
        else if (end->kind == BB_NVLINK_END_UNKNOWN && end->has_pci && b < 0)
            switch_links[a]++;
        /* else a GPU that is not listed, or an IBM NPU: no pair of ours */
    }
}

int bb_nvlink_count(const int *direct, const int *switch_links, int n, int a, int b)
{
    int count = direct[(size_t)a * n + b];
    if (a != b && switch_links[a] > 0 && switch_links[b] > 0) count += switch_links[a];
    return count;
}
