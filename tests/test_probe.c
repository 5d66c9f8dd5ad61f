/* The link probe (topology/probe.c) enables peer access through the device
 * ops' enable_peer for every ordered pair before it times any copy, records
 * which pairs copy directly and which the driver stages, and the public API
 * reports that path; on the cpu backend every emulated pair is direct. An
 * emulated table whose enable_peer refuses device 2 stands in for GPUs
 * without peer access. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "topology/topology.h"

static int enables, copies_before_enables, refused_pairs;

static boxbfs_status_t refuse_dev2(bb_device_t *a, bb_device_t *b, int *ok_p)
{
    int ia = -1, ib = -1;
    boxbfs_device_info_t ia_info, ib_info;
    bb_cpu_ops.describe(a, &ia_info);
    bb_cpu_ops.describe(b, &ib_info);
    sscanf(ia_info.name, "cpu-emulated %d", &ia);
    sscanf(ib_info.name, "cpu-emulated %d", &ib);
    enables++;
    *ok_p = ia != 2 && ib != 2;
    refused_pairs += !*ok_p;
    return BOXBFS_OK;
}

static boxbfs_status_t counting_peer_copy(bb_device_t *dd, void *dst, bb_device_t *sd,
                                          const void *src, size_t bytes)
{
    if (enables < 6) copies_before_enables++;   /* 3 devices: 6 ordered pairs */
    return bb_cpu_ops.peer_copy(dd, dst, sd, src, bytes);
}

int main(void)
{
    bb_device_ops_t ops = bb_cpu_ops;
    bb_device_t *devs[3];
    char name[64];
    const size_t sizes[2] = {4096, 65536};
    bb_probe_t p;
    boxbfs_topology_t t = NULL;

    ops.enable_peer = refuse_dev2;
    ops.peer_copy = counting_peer_copy;
    for (int d = 0; d < 3; d++) CHECK(ops.open(d, &devs[d], name, sizeof name) == BOXBFS_OK);
    CHECK(bb_probe_run(&ops, devs, 3, sizes, 2, 2, (1 << BOXBFS_PROBE_MODES) - 1, &p) == BOXBFS_OK);
    CHECK(enables == 6);                 /* every ordered pair, once */
    CHECK(copies_before_enables == 0);   /* before any copy was timed */
    CHECK(refused_pairs == 4);           /* 0<->2, 1<->2 */
    for (int s = 0; s < 3; s++)
        for (int d = 0; d < 3; d++)
            if (s != d) CHECK(p.direct[s * 3 + d] == (s != 2 && d != 2));
    for (int s = 0; s < 3; s++)          /* figures were still measured for every pair */
        for (int d = 0; d < 3; d++)
            if (s != d) CHECK(p.lat[s * 3 + d] >= 0 && p.times[((s * 3 + d) * BOXBFS_PROBE_MODES +
                                                                BOXBFS_PROBE_PEER) * 2 + 1] > 0);
    bb_probe_free(&p);
    for (int d = 0; d < 3; d++) ops.close(devs[d]);

    /* the public API on the cpu backend: every emulated pair direct */
    CHECK(boxbfs_topology_discover(BOXBFS_BACKEND_CPU, 2, &t) == BOXBFS_OK);
    CHECK(boxbfs_topology_probe_direct(t, 0, 1) == -1);   /* no probe yet */
    CHECK(boxbfs_topology_probe(t, sizes, 1, 1) == BOXBFS_OK);
    CHECK(boxbfs_topology_probe_direct(t, 0, 1) == 1 && boxbfs_topology_probe_direct(t, 1, 0) == 1);
    CHECK(boxbfs_topology_probe_direct(t, 0, 0) == -1 && boxbfs_topology_probe_direct(t, 0, 5) == -1);
    boxbfs_topology_free(t);
    CHECK(boxbfs_topology_probe_direct(NULL, 0, 1) == -1);
    CHECK_DONE();
}
