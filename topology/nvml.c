/* Active NVLinks per device from NVML, loaded at run time with
 * dlopen("libnvidia-ml.so.1"): no build dependency, and a machine without the
 * driver simply has no NVML (discovery then uses the CUDA P2P attributes
 * alone). For each active link NVML names what its far end is (a GPU or an
 * NVSwitch) and its PCI address; nvlinks.c turns those into counts per pair.
 * The few types and signatures used are declared here as NVML's header
 * declares them (nvml.h, API v2+). */
#include "config.h"

#include <dlfcn.h>
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
typedef int (*nvml_link_type_fn)(nvml_device_t dev, unsigned int link, int *type);

#define NVML_LINKS_MAX 18   /* NVML_NVLINK_MAX_LINKS */
/* nvmlIntNvLinkDeviceType_t (0x01, an IBM NPU, is "other") */
enum { NVML_END_GPU = 0x00, NVML_END_SWITCH = 0x02, NVML_END_UNKNOWN = 0xFF };

static bb_nvlink_end_kind_t end_kind(int type)
{
    switch (type) {
    case NVML_END_GPU: return BB_NVLINK_END_GPU;
    case NVML_END_SWITCH: return BB_NVLINK_END_SWITCH;
    case NVML_END_UNKNOWN: return BB_NVLINK_END_UNKNOWN;
    default: return BB_NVLINK_END_OTHER;
    }
}

int bb_nvml_nvlinks(const char (*bus_ids)[32], int n, int *direct, int *switch_links)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    nvml_init_fn init;
    nvml_shutdown_fn shutdown;
    nvml_by_bus_fn by_bus;
    nvml_link_state_fn state;
    nvml_link_remote_fn remote;
    nvml_link_type_fn remote_type;   /* optional: drivers before R450 lack it */
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
    *(void **)&remote_type = dlsym(lib, "nvmlDeviceGetNvLinkRemoteDeviceType");
    if (!init || !shutdown || !by_bus || !state || !remote) {
        BB_INFO(-1, "NVML lacks a function boxbfs needs: NVLinks unknown");
        goto out_close;
    }
    if (init() != 0) {
        BB_INFO(-1, "nvmlInit_v2 failed: NVLinks unknown");
        goto out_close;
    }
    memset(direct, 0, (size_t)n * (size_t)n * sizeof *direct);
    memset(switch_links, 0, (size_t)n * sizeof *switch_links);
    for (int a = 0; a < n; a++) {
        nvml_device_t dev;
        bb_nvlink_end_t ends[NVML_LINKS_MAX];
        int nends = 0;
        if (by_bus(bus_ids[a], &dev) != 0) {
            BB_INFO(-1, "NVML does not know the device at %s", bus_ids[a]);
            goto out_shutdown;
        }
        for (unsigned link = 0; link < NVML_LINKS_MAX; link++) {
            int active = 0, type = NVML_END_UNKNOWN;
            nvml_pci_t pci;
            if (state(dev, link, &active) != 0 || !active) continue;
            if (remote_type != NULL && remote_type(dev, link, &type) != 0) type = NVML_END_UNKNOWN;
            memset(&pci, 0, sizeof pci);
            ends[nends].kind = end_kind(type);
            ends[nends].has_pci = remote(dev, link, &pci) == 0;
            ends[nends].domain = pci.domain;
            ends[nends].bus = pci.bus;
            ends[nends].device = pci.device;
            nends++;
        }
        bb_nvlink_tally(bus_ids, n, a, ends, nends, direct, switch_links);
        BB_DEBUG(-1, "NVML: the device at %s has %d active NVLinks, %d of them into an NVSwitch",
                 bus_ids[a], nends, switch_links[a]);
    }
    rc = 0;
out_shutdown:
    shutdown();
out_close:
    dlclose(lib);
    return rc;
}
