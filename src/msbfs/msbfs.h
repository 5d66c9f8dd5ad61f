/* Concurrent multi-source BFS (iBFS [000]): many searches at once in groups
 * of 32, 64 or 128 sharing one bitwise status array, joint frontiers,
 * top-down and early-terminating bottom-up levels, outdegree-based GroupBy
 * rules [000 §5.2], and groups spread over devices (one host thread each),
 * each device holding the whole graph. Per-instance results are computed on
 * the fly (reached count, eccentricity, sum of depths, Graph500 edges);
 * depths are kept only for the instances the caller asks for. */
#ifndef BB_MSBFS_H
#define BB_MSBFS_H

#include <stdint.h>

#include "boxbfs.h"

/* The options are the public boxbfs_msbfs_options_t, checked by the entry
 * points of api.c before the driver sees them; the figures per source, group
 * and device are the public structs too (boxbfs.h). */

typedef struct {
    int nsources, ngroups, ndev;
    int *order;             /* nsources: source indices in group order (group g: [g*G, ...)) */
    boxbfs_msbfs_group_t *groups;
    boxbfs_msbfs_source_t *per_source;   /* by source index */
    boxbfs_msbfs_device_t *devices;
    int32_t *depths;        /* one row of n per kept source, in source-index order */
    int *depth_row;         /* nsources: the row of a kept source, or -1 */
    double total_s;         /* first group's start to the last group's end, all devices */
} bb_msbfs_result_t;

/* The group order of sources [000 §5.2] (order_p: nsources indices). With
 * groupby, three classes: out-degree >= p; out-degree < p with a hub (the
 * highest-degree neighbor) of out-degree > q; the rest; each by the hub's
 * out-degree (highest first), then hub, degree, index (same hub: one group,
 * small buckets combined with those of hubs of similar degree; groups.c
 * says why); without, the given order. */
boxbfs_status_t bb_msbfs_group_order(boxbfs_graph_t g, const int64_t *sources, int nsources,
                                     const boxbfs_msbfs_options_t *o, int *order_p);

/* Run every source (internal ids, distinct) in groups. keep (nsources, may
 * be NULL) marks the sources whose depths are wanted in res->depths.
 * Returns OK, INVALID_ARG, NO_DEVICE, DEVICE, DEVICE_MEMORY, UNSUPPORTED,
 * NO_MEMORY. */
boxbfs_status_t bb_msbfs_run(boxbfs_graph_t g, const int64_t *sources, int nsources,
                             const boxbfs_msbfs_options_t *o, const uint8_t *keep,
                             bb_msbfs_result_t *res);
void bb_msbfs_result_free(bb_msbfs_result_t *res);

/* The public result (boxbfs_msbfs_result_t, api.c): the driver's result,
 * what the checks need of the run, and the report in the public structs. */
struct boxbfs_msbfs_result {
    bb_msbfs_result_t res;
    int64_t n;                      /* vertices of the run's graph */
    int32_t max_depth;              /* -1: none */
    boxbfs_msbfs_report_t report;   /* points into res */
    int64_t *order;                 /* res.order widened */
};

#endif /* BB_MSBFS_H */
