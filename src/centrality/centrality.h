/* Shortest-path counts and betweenness centrality [TurboBFS 001, Brandes]:
 * the plain sequential reference (brandes_ref.c) and the driver over the
 * device-operations table (sigma.c: the 1D partition with (vertex, count)
 * pairs crossing the links, TurboBFS's SpMV forms on one device, and
 * betweenness with sources split over the devices). README "Shortest-path
 * counts and betweenness". */
#ifndef BB_CENTRALITY_H
#define BB_CENTRALITY_H

#include <stdint.h>

#include "boxbfs.h"
#include "kernels/centrality.h"
#include "peer/traffic.h"

/* ---- reference (sequential, whole graph) ------------------------------------ */
/* BFS from root with the number of shortest paths to every vertex: level
 * (-1 unreached), sigma as exact uint64 (may be NULL) and as double (may be
 * NULL); *overflow_p (may be NULL) = 1 when a uint64 count wrapped. */
boxbfs_status_t bb_ref_sigma(boxbfs_graph_t g, int64_t root, int32_t *level, uint64_t *sigma,
                             double *sigma_d, int *overflow_p);
/* Counts in double from the levels of a search (the in-neighbours one level
 * up of each vertex, level by level): the overflow fallback. */
boxbfs_status_t bb_sigma_double_from_levels(boxbfs_graph_t g, int64_t root, const int32_t *level,
                                            double *sigma_d);
/* Brandes: bc[v] += dependencies of v over the sources (raw sums, every
 * ordered pair (s, t); bb_bc_scale makes them networkx's figures). */
boxbfs_status_t bb_ref_brandes(boxbfs_graph_t g, const int64_t *sources, int64_t nsources,
                               double *bc);
/* networkx's rescale: undirected halves; normalized divides by (n-1)(n-2);
 * nsources < n (sampled) multiplies by n / nsources. */
void bb_bc_scale(double *bc, int64_t n, int directed, int normalized, int64_t nsources);

/* ---- driver over the devices ----------------------------------------------------- */
typedef enum { BB_SIGMA_FRONTIER = 0, BB_SIGMA_SPMV = 1 } bb_sigma_algorithm_t;

typedef struct {
    boxbfs_backend_t backend;
    int devices;                        /* >= 1 (spmv: 1) */
    bb_sigma_algorithm_t algorithm;
    bb_spmv_t spmv;             /* spmv: csc-scalar, csc-vector, cooc */
    boxbfs_search_direction_t direction; /* top-down, bottom-up or auto */
    double switch_density;              /* spmv auto: bottom-up from this frontier
                                           density (default 0.10, TurboBFS) */
    int whole_graph;                    /* 1: every device holds the whole graph
                                           (betweenness: sources split) */
    const int *device_ids;              /* devices entries (repeats allowed); NULL: 0 .. */
} bb_centrality_options_t;

typedef struct bb_centrality bb_centrality_t;

/* Partition (or replicate) the graph over the devices and allocate. Returns
 * OK, INVALID_ARG (options that do not combine, with a message saying so),
 * UNSUPPORTED (no cuda backend), NO_DEVICE, DEVICE, NO_MEMORY. */
boxbfs_status_t bb_centrality_create(boxbfs_graph_t g, const bb_centrality_options_t *o,
                                     bb_centrality_t **c_p);
void bb_centrality_free(bb_centrality_t *c);
const char *bb_centrality_device_name(const bb_centrality_t *c, int device);

typedef struct {
    double time_s;
    int32_t levels;
    int64_t reached, input_edges;
    int overflow;                       /* a count wrapped: sigma_d holds the output */
    int bottom_up_levels;
    bb_traffic_t *traffic;              /* pairs: FRONTIER, counts: SIZES, sums:
                                           TERMINATION (named sigma_* in reports) */
} bb_sigma_report_t;

/* Counts from root (internal id) on every device of c (not whole_graph):
 * level, sigma (n each, may be NULL) gathered on the host. */
boxbfs_status_t bb_centrality_sigma(bb_centrality_t *c, int64_t root, int32_t *level,
                                    uint64_t *sigma, bb_sigma_report_t *report_p);

/* Where a betweenness run's time went (bb_centrality_bc). */
typedef struct {
    double total_s;     /* from every device ready (one source run untimed on each)
                           to the devices' sums added on the host */
    double *busy_s;     /* devices entries, the caller's (may be NULL): the times of
                           the sources each device ran */
    int32_t *device;    /* nsources entries, the caller's (may be NULL): the device
                           that ran each source */
} bb_bc_times_t;

/* Betweenness over sources (whole_graph): once every device is ready, each
 * takes the next source when it finishes one; bc (n) gets the raw sums,
 * time_s (nsources) each source's time (forward + backward), edges
 * (nsources) the input edges of its component, times (may be NULL) the
 * run's time and each device's share. */
boxbfs_status_t bb_centrality_bc(bb_centrality_t *c, const int64_t *sources, int64_t nsources,
                                 double *bc, double *time_s, int64_t *edges, bb_bc_times_t *times);

/* "csc-scalar" ... and back. */
const char *bb_spmv_name(bb_spmv_t v);
const char *bb_sigma_algorithm_name(bb_sigma_algorithm_t a);

#endif /* BB_CENTRALITY_H */
