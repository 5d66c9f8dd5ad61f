/* Engine option defaults and the names options have on the command line and
 * in reports. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "common/error.h"
#include "kernels/kernels.h"

void boxbfs_engine_options_init(boxbfs_engine_options_t *opts)
{
    if (opts == NULL) return;   /* nothing to fill */
    memset(opts, 0, sizeof *opts);
    opts->backend = BOXBFS_BACKEND_CPU;
    opts->devices = 1;
    /* the fastest validated configuration on every backend and device count
     * (docs/performance.md "Defaults": kron:24 on one H100 180 GTEPS with
     * valid-flag and byte Visited, 286 with these; two H100s 145 against 182);
     * the papers' valid-flag and byte Visited stay selectable */
    opts->contract = BOXBFS_CONTRACT_ATOMIC;
    opts->visited = BOXBFS_VISITED_BIT;
    opts->wire = BOXBFS_WIRE_LIST;
    opts->exchange = BOXBFS_EXCHANGE_PEER;
    /* binary-search expand with 8 edges per thread: the fastest measured on an
     * H200 (kron:24, atomic: K = 1, 2, 4, 8 gave 17.8, 23.1, 30.1, 37.2 GTEPS;
     * auto with K = 4 32.5; commit 402511b, docs/performance.md). 004 found
     * K = 4 best on Kepler. */
    opts->expand = BOXBFS_EXPAND_BINSEARCH;
    opts->expand_edges_per_thread = 0;   /* auto */
    opts->expand_f0 = 10;                /* [002 §5.1] */
    opts->direction = BOXBFS_SEARCH_AUTO;
    opts->alpha = 0;                     /* auto: bb_engine_auto_alpha */
    opts->beta = 18;
    opts->max_depth = -1;
    opts->device_loop_arcs = 16384;   /* ~16 arcs per thread of the loop's one block */
    opts->parents = BOXBFS_PARENTS_AUTO;
    opts->hub_degree = -1;
    opts->arcs64_from = INT64_C(1) << 32;
    boxbfs_link_model_parse("nvlink4", &opts->link_model);
}

const char *boxbfs_backend_name(boxbfs_backend_t v)
{
    return v == BOXBFS_BACKEND_CUDA ? "cuda" : v == BOXBFS_BACKEND_CPU ? "cpu" : "?";
}

const char *boxbfs_contract_name(boxbfs_contract_t v)
{
    switch (v) {
    case BOXBFS_CONTRACT_SORT_UNIQUE: return "sort-unique";
    case BOXBFS_CONTRACT_VALID_FLAG: return "valid-flag";
    case BOXBFS_CONTRACT_ATOMIC: return "atomic";
    }
    return "?";
}

const char *boxbfs_visited_name(boxbfs_visited_t v) { return v == BOXBFS_VISITED_BIT ? "bit" : "byte"; }

const char *boxbfs_wire_name(boxbfs_wire_t v)
{
    return v == BOXBFS_WIRE_BITMAP ? "bitmap" : v == BOXBFS_WIRE_AUTO ? "auto" : "list";
}

const char *boxbfs_exchange_name(boxbfs_exchange_t v)
{
    return v == BOXBFS_EXCHANGE_NCCL ? "nccl"
         : v == BOXBFS_EXCHANGE_MPI  ? "mpi"
         : v == BOXBFS_EXCHANGE_HOST ? "host"
                                     : "peer";
}

const char *boxbfs_expand_name(boxbfs_expand_t v)
{
    return v == BOXBFS_EXPAND_BINSEARCH ? "binsearch" : v == BOXBFS_EXPAND_MERGEPATH ? "mergepath" : "auto";
}

const char *boxbfs_phase_name(boxbfs_phase_t v)
{
    switch (v) {
    case BOXBFS_PHASE_FRONTIER: return "frontier_exchange";
    case BOXBFS_PHASE_SIZES: return "sizes";
    case BOXBFS_PHASE_TERMINATION: return "termination_reduce";
    case BOXBFS_PHASE_FRONTIER_BITMAP: return "frontier_bitmap";
    case BOXBFS_PHASE_PARENTS: return "parent_gather";
    case BOXBFS_PHASE_EXPAND: return "expand";
    case BOXBFS_PHASE_FOLD: return "fold";
    case BOXBFS_PHASE_VISITED: return "visited";
    case BOXBFS_PHASE_HUBS: return "hubs";
    case BOXBFS_PHASE_COUNT: break;
    }
    return "?";
}

int boxbfs_backend_device_count(boxbfs_backend_t backend)
{
    int count = 0;
    const bb_device_ops_t *ops = backend == BOXBFS_BACKEND_CUDA ? bb_cuda_ops_ptr : &bb_cpu_ops;
    if (ops == NULL || ops->count(&count) != BOXBFS_OK) return 0;
    return count;
}

/* Arcs a device needs of its own before one more device pays (boxbfs.h). */
#define BB_DEVICES_MIN_ARCS ((int64_t)1 << 27)

int boxbfs_devices_auto(int64_t arcs, int available, char *why, size_t why_len)
{
    int64_t per = BB_DEVICES_MIN_ARCS, count;
    const char *env = getenv("BOXBFS_DEVICES_MIN_ARCS");
    if (env != NULL && *env) {
        char *end;
        long long v = strtoll(env, &end, 10);
        if (*end == '\0' && v > 0) per = v;
    }
    if (available < 1) available = 1;
    count = arcs / per;
    if (count > available) count = available;
    if (count < 1) count = 1;
    if (why != NULL && why_len > 0) {
        snprintf(why, why_len, "%lld arcs: %s%lld of %d devices (a device pays from %lld arcs "
                 "of its own)", (long long)arcs, count == available ? "all " : "",
                 (long long)count, available, (long long)per);
    }
    return (int)count;
}

const char *boxbfs_search_direction_name(boxbfs_search_direction_t v)
{
    return v == BOXBFS_SEARCH_TOP_DOWN ? "top-down" : v == BOXBFS_SEARCH_BOTTOM_UP ? "bottom-up" : "auto";
}

const char *boxbfs_parents_name(boxbfs_parents_t v)
{
    return v == BOXBFS_PARENTS_KEEP ? "keep" : v == BOXBFS_PARENTS_RECOMPUTE ? "recompute" : "auto";
}

const char *boxbfs_search_on_name(boxbfs_search_on_t v)
{
    return v == BOXBFS_SEARCH_ON_DEVICE ? "device" : v == BOXBFS_SEARCH_ON_HOST ? "host" : "auto";
}

/* ---- 2D partition (README "2D partition") ---- */
const char *boxbfs_partition_name(boxbfs_partition_t v)
{
    return v == BOXBFS_PARTITION_2D ? "2d" : "1d";
}

/* More rows than columns where the grid cannot be square: a tall grid
 * gathers the frontier along its columns and folds along short rows (2 x 1
 * has no fold at all); on 2 x H100 (0c90c00) 2 x 1 ran kron:26 top-down at
 * 0.95x of 1D and auto at 0.64x, 1 x 2 at 0.62x and 0.43x. */
void boxbfs_grid_default(int devices, int *rows_p, int *cols_p)
{
    int cols = 1;
    for (int c = 1; (long)c * c <= devices; c++)
        if (devices % c == 0) cols = c;
    *cols_p = devices > 0 ? cols : 0;
    *rows_p = devices > 0 ? devices / cols : 0;
}

boxbfs_status_t boxbfs_grid_parse(const char *text, int *rows_p, int *cols_p)
{
    long v[2];
    const char *p = text;
    if (text == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "grid: no text");
    for (int i = 0; i < 2; i++) {
        long x = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9' && x <= 1024) x = x * 10 + (*p++ - '0');
        if (p == start || (*p >= '0' && *p <= '9') || x < 1 || x > 1024 ||
            (i == 0 ? (*p != 'x' && *p != 'X') : *p != '\0'))
            return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                                "grid '%s': expected RxC with R and C whole numbers in [1, 1024] "
                                "(e.g. 4x4)", text);
        v[i] = x;
        if (i == 0) p++;
    }
    *rows_p = (int)v[0];
    *cols_p = (int)v[1];
    return BOXBFS_OK;
}
