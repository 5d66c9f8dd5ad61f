/* The public graph API of boxbfs.h: load (generator spec or file, by suffix;
 * an MPI rank's slice in slice_mpi.c), build from caller's edges, save, free
 * (heap or mmap-backed arrays), accessors and the internal <-> external
 * vertex id mapping. Statistics are in stats.c, the CSR builder in build.c,
 * file formats in src/io/. */
#include "config.h"

#include "graph/graph.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/error.h"
#include "common/search.h"
#include "io/io.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static boxbfs_status_t load_kron(const char *spec, int directed, int threads,
                                 boxbfs_graph_t *graph_p)
{
    int scale, edgefactor;
    uint64_t seed;
    char name[128];
    bb_edges_t edges;
    BB_CHECK(bb_kron_parse(spec, &scale, &edgefactor, &seed));
    BB_CHECK(bb_kron_generate(scale, edgefactor, seed, threads, &edges));
    snprintf(name, sizeof name, "kron:%d:%d:%" PRIu64, scale, edgefactor, seed);
    return bb_graph_build(&edges, directed, threads, NULL, 0, name, graph_p);
}

/* The sizes, offsets and credits of zeros (the engine fills them), the
 * generator's parameters, no columns. */
boxbfs_status_t boxbfs_graph_kron_on_devices(const char *spec, boxbfs_graph_t *graph_p)
{
    int scale, edgefactor;
    uint64_t seed;
    int64_t n, m;
    boxbfs_graph_t g;
    if (spec == NULL || graph_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_graph_kron_on_devices: NULL %s",
                            spec == NULL ? "spec" : "graph output");
    if (strncmp(spec, "kron:", 5) != 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "%s: only kron: graphs are built on the "
                            "devices", spec);
    BB_CHECK(bb_kron_parse(spec, &scale, &edgefactor, &seed));
    BB_CHECK(bb_kron_sizes(scale, edgefactor, &n, &m));
    BB_CHECK(bb_calloc(1, sizeof *g, "a graph", &g));
    boxbfs_status_t st = bb_calloc((size_t)n + 1, sizeof *g->offsets, "the offsets", &g->offsets);
    if (st == BOXBFS_OK)
        st = bb_calloc((size_t)n, sizeof *g->edge_credit, "the edge credits", &g->edge_credit);
    if (st != BOXBFS_OK) {
        boxbfs_graph_free(g);
        return st;
    }
    g->n = n;
    g->input_edges = m;
    g->on_devices = 1;
    g->kron_scale = scale;
    g->kron_edgefactor = edgefactor;
    g->kron_seed = seed;
    snprintf(g->name, sizeof g->name, "kron:%d:%d:%" PRIu64, scale, edgefactor, seed);
    *graph_p = g;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_graph_load(const char *spec, const boxbfs_load_options_t *opts,
                                  boxbfs_graph_t *graph_p)
{
    boxbfs_direction_t direction = opts != NULL ? opts->direction : BOXBFS_DIRECTION_DEFAULT;
    int threads = opts != NULL ? opts->threads : 0;
    if (spec == NULL || spec[0] == '\0')
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph spec is empty: give a file or kron:SCALE");
    if (graph_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph output is NULL");
    if (direction != BOXBFS_DIRECTION_DEFAULT && direction != BOXBFS_DIRECTION_UNDIRECTED &&
        direction != BOXBFS_DIRECTION_DIRECTED)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "unknown graph direction %d", (int)direction);
    if (threads < 0) threads = 0;
    if (opts != NULL && opts->mpi_slice &&
        (strncmp(spec, "kron:", 5) == 0 || ends_with(spec, ".bbcsr")))
        return bb_graph_load_slice(spec, direction == BOXBFS_DIRECTION_DIRECTED, threads, graph_p);
    if (strncmp(spec, "kron:", 5) == 0)   /* generated graphs are undirected by default */
        return load_kron(spec, direction == BOXBFS_DIRECTION_DIRECTED, threads, graph_p);
    /* The stored graph says whether it is directed; direction does not apply. */
    if (ends_with(spec, ".bbcsr") || ends_with(spec, ".bbcsr.gz"))
        return bb_io_load_binary(spec, graph_p);
    if (ends_with(spec, ".mtx") || ends_with(spec, ".mtx.gz"))
        return bb_io_load_mtx(spec, direction, threads, graph_p);
    return bb_io_load_snap(spec, direction, threads, graph_p);
}

boxbfs_status_t boxbfs_graph_from_edges(int64_t n, int64_t nedges, const int64_t *src,
                                        const int64_t *dst, int directed,
                                        boxbfs_graph_t *graph_p)
{
    bb_edges_t edges;
    if (graph_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph output is NULL");
    if (n <= 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "vertex count %lld must be positive",
                            (long long)n);
    if (nedges < 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "edge count %lld is negative",
                            (long long)nedges);
    if (nedges > 0 && (src == NULL || dst == NULL))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "%lld edges but the %s array is NULL",
                            (long long)nedges, src == NULL ? "source" : "target");
    BB_CHECK(bb_edges_init(&edges, nedges));
    if (nedges > 0) {
        memcpy(edges.src, src, (size_t)nedges * sizeof *src);
        memcpy(edges.dst, dst, (size_t)nedges * sizeof *dst);
    }
    edges.n = n;
    edges.count = nedges;
    return bb_graph_build(&edges, directed, 0, NULL, 0, "edges", graph_p);
}

boxbfs_status_t boxbfs_graph_save(boxbfs_graph_t graph, const char *path)
{
    if (graph == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph is NULL");
    if (path == NULL || path[0] == '\0')
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "output path is empty");
    return bb_io_save_binary(graph, path);
}

boxbfs_status_t boxbfs_graph_save_edgelist(boxbfs_graph_t graph, const char *path)
{
    if (path != NULL && path[0] == '\0')
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "output path is empty");
    return bb_io_save_edgelist(graph, path);
}

boxbfs_status_t bb_graph_check_sources(const struct boxbfs_graph *g, const int64_t *sources,
                                       int64_t count, const char *what)
{
    uint8_t *seen;   /* one bit per vertex */
    boxbfs_status_t st = BOXBFS_OK;
    BB_CHECK(bb_calloc((size_t)g->n / 8 + 1, 1, "the sources seen", &seen));
    for (int64_t i = 0; i < count && st == BOXBFS_OK; i++) {
        int64_t s = sources[i];
        if (s < 0 || s >= g->n)
            st = bb_error_set(BOXBFS_ERR_INVALID_ARG, "%s: source %lld (number %lld) out of range "
                              "[0, %lld)", what, (long long)s, (long long)i, (long long)g->n);
        else if (seen[s >> 3] & (1u << (s & 7)))
            st = bb_error_set(BOXBFS_ERR_INVALID_ARG, "%s: source %lld given twice (number %lld "
                              "repeats it)", what, (long long)s, (long long)i);
        else
            seen[s >> 3] |= (uint8_t)(1u << (s & 7));
    }
    free(seen);
    return st;
}

boxbfs_status_t bb_graph_require_whole(const struct boxbfs_graph *g, const char *what)
{
    if (!bb_graph_is_slice(g)) return BOXBFS_OK;
    return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                        "%s needs the whole graph, but %s is an MPI rank's slice holding the "
                        "rows [%lld, %lld) of %lld only (load it without mpi_slice, or "
                        "boxbfs bfs --whole-graph)", what, g->name, (long long)g->row_lo,
                        (long long)g->row_hi, (long long)g->n);
}

/* free() an array unless it lies inside the graph's file mapping. */
static void free_array(boxbfs_graph_t graph, void *p)
{
    if (p == NULL) return;
    if (graph->mapping != NULL) {
        uintptr_t a = (uintptr_t)p, lo = (uintptr_t)graph->mapping;
        if (a >= lo && a - lo < graph->mapping_bytes) return;
    }
    free(p);
}

void boxbfs_graph_free(boxbfs_graph_t graph)
{
    if (graph == NULL) return;
    free_array(graph, graph->offsets);
    free_array(graph, graph->columns);
    free_array(graph, graph->edge_credit);
    free_array(graph, graph->external);
    free(graph->loaded);
    free(graph->relabeled);
    if (graph->mapping != NULL) munmap(graph->mapping, graph->mapping_bytes);
    free(graph);
}

int64_t boxbfs_graph_vertices(boxbfs_graph_t graph) { return graph ? graph->n : 0; }
int64_t boxbfs_graph_input_edges(boxbfs_graph_t graph) { return graph ? graph->input_edges : 0; }
int64_t boxbfs_graph_arcs(boxbfs_graph_t graph) { return graph ? graph->arcs : 0; }
int boxbfs_graph_is_directed(boxbfs_graph_t graph) { return graph ? graph->directed : 0; }
const char *boxbfs_graph_name(boxbfs_graph_t graph) { return graph ? graph->name : ""; }
const int64_t *boxbfs_graph_offsets(boxbfs_graph_t graph) { return graph ? graph->offsets : NULL; }
const int64_t *boxbfs_graph_columns(boxbfs_graph_t graph) { return graph ? graph->columns : NULL; }

boxbfs_status_t boxbfs_graph_rows(boxbfs_graph_t graph, int64_t *lo_p, int64_t *hi_p)
{
    if (graph == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph is NULL");
    if (lo_p) *lo_p = graph->row_lo;
    if (hi_p) *hi_p = graph->row_hi;
    return BOXBFS_OK;
}

/* One n-entry id array copied, or NULL for NULL. */
static boxbfs_status_t copy_ids(const int64_t *from, int64_t n, const char *what, int64_t **to_p)
{
    *to_p = NULL;
    if (from == NULL) return BOXBFS_OK;
    BB_CHECK(bb_malloc((size_t)n * sizeof **to_p, what, to_p));
    memcpy(*to_p, from, (size_t)n * sizeof **to_p);
    return BOXBFS_OK;
}

boxbfs_status_t bb_graph_copy_ids(struct boxbfs_graph *to, const struct boxbfs_graph *from)
{
    to->id_base = from->id_base;
    BB_CHECK(copy_ids(from->external, from->n, "external ids", &to->external));
    BB_CHECK(copy_ids(from->loaded, from->n, "vertex order", &to->loaded));
    return copy_ids(from->relabeled, from->n, "vertex order", &to->relabeled);
}

/* -1 when internal names no vertex. */
int64_t boxbfs_graph_external_id(boxbfs_graph_t graph, int64_t internal)
{
    if (graph == NULL || internal < 0 || internal >= graph->n) return -1;
    if (graph->loaded != NULL) internal = graph->loaded[internal];
    return graph->external != NULL ? graph->external[internal] : internal + graph->id_base;
}

/* The vertex as loaded (before any relabeling) of an external id. */
static boxbfs_status_t loaded_id(boxbfs_graph_t graph, int64_t external, int64_t *loaded_p)
{
    if (graph->external != NULL) {   /* sorted ascending: binary search */
        int64_t lo = bb_lower_bound_i64(graph->external, 0, graph->n, external);
        if (lo < graph->n && graph->external[lo] == external) {
            *loaded_p = lo;
            return BOXBFS_OK;
        }
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "vertex %lld is not in graph %s",
                            (long long)external, graph->name);
    }
    /* external - id_base, without signed overflow */
    if (external < graph->id_base || (uint64_t)external - (uint64_t)graph->id_base >= (uint64_t)graph->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "vertex %lld is not in graph %s: ids are [%lld, %lld]",
                            (long long)external, graph->name, (long long)graph->id_base,
                            (long long)(graph->id_base + graph->n - 1));
    *loaded_p = external - graph->id_base;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_graph_internal_id(boxbfs_graph_t graph, int64_t external,
                                         int64_t *internal_p)
{
    int64_t u = 0;
    if (graph == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "graph is NULL");
    BB_CHECK(loaded_id(graph, external, &u));
    if (internal_p) *internal_p = graph->relabeled != NULL ? graph->relabeled[u] : u;
    return BOXBFS_OK;
}
