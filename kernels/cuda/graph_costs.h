/* The graph-cost program's parts (benchmarks/graph-costs; not part of the
 * library): graph_costs.cu's main, graph_costs_link.cu's host-link cases. */
#ifndef BB_GRAPH_COSTS_H
#define BB_GRAPH_COSTS_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "graph_costs: %s failed: %s\n", #call, cudaGetErrorString(e_)); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* The middle of v (-1 where empty). */
inline double median(std::vector<double> v)
{
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* The search's start and end over the host link, one line per case. */
void link_costs(cudaStream_t s);

#endif
