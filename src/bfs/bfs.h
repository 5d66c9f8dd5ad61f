/* Tree checks on a range of rows (validate.c), for boxbfs_validate and for
 * boxbfs_engine_check_tree, where each MPI rank checks its own rows of the
 * whole tree and the ranks' results are combined. */
#ifndef BB_BFS_H
#define BB_BFS_H

#include <stdint.h>

#include "boxbfs.h"
#include "graph/graph.h"

/* boxbfs_validate_depth's rules for the vertices and arcs of rows [lo, hi),
 * which the graph must hold (else INVALID_ARG); parent and level cover all n
 * vertices. info_p counts those rows' vertices. For a whole graph, [0, n)
 * and max_depth < 0 this is boxbfs_validate. */
boxbfs_status_t bb_validate_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                 const int64_t *parent, const int32_t *level, int32_t max_depth,
                                 boxbfs_tree_info_t *info_p);
/* The counts of boxbfs_tree_info_t over the vertices of rows [lo, hi) with
 * level >= 0, without checking anything (runs whose validation is off). */
void bb_tree_count_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, const int32_t *level,
                        boxbfs_tree_info_t *info_p);

#endif /* BB_BFS_H */
