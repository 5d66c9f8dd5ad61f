/* The multi-device level engine [DESIGN "The level engine"]: one host thread
 * per device, a barrier per phase, expand -> contract -> exchange -> update ->
 * terminate, top-down; parents gathered once after the search. Written once
 * above the device-operations table (kernels/kernels.h). */
#ifndef BB_ENGINE_H
#define BB_ENGINE_H

#include <pthread.h>

#include "boxbfs.h"
#include "common/threads.h"
#include "engine/partition.h"
#include "graph/graph.h"
#include "kernels/kernels.h"
#include "peer/exchange.h"
#include "peer/traffic.h"

#define BB_MAX_ALLOCS 24

typedef struct {
    bb_device_t *dev;
    char name[128];
    bb_kstate_t k;
    void *allocs[BB_MAX_ALLOCS];
    int nallocs;
    size_t memory_bytes, visited_bytes;
    uint64_t *ctr;                 /* host copy of k.counters */
    double expand_s, contract_s, exchange_s, update_s;   /* last level */
} bb_engine_dev_t;

struct boxbfs_engine {
    boxbfs_graph_t graph;
    boxbfs_engine_options_t opts;
    const bb_device_ops_t *ops;
    int ndev;
    bb_engine_dev_t *devs;
    bb_device_t **handles;
    bb_partition_t part;
    bb_traffic_t traffic;
    bb_barrier_t barrier;
    bb_exchange_t xchg;
    bb_linkmat_t linkmat;       /* per-pair figures in engine order (model, throttle) */
    int *order;                 /* engine device i is physical device order[i] */
    /* one all-to-all round, rows written by their source's thread */
    uint64_t *send_count, *send_offset, *bytes;   /* ndev x ndev */
    uint8_t *as_bitmap;                           /* ndev x ndev */
    const void **src;
    void **dst;
    /* search state shared by the device threads */
    int64_t root;
    uint64_t *frontier_count;   /* per device: the frontier to expand, then the next one */
    uint64_t *level_frontier;   /* per device: the frontier expanded this level */
    double gather_modeled_s;    /* link-model time of the parent gather */
    int done;
    int64_t *parent_out;
    int32_t *level_out;
    double t_start, t_level;
    pthread_mutex_t fail_lock;
    boxbfs_status_t fail;
    char fail_message[1024];
    boxbfs_search_report_t report;
};

/* Record a device thread's failure (the first one wins) and abort the barrier. */
void bb_engine_fail(boxbfs_engine_t e, boxbfs_status_t st);
/* The parent-gather phase for device self (engine/gather.c). */
boxbfs_status_t bb_engine_gather(boxbfs_engine_t e, int self);

#endif /* BB_ENGINE_H */
