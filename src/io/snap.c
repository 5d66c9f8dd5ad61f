/* SNAP edge-list loader: "FromNodeId ToNodeId" per line (tabs or spaces, LF or
 * CRLF), lines starting with '#' or '%' are comments (SNAP and KONECT style),
 * blank lines are skipped, any third column is an error. Ids are non-negative
 * and may leave gaps: they are renumbered densely in ascending order and the
 * sorted external ids are handed to the graph (none when the ids are exactly
 * 0..n-1). Undirected unless DIRECTED is asked (then From -> To). */
#include "config.h"

#include "io/io.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/search.h"
#include "io/reader.h"

#define INITIAL_EDGES ((int64_t)1 << 16)
#define MIN_LINE_BYTES 4u   /* "0 1\n": no more edges than the file's bytes / 4 */
/* A largest id below 4 x edges + DENSE_SLACK is renumbered through a direct
 * map over [0, largest id], a larger one by sorting the endpoints (a tiny
 * file with an id of 10^6 must not cost an 8 MB map). */
#define DENSE_SLACK ((int64_t)1 << 12)

/* LSD radix sort of non-negative keys below 2^bits, 8 bits per pass. */
static void radix_sort(int64_t *keys, int64_t *tmp, int64_t count, int bits)
{
    int64_t *from = keys, *to = tmp;
    for (int shift = 0; shift < bits; shift += 8) {
        int64_t bucket[257] = {0};
        for (int64_t k = 0; k < count; k++) bucket[((uint64_t)from[k] >> shift & 0xff) + 1]++;
        for (int b = 0; b < 256; b++) bucket[b + 1] += bucket[b];
        for (int64_t k = 0; k < count; k++)
            to[bucket[(uint64_t)from[k] >> shift & 0xff]++] = from[k];
        int64_t *t = from;
        from = to;
        to = t;
    }
    if (from != keys) memcpy(keys, from, (size_t)count * sizeof *keys);
}

/* Ids dense enough for a direct map over [0, max_id]. */
static boxbfs_status_t renumber_dense(bb_edges_t *e, int64_t max_id, int64_t **external_p,
                                      int64_t *n_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    int64_t m = e->count, n = 0, *map, *external = NULL;

    BB_CHECK(bb_calloc((size_t)max_id + 1, sizeof *map, "the vertex id map", &map));
    for (int64_t k = 0; k < m; k++) map[e->src[k]] = map[e->dst[k]] = 1;
    for (int64_t id = 0; id <= max_id; id++) n += map[id];
    if (n != max_id + 1)   /* gaps: keep the external ids */
        BB_CHECK_GOTO(bb_malloc((size_t)n * sizeof *external, "external vertex ids", &external), st,
                      out_free);
    n = 0;
    for (int64_t id = 0; id <= max_id; id++) {
        if (map[id]) {
            if (external != NULL) external[n] = id;
            map[id] = n++;
        }
    }
    for (int64_t k = 0; k < m; k++) {
        e->src[k] = map[e->src[k]];
        e->dst[k] = map[e->dst[k]];
    }
    *external_p = external;
    *n_p = n;
out_free:
    free(map);
    return st;
}

/* Sparse ids: sort all endpoints, keep the distinct ones, binary search. */
static boxbfs_status_t renumber_sparse(bb_edges_t *e, int64_t max_id, int64_t **external_p,
                                       int64_t *n_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    int64_t m = e->count, n = 0, *ids = NULL, *tmp = NULL, *external;
    int bits = 0;

    while (bits < 63 && (max_id >> bits) != 0) bits++;
    BB_CHECK_GOTO(bb_malloc((size_t)(2 * m) * sizeof *ids, "vertex ids", &ids), st, out_free);
    BB_CHECK_GOTO(bb_malloc((size_t)(2 * m) * sizeof *tmp, "the vertex id sort", &tmp), st,
                  out_free);
    memcpy(ids, e->src, (size_t)m * sizeof *ids);
    memcpy(ids + m, e->dst, (size_t)m * sizeof *ids);
    radix_sort(ids, tmp, 2 * m, bits);
    for (int64_t k = 0; k < 2 * m; k++)
        if (n == 0 || ids[k] != ids[n - 1]) ids[n++] = ids[k];
    for (int64_t k = 0; k < m; k++) {
        e->src[k] = bb_lower_bound_i64(ids, 0, n, e->src[k]);
        e->dst[k] = bb_lower_bound_i64(ids, 0, n, e->dst[k]);
    }
    external = realloc(ids, (size_t)n * sizeof *ids);
    if (external == NULL) external = ids;   /* keep the larger block */
    ids = NULL;
    *external_p = external;
    *n_p = n;
out_free:
    free(tmp);
    free(ids);
    return st;
}

/* Replace the ids in edges by dense internal ids in ascending id order;
 * *external_p gets the sorted distinct ids, or NULL when they are 0..n-1. */
static boxbfs_status_t renumber(bb_edges_t *e, int64_t max_id, int64_t **external_p, int64_t *n_p)
{
    if (max_id < 4 * e->count + DENSE_SLACK)
        return renumber_dense(e, max_id, external_p, n_p);
    return renumber_sparse(e, max_id, external_p, n_p);
}

boxbfs_status_t bb_io_load_snap(const char *path, boxbfs_direction_t direction, int threads,
                                boxbfs_graph_t *graph_p)
{
    static const char after[] = "the two vertex ids (SNAP lines are 'FromNodeId ToNodeId')";
    boxbfs_status_t st;
    bb_reader_t r;
    bb_edges_t edges;
    int64_t max_id = 0, n = 0, *external = NULL;
    char *line, *p;
    size_t len;

    if (direction != BOXBFS_DIRECTION_DEFAULT && direction != BOXBFS_DIRECTION_UNDIRECTED &&
        direction != BOXBFS_DIRECTION_DIRECTED)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "unknown direction %d", (int)direction);
    BB_CHECK(bb_reader_open(&r, path));
    {
        uint64_t fits = bb_reader_text_bound(&r) / MIN_LINE_BYTES + 1;
        BB_CHECK_GOTO(bb_edges_init(&edges, fits < (uint64_t)INITIAL_EDGES ? (int64_t)fits
                                                                            : INITIAL_EDGES),
                      st, out_close);
    }

    for (;;) {
        int64_t u, v;
        BB_CHECK_GOTO(bb_reader_next(&r, &line, &len), st, out_edges);
        if (line == NULL) break;
        p = bb_reader_skip_ws(line);
        if (*p == '#' || *p == '%' || (*p == '\0' && p == line + len)) continue;
        BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "source vertex id", &u), st, out_edges);
        BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "target vertex id", &v), st, out_edges);
        if (*p != '\0' || p != line + len)
            BB_CHECK_GOTO(bb_reader_expect_end(&r, p, line + len, after), st, out_edges);
        if (u > max_id) max_id = u;
        if (v > max_id) max_id = v;
        BB_CHECK_GOTO(bb_edges_push(&edges, u, v), st, out_edges);
    }
    if (edges.count == 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_edges, "%s: no edges", path);
    bb_reader_close(&r);

    st = renumber(&edges, max_id, &external, &n);
    if (st != BOXBFS_OK) {
        bb_edges_free(&edges);
        return st;
    }
    if (n > bb_io_max_vertices()) {
        free(external);
        bb_edges_free(&edges);
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: %lld distinct vertex ids, more than the %lld "
                            "vertices boxbfs accepts", path, (long long)n,
                            (long long)bb_io_max_vertices());
    }
    edges.n = n;
    /* Consumes edges and adopts external, success or not. */
    return bb_graph_build(&edges, direction == BOXBFS_DIRECTION_DIRECTED, threads, external, 0,
                          bb_io_basename(path), graph_p);

out_edges:
    bb_edges_free(&edges);
out_close:
    bb_reader_close(&r);
    return st;
}
