/* A device's block of the adjacency matrix for the 2D engine, built on the
 * host's cores (block2d.c). */
#ifndef BB_BLOCK2D_H
#define BB_BLOCK2D_H

#include <stdint.h>

#include "graph/graph.h"

/* Which block: the arcs u -> v with u among grid column `col`'s vertices
 * and v among grid row `row`'s, of the R x C grid of bs-id blocks, from the
 * CSR (offsets, columns) over the n vertices. transposed = 0: a CSR over the
 * R*bs column-local sources with row-local targets (the top-down block);
 * transposed = 1: a CSR over the C*bs row-local targets with column-local
 * sources, read from the in-arcs (the CSR given is the transpose on a
 * directed graph, the graph itself on an undirected one). */
typedef struct {
    const int64_t *offsets, *columns;
    uint64_t n, bs;
    int R, C, row, col;
    int transposed;
} bb_block2d_spec_t;

/* Device d's block as *off_p (rows + 1 entries) and *col_p (*arcs_p
 * entries, 32-bit local ids). Host arrays, freed by the caller. UNSUPPORTED
 * past 2^32 arcs. */
boxbfs_status_t bb_block2d_build(const bb_block2d_spec_t *spec, int d, int64_t **off_p,
                                 uint32_t **col_p, uint64_t *arcs_p);

#endif /* BB_BLOCK2D_H */
