/* A device's block of the adjacency matrix for the 2D engine, built on the
 * host's cores (block2d.c). */
#ifndef BB_BLOCK2D_H
#define BB_BLOCK2D_H

#include <stdint.h>

#include "graph/graph.h"

/* Device d's block: the arcs from the rows_ids vertices starting at `first`
 * (a grid column; those at or past n have no arcs) to the vertices of grid
 * row `row` of R, as a CSR over column-local ids (*off_p: rows_ids + 1
 * entries) with 32-bit row-local columns (*col_p: *arcs_p entries). Host
 * arrays, freed by the caller. UNSUPPORTED past 2^32 arcs. */
boxbfs_status_t bb_block2d_build(const struct boxbfs_graph *g, uint64_t first, uint64_t rows_ids,
                                 uint64_t bs, int R, int row, int d, int64_t **off_p,
                                 uint32_t **col_p, uint64_t *arcs_p);

#endif /* BB_BLOCK2D_H */
