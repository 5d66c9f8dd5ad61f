/* Reference BFS on small hand-checked graphs: path, star, cycle, two
 * components, a directed graph where direction matters, a single vertex,
 * plus the argument checks (roots out of range, NULL arrays). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

#define MAXN 16

/* Run from root and compare with the expected parents and levels. */
static void expect_bfs(boxbfs_graph_t g, int64_t root, const int64_t *want_parent,
                       const int32_t *want_level, int line)
{
    int64_t parent[MAXN];
    int32_t level[MAXN];
    int64_t n;
    if (g == NULL) return;
    n = boxbfs_graph_vertices(g);
    memset(parent, 0x55, sizeof parent);
    memset(level, 0x55, sizeof level);
    CHECK_OK(boxbfs_bfs_reference(g, root, parent, level));
    for (int64_t v = 0; v < n; v++) {
        if (parent[v] != want_parent[v] || level[v] != want_level[v]) {
            fprintf(stderr, "line %d: root %lld vertex %lld: parent %lld level %d, expected "
                            "parent %lld level %d\n",
                    line, (long long)root, (long long)v, (long long)parent[v], (int)level[v],
                    (long long)want_parent[v], (int)want_level[v]);
            check_failures++;
        }
    }
}

static void test_path(void)
{
    static const int64_t e[][2] = {{0, 1}, {2, 1}, {2, 3}, {3, 4}};
    boxbfs_graph_t g = check_graph(5, 4, e, 0);
    expect_bfs(g, 2, (int64_t[]){1, 2, 2, 2, 3}, (int32_t[]){2, 1, 0, 1, 2}, __LINE__);
    expect_bfs(g, 0, (int64_t[]){0, 0, 1, 2, 3}, (int32_t[]){0, 1, 2, 3, 4}, __LINE__);
    expect_bfs(g, 4, (int64_t[]){1, 2, 3, 4, 4}, (int32_t[]){4, 3, 2, 1, 0}, __LINE__);
    boxbfs_graph_free(g);
}

static void test_star(void)
{
    static const int64_t e[][2] = {{0, 1}, {0, 2}, {3, 0}, {0, 4}, {5, 0}};
    boxbfs_graph_t g = check_graph(6, 5, e, 0);
    expect_bfs(g, 0, (int64_t[]){0, 0, 0, 0, 0, 0}, (int32_t[]){0, 1, 1, 1, 1, 1}, __LINE__);
    expect_bfs(g, 3, (int64_t[]){3, 0, 0, 3, 0, 0}, (int32_t[]){1, 2, 2, 0, 2, 2}, __LINE__);
    boxbfs_graph_free(g);
}

static void test_cycle(void)
{
    /* 6-cycle: the vertex opposite the root is found through the lower id
     * first (rows are sorted, the queue is FIFO). */
    static const int64_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}};
    boxbfs_graph_t g = check_graph(6, 6, e, 0);
    expect_bfs(g, 0, (int64_t[]){0, 0, 1, 2, 5, 0}, (int32_t[]){0, 1, 2, 3, 2, 1}, __LINE__);
    expect_bfs(g, 3, (int64_t[]){1, 2, 3, 3, 3, 4}, (int32_t[]){3, 2, 1, 0, 1, 2}, __LINE__);
    boxbfs_graph_free(g);
}

static void test_two_components(void)
{
    /* {0, 1, 2} a path, {3, 4} an edge, 5 isolated; duplicates and a self-loop
     * change nothing. */
    static const int64_t e[][2] = {{0, 1}, {1, 2}, {4, 3}, {1, 0}, {3, 3}};
    boxbfs_graph_t g = check_graph(6, 5, e, 0);
    expect_bfs(g, 1, (int64_t[]){1, 1, 1, -1, -1, -1}, (int32_t[]){1, 0, 1, -1, -1, -1},
               __LINE__);
    expect_bfs(g, 4, (int64_t[]){-1, -1, -1, 4, 4, -1}, (int32_t[]){-1, -1, -1, 1, 0, -1},
               __LINE__);
    expect_bfs(g, 5, (int64_t[]){-1, -1, -1, -1, -1, 5}, (int32_t[]){-1, -1, -1, -1, -1, 0},
               __LINE__);
    boxbfs_graph_free(g);
}

static void test_directed(void)
{
    /* 0 -> 1 -> 2 -> 0 and 3 -> 1: 3 is reached only from itself. */
    static const int64_t e[][2] = {{0, 1}, {1, 2}, {3, 1}, {2, 0}};
    boxbfs_graph_t g = check_graph(4, 4, e, 1);
    boxbfs_graph_t u = check_graph(4, 4, e, 0);
    expect_bfs(g, 0, (int64_t[]){0, 0, 1, -1}, (int32_t[]){0, 1, 2, -1}, __LINE__);
    expect_bfs(g, 1, (int64_t[]){2, 1, 1, -1}, (int32_t[]){2, 0, 1, -1}, __LINE__);
    expect_bfs(g, 3, (int64_t[]){2, 3, 1, 3}, (int32_t[]){3, 1, 2, 0}, __LINE__);
    /* The same edges undirected: everything is reached, 2 -> 0 is a shortcut. */
    expect_bfs(u, 0, (int64_t[]){0, 0, 0, 1}, (int32_t[]){0, 1, 1, 2}, __LINE__);
    boxbfs_graph_free(g);
    boxbfs_graph_free(u);
}

static void test_single_vertex(void)
{
    int64_t dummy = 0;
    boxbfs_graph_t g = NULL;
    CHECK_OK(boxbfs_graph_from_edges(1, 0, &dummy, &dummy, 0, &g));
    expect_bfs(g, 0, (int64_t[]){0}, (int32_t[]){0}, __LINE__);
    boxbfs_graph_free(g);
}

static void test_bad_arguments(void)
{
    static const int64_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5},
                                   {5, 6}, {6, 7}, {7, 8}, {8, 9}};
    boxbfs_graph_t g = check_graph(10, 9, e, 0);
    int64_t parent[10];
    int32_t level[10];
    if (g == NULL) return;
    CHECK(boxbfs_bfs_reference(g, 12, parent, level) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "root 12 out of range [0, 10)") != NULL);
    CHECK(boxbfs_bfs_reference(g, 10, parent, level) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "root 10 out of range [0, 10)") != NULL);
    CHECK(boxbfs_bfs_reference(g, -1, parent, level) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "root -1 out of range") != NULL);
    CHECK(boxbfs_bfs_reference(g, 0, NULL, level) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "parent") != NULL);
    CHECK(boxbfs_bfs_reference(g, 0, parent, NULL) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "level") != NULL);
    CHECK(boxbfs_bfs_reference(NULL, 0, parent, level) == BOXBFS_ERR_INVALID_ARG);
    /* The last vertex is a fine root. */
    CHECK_OK(boxbfs_bfs_reference(g, 9, parent, level));
    CHECK(level[0] == 9 && parent[0] == 1 && parent[9] == 9);
    boxbfs_graph_free(g);
}

int main(void)
{
    test_path();
    test_star();
    test_cycle();
    test_two_components();
    test_directed();
    test_single_vertex();
    test_bad_arguments();
    CHECK_DONE();
}
