/* Graph file formats: Matrix Market and SNAP edge lists (readable through
 * zlib when the name ends in ".gz") and binary CSR (.bbcsr, never
 * compressed). Every parse error is
 * reported as "file:line: what is wrong" with status PARSE. */
#ifndef BB_IO_H
#define BB_IO_H

#include "boxbfs.h"
#include "graph/graph.h"

/* The most vertices a graph file may declare (a Matrix Market size line, a
 * .bbcsr header, the distinct ids of an edge list): BB_IO_MAX_VERTICES, as
 * many as the largest generated graph (kron:40). A file above it fails with
 * PARSE, not with an allocation of terabytes. The fuzz harnesses lower it
 * (set it before loading; not thread-safe). */
#define BB_IO_MAX_VERTICES ((int64_t)1 << 40)
int64_t bb_io_max_vertices(void);
void bb_io_set_max_vertices(int64_t max_vertices);

boxbfs_status_t bb_io_load_mtx(const char *path, boxbfs_direction_t direction, int threads,
                               boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_load_snap(const char *path, boxbfs_direction_t direction, int threads,
                                boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_load_binary(const char *path, boxbfs_graph_t *graph_p);
/* Chooses the rows [*lo_p, *hi_p) of a slice from the whole graph's offsets
 * (n + 1, already checked). */
typedef boxbfs_status_t (*bb_pick_rows_fn)(const int64_t *offsets, int64_t n, void *arg,
                                           int64_t *lo_p, int64_t *hi_p);
/* A slice of a .bbcsr file: offsets, edge credits and external ids whole,
 * the columns of the rows pick chooses only (read with pread, never the
 * others'). Checked as bb_io_load_binary checks, except the payload checksum
 * and an undirected graph's symmetry (both need every row). */
boxbfs_status_t bb_io_load_binary_rows(const char *path, bb_pick_rows_fn pick, void *arg,
                                       boxbfs_graph_t *graph_p);
boxbfs_status_t bb_io_save_binary(boxbfs_graph_t graph, const char *path);
/* Rewrite the payload and header checksums of a .bbcsr image of size bytes in
 * memory (nothing when it is shorter than the header), so that a fuzzer's
 * mutations reach the checks behind the checksums. The payload checksum
 * covers the whole 8-byte words after the header. */
void bb_io_binary_seal(void *image, size_t size);
/* Write a SNAP-style edge list ("# ..." header, "src dst" per stored arc;
 * undirected graphs write each edge once, u <= v), external ids. */
boxbfs_status_t bb_io_save_edgelist(boxbfs_graph_t graph, const char *path);

#endif /* BB_IO_H */
