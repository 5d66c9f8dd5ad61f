/* Minimal test helpers for the Automake parallel harness: exit 0 pass,
 * 77 skip, 1 fail. CHECK keeps going after a failure and counts it. */
#ifndef BB_TESTS_CHECK_H
#define BB_TESTS_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"

static int check_failures = 0;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                               \
        }                                                                   \
    } while (0)

/* CHECK that a boxbfs call returned OK; print its message otherwise. */
#define CHECK_OK(call)                                                      \
    do {                                                                    \
        boxbfs_status_t check_st_ = (call);                                 \
        if (check_st_ != BOXBFS_OK) {                                       \
            fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call, \
                    boxbfs_status_string(check_st_), boxbfs_last_error());  \
            check_failures++;                                               \
        }                                                                   \
    } while (0)

/* CHECK that a boxbfs call failed with status want and left a message. */
#define CHECK_FAILS(call, want)                                             \
    do {                                                                    \
        boxbfs_status_t check_st_ = (call);                                 \
        if (check_st_ != (want) || boxbfs_last_error()[0] == '\0') {        \
            fprintf(stderr, "%s:%d: %s returned %s (\"%s\"), expected %s\n", __FILE__, \
                    __LINE__, #call, boxbfs_status_string(check_st_), boxbfs_last_error(), \
                    boxbfs_status_string(want));                            \
            check_failures++;                                               \
        }                                                                   \
    } while (0)

#define SKIP(why)                                                           \
    do {                                                                    \
        fprintf(stderr, "SKIP: %s\n", why);                                 \
        exit(77);                                                           \
    } while (0)

#define CHECK_DONE()                                                        \
    do {                                                                    \
        if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures); \
        return check_failures ? 1 : 0;                                      \
    } while (0)

/* A small graph from m edge pairs (m <= 64); NULL (a counted failure) on error. */
static inline boxbfs_graph_t check_graph(int64_t n, int64_t m, const int64_t (*e)[2], int directed)
{
    int64_t src[64], dst[64];
    boxbfs_graph_t g = NULL;
    CHECK(m <= 64);
    if (m > 64) return NULL;
    for (int64_t i = 0; i < m; i++) {
        src[i] = e[i][0];
        dst[i] = e[i][1];
    }
    CHECK_OK(boxbfs_graph_from_edges(n, m, src, dst, directed, &g));
    return g;
}

/* The search from root left a tree that passes the Graph500 validator and
 * the reference BFS's levels; otherwise prints why after `what` (the case:
 * grid, wire, root) and returns 0. */
static inline int check_tree_levels(boxbfs_graph_t g, int64_t root, const int64_t *parent,
                                    const int32_t *level, const char *what)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *ref_parent = malloc((size_t)n * 8 + 8);
    int32_t *ref_level = malloc((size_t)n * 4 + 4);
    int ok = 0;
    if (ref_parent == NULL || ref_level == NULL) {
        fprintf(stderr, "%s: out of memory\n", what);
    } else if (boxbfs_validate(g, root, parent, level, NULL) != BOXBFS_OK) {
        fprintf(stderr, "%s: %s\n", what, boxbfs_last_error());
    } else if (boxbfs_bfs_reference(g, root, ref_parent, ref_level) != BOXBFS_OK ||
               memcmp(level, ref_level, (size_t)n * 4) != 0) {
        fprintf(stderr, "%s: levels differ from the reference\n", what);
    } else {
        ok = 1;
    }
    free(ref_parent);
    free(ref_level);
    return ok;
}

#endif /* BB_TESTS_CHECK_H */
