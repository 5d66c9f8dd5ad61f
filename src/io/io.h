/* Graph file formats: Matrix Market and SNAP edge lists (readable through
 * zlib when the name ends in ".gz") and binary CSR (.bbcsr, never
 * compressed). Every parse error is
 * reported as "file:line: what is wrong" with status PARSE. */
#ifndef BB_IO_H
#define BB_IO_H

#include "boxbfs.h"
#include "graph/graph.h"

boxbfs_status_t bb_io_load_mtx(const char *path, boxbfs_direction_t direction, int threads,
                               boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_load_snap(const char *path, boxbfs_direction_t direction, int threads,
                                boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_load_binary(const char *path, boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_save_binary(boxbfs_graph_t graph, const char *path);
/* Write a SNAP-style edge list ("# ..." header, "src dst" per stored arc;
 * undirected graphs write each edge once, u <= v), external ids. */
boxbfs_status_t bb_io_save_edgelist(boxbfs_graph_t graph, const char *path);

#endif /* BB_IO_H */
