/* What a loaded graph must satisfy, whatever file it came from (fuzz.h:
 * bb_fuzz_check_graph): the oracle behind the harnesses. A loader that
 * accepts a file must hand on a graph the rest of boxbfs can use without
 * overflow or out-of-range access: CSR offsets from 0 to arcs, columns in
 * [0, n), external ids in [0, INT64_MAX] that map back, statistics, a
 * reference BFS that the validator accepts, and a binary round trip. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define FAIL(...)                                                         \
    do {                                                                  \
        fprintf(stderr, "fuzz: %s: ", boxbfs_graph_name(g));              \
        fprintf(stderr, __VA_ARGS__);                                     \
        fprintf(stderr, "\n");                                            \
        abort();                                                          \
    } while (0)

static void check_shape(boxbfs_graph_t g)
{
    const int64_t n = boxbfs_graph_vertices(g), arcs = boxbfs_graph_arcs(g);
    const int64_t *off = boxbfs_graph_offsets(g), *col = boxbfs_graph_columns(g);
    int64_t lo = -1, hi = -1;
    if (n <= 0 || n > BB_FUZZ_MAX_VERTICES || arcs < 0 || boxbfs_graph_input_edges(g) < 0)
        FAIL("n %lld, arcs %lld, input edges %lld", (long long)n, (long long)arcs,
             (long long)boxbfs_graph_input_edges(g));
    if (boxbfs_graph_rows(g, &lo, &hi) != BOXBFS_OK || lo != 0 || hi != n)
        FAIL("a whole graph holds rows [%lld, %lld) of %lld", (long long)lo, (long long)hi,
             (long long)n);
    if (off[0] != 0 || off[n] != arcs) FAIL("offsets run from %lld to %lld, arcs %lld",
                                            (long long)off[0], (long long)off[n], (long long)arcs);
    for (int64_t v = 0; v < n; v++) {
        if (off[v + 1] < off[v]) FAIL("offsets fall at vertex %lld", (long long)v);
        for (int64_t k = off[v]; k < off[v + 1]; k++)
            if (col[k] < 0 || col[k] >= n) FAIL("column %lld out of range", (long long)col[k]);
    }
}

static void check_ids(boxbfs_graph_t g)
{
    const int64_t n = boxbfs_graph_vertices(g);
    int64_t prev = -1;
    for (int64_t v = 0; v < n; v++) {
        int64_t ext = boxbfs_graph_external_id(g, v), back = -1;
        if (ext < 0 || ext <= prev)
            FAIL("external id %lld of vertex %lld (previous %lld)", (long long)ext, (long long)v,
                 (long long)prev);
        if (boxbfs_graph_internal_id(g, ext, &back) != BOXBFS_OK || back != v)
            FAIL("external id %lld maps back to %lld, not %lld", (long long)ext, (long long)back,
                 (long long)v);
        prev = ext;
    }
    if (boxbfs_graph_external_id(g, n) != -1 || boxbfs_graph_external_id(g, -1) != -1)
        FAIL("ids outside [0, n) name a vertex");
}

static void check_search(boxbfs_graph_t g)
{
    const int64_t n = boxbfs_graph_vertices(g);
    boxbfs_graph_stats_t stats;
    boxbfs_tree_info_t info;
    int64_t *parent = malloc((size_t)n * sizeof *parent);
    int32_t *level = malloc((size_t)n * sizeof *level);
    boxbfs_status_t st;
    if (parent == NULL || level == NULL) abort();
    if ((st = boxbfs_graph_stats(g, &stats)) != BOXBFS_OK)
        FAIL("stats: %s: %s", boxbfs_status_string(st), boxbfs_last_error());
    if (stats.vertices != n || stats.components < 1 || stats.largest_component > n)
        FAIL("stats: %lld vertices, %lld components, largest %lld", (long long)stats.vertices,
             (long long)stats.components, (long long)stats.largest_component);
    /* the first and the last vertex as roots */
    for (int64_t root = 0; root < n; root += n - 1 > 0 ? n - 1 : 1) {
        if ((st = boxbfs_bfs_reference(g, root, parent, level)) != BOXBFS_OK)
            FAIL("reference BFS from %lld: %s: %s", (long long)root, boxbfs_status_string(st),
                 boxbfs_last_error());
        if ((st = boxbfs_validate(g, root, parent, level, &info)) != BOXBFS_OK)
            FAIL("the reference BFS from %lld fails validation: %s", (long long)root,
                 boxbfs_last_error());
        if (info.reached < 1 || info.reached > n || info.input_edges < 0 ||
            info.input_edges > boxbfs_graph_input_edges(g))
            FAIL("tree from %lld: reached %lld, input edges %lld", (long long)root,
                 (long long)info.reached, (long long)info.input_edges);
        if (n == 1) break;
    }
    free(level);
    free(parent);
}

/* Saved as .bbcsr and loaded back: the same graph, ids included. */
static void check_round_trip(boxbfs_graph_t g)
{
    const int64_t n = boxbfs_graph_vertices(g);
    const char *path = bb_fuzz_path(".copy.bbcsr");
    boxbfs_graph_t back = NULL;
    boxbfs_status_t st;
    if ((st = boxbfs_graph_save(g, path)) != BOXBFS_OK)
        FAIL("save: %s: %s", boxbfs_status_string(st), boxbfs_last_error());
    if ((st = boxbfs_graph_load(path, NULL, &back)) != BOXBFS_OK)
        FAIL("a saved graph does not load: %s", boxbfs_last_error());
    if (boxbfs_graph_vertices(back) != n || boxbfs_graph_arcs(back) != boxbfs_graph_arcs(g) ||
        boxbfs_graph_input_edges(back) != boxbfs_graph_input_edges(g) ||
        boxbfs_graph_is_directed(back) != boxbfs_graph_is_directed(g) ||
        memcmp(boxbfs_graph_offsets(back), boxbfs_graph_offsets(g), (size_t)(n + 1) * 8) != 0 ||
        (boxbfs_graph_arcs(g) > 0 &&
         memcmp(boxbfs_graph_columns(back), boxbfs_graph_columns(g),
                (size_t)boxbfs_graph_arcs(g) * 8) != 0))
        FAIL("the round trip through .bbcsr changed the graph");
    for (int64_t v = 0; v < n; v++)
        if (boxbfs_graph_external_id(back, v) != boxbfs_graph_external_id(g, v))
            FAIL("the round trip changed the external id of vertex %lld", (long long)v);
    boxbfs_graph_free(back);
}

void bb_fuzz_check_graph(boxbfs_graph_t g)
{
    check_shape(g);
    check_ids(g);
    check_search(g);
    check_round_trip(g);
}

void bb_fuzz_check_refusal(boxbfs_status_t status, const char *path)
{
    const char *msg = boxbfs_last_error(), *slash = strrchr(path, '/');
    if (status >= 0 || msg == NULL || msg[0] == '\0') {
        fprintf(stderr, "fuzz: %s: refused with status %d and no message\n", path, (int)status);
        abort();
    }
    /* the message names the file: its path, or its name as the graph's name */
    if (strstr(msg, path) == NULL && strstr(msg, slash != NULL ? slash + 1 : path) == NULL) {
        fprintf(stderr, "fuzz: %s: the message does not name the file: %s\n", path, msg);
        abort();
    }
}

void bb_fuzz_load(const char *path, const boxbfs_load_options_t *opts)
{
    boxbfs_graph_t g = NULL;
    boxbfs_status_t st = boxbfs_graph_load(path, opts, &g);
    if (st != BOXBFS_OK) {
        bb_fuzz_check_refusal(st, path);
        return;
    }
    bb_fuzz_check_graph(g);
    boxbfs_graph_free(g);
}

void bb_fuzz_text_file(const uint8_t *data, size_t size, const char *suffix)
{
    static const boxbfs_direction_t directions[] = {
        BOXBFS_DIRECTION_DEFAULT, BOXBFS_DIRECTION_UNDIRECTED, BOXBFS_DIRECTION_DIRECTED};
    boxbfs_load_options_t opts = {0};
    const char *path;
    bb_fuzz_init();
    path = bb_fuzz_write(data, size, suffix);
    opts.direction = directions[size % 3];
    opts.threads = 1;
    bb_fuzz_load(path, &opts);
}
