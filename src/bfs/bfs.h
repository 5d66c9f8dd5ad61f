/* Tree checks on a range of rows (validate.c), for boxbfs_validate and for
 * boxbfs_engine_check_tree, where each MPI rank checks its own rows, with
 * all levels but only its rows' parents, and the ranks' results are combined. */
#ifndef BB_BFS_H
#define BB_BFS_H

#include <stdint.h>

#include "boxbfs.h"
#include "graph/graph.h"

/* What a process that holds only the parents of its rows learns of the
 * other rows' parents (engine/check_tree.c), beside their levels. */
typedef struct {
    int64_t root_parent;
    /* Other rows' vertices whose parent is -1 exactly when their level is
     * not -1 (R6 breaks), ascending: elsewhere level[v] != -1 says whether
     * v is reached. Usually none. */
    const int64_t *unlike;
    int64_t nunlike;
    /* Directed slices: (v, parent[v]) pairs, ascending v, of the other rows'
     * vertices whose parent's row is one of [lo, hi), for R2. */
    const int64_t *children;
    int64_t nchildren;
} bb_other_rows_t;

/* boxbfs_validate_depth's rules for the vertices and arcs of rows [lo, hi),
 * which the graph must hold (else INVALID_ARG); level covers all n vertices,
 * parent too when others is NULL; with others, parent is read only at rows
 * [lo, hi) and level must be given. The status and message are those of
 * others == NULL with the whole tree. info_p counts those rows' vertices.
 * For a whole graph, [0, n), max_depth < 0 and others NULL this is
 * boxbfs_validate. */
boxbfs_status_t bb_validate_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                 const int64_t *parent, const int32_t *level, int32_t max_depth,
                                 const bb_other_rows_t *others, boxbfs_tree_info_t *info_p);
/* bb_validate_rows without the rules that read rows (R2, R4, R5's
 * "connected but unreached", R7): R0, R1, R3, R5's second root and R6 over
 * the vertices of [lo, hi), and the counts (offsets only), for a graph whose
 * rows live on its devices, which check the rest (kernels.h check_rows).
 * level covers all n vertices, as parent does. */
boxbfs_status_t bb_validate_vertices(boxbfs_graph_t graph, int64_t lo, int64_t hi, int64_t root,
                                     const int64_t *parent, const int32_t *level,
                                     int32_t max_depth, boxbfs_tree_info_t *info_p);
/* The counts of boxbfs_tree_info_t over the vertices of rows [lo, hi) with
 * level >= 0, without checking anything (runs whose validation is off). */
void bb_tree_count_rows(boxbfs_graph_t graph, int64_t lo, int64_t hi, const int32_t *level,
                        boxbfs_tree_info_t *info_p);

#endif /* BB_BFS_H */
