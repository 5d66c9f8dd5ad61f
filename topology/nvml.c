/* NVLink counts per device pair from NVML, loaded at run time with
 * dlopen("libnvidia-ml.so.1"): no build dependency, and a machine without the
 * driver simply has no NVML (discovery then uses the CUDA P2P attributes
 * alone). The few types and signatures used are declared here as NVML's
 * header declares them (nvml.h, API v2+). */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "topology/topology.h"

typedef struct nvml_device *nvml_device_t;   /* nvmlDevice_t */
typedef struct {                             /* nvmlPciInfo_t */
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
    char spare[64];                          /* room should a later NVML grow it */
} nvml_pci_t;
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_bus_fn)(const char *bus_id, nvml_device_t *dev);
typedef int (*nvml_link_state_fn)(nvml_device_t dev, unsigned int link, int *active);
typedef int (*nvml_link_remote_fn)(nvml_device_t dev, unsigned int link, nvml_pci_t *pci);

#define NVML_LINKS_MAX 18   /* NVML_NVLINK_MAX_LINKS */

static int parse_bus(const char *s, unsigned *dom, unsigned *bus, unsigned *dev)
{
    return sscanf(s, "%x:%x:%x", dom, bus, dev) == 3 ? 0 : -1;
}

int bb_nvml_nvlinks(const char (*bus_ids)[32], int n, int *counts, int *switch_links)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init;
    nvml_shutdown_fn shutdown;
    nvml_by_bus_fn by_bus;
    nvml_link_state_fn state;
    nvml_link_remote_fn remote;
    int rc = -1;
    if (lib == NULL) {
        BB_INFO(-1, "NVML not available (%s): NVLinks unknown", dlerror());
        return -1;
    }
    /* POSIX: a data pointer from dlsym converts to a function pointer */
    *(void **)&init = dlsym(lib, "nvmlInit_v2");
    *(void **)&shutdown = dlsym(lib, "nvmlShutdown");
    *(void **)&by_bus = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&state = dlsym(lib, "nvmlDeviceGetNvLinkState");
    *(void **)&remote = dlsym(lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    if (!init || !shutdown || !by_bus || !state || !remote) {
        BB_INFO(-1, "NVML lacks a function boxbfs needs: NVLinks unknown");
        goto out_close;
    }
    if (init() != 0) {
        BB_INFO(-1, "nvmlInit_v2 failed: NVLinks unknown");
        goto out_close;
    }
    memset(counts, 0, (size_t)n * (size_t)n * sizeof *counts);
    memset(switch_links, 0, (size_t)n * sizeof *switch_links);
    for (int a = 0; a < n; a++) {
        nvml_device_t dev;
        if (by_bus(bus_ids[a], &dev) != 0) {
            BB_INFO(-1, "NVML does not know the device at %s", bus_ids[a]);
            goto out_shutdown;
        }
        for (unsigned link = 0; link < NVML_LINKS_MAX; link++) {
            int active = 0, matched = 0;
            nvml_pci_t pci;
            if (state(dev, link, &active) != 0 || !active) continue;
            memset(&pci, 0, sizeof pci);
            if (remote(dev, link, &pci) != 0) continue;
            for (int b = 0; b < n; b++) {
                unsigned dom, bus, d;
                if (b == a || parse_bus(bus_ids[b], &dom, &bus, &d) != 0) continue;
                if (dom == pci.domain && bus == pci.bus && d == pci.device) {
                    counts[(size_t)a * n + b]++;
                    matched = 1;
                }
            }
            if (!matched) switch_links[a]++;   /* ends on an NVSwitch (or an unlisted GPU) */
        }
    }
    rc = 0;
out_shutdown:
    shutdown();
out_close:
    dlclose(lib);
    return rc;
}
