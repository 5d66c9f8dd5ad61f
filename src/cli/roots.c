/* Graph500 root choice, shared by `boxbfs bfs` (--roots N) and `boxbfs msbfs`
 * (--sources N): distinct random vertices with at least one edge, drawn by a
 * splitmix64 stream from the seed, so a seed names the same roots anywhere. */
#include "config.h"

#include <stdlib.h>

#include "cli/cli.h"
#include "graph/graph.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t bb_cli_root_candidates(boxbfs_graph_t g)
{
    int64_t candidates = 0;
    for (int64_t v = 0; v < g->n; v++) candidates += g->offsets[v + 1] > g->offsets[v];
    return candidates;
}

int bb_cli_random_roots(boxbfs_graph_t g, int want, uint64_t seed, int64_t **roots_p, int *count_p)
{
    int64_t n = g->n, candidates = bb_cli_root_candidates(g), *roots;
    int got = 0;
    uint64_t state = seed ^ 0x5eedb0b5ULL;
    if (candidates == 0) {
        bb_cli_error("%s: no vertex has an edge, there is nothing to search", g->name);
        return BB_EXIT_USAGE;
    }
    if (want > candidates) want = (int)candidates;
    roots = malloc((size_t)want * sizeof *roots);
    if (!roots) { bb_cli_error("out of memory"); return BB_EXIT_RUNTIME; }
    while (got < want) {
        int64_t v = (int64_t)(splitmix64(&state) % (uint64_t)n), dup = 0;
        if (g->offsets[v + 1] == g->offsets[v]) continue;
        for (int i = 0; i < got && !dup; i++) dup = roots[i] == v;
        if (!dup) roots[got++] = v;
    }
    *roots_p = roots;
    *count_p = want;
    return 0;
}
