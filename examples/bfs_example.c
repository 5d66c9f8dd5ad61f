/* A program that uses libboxbfs the way a user would: only <boxbfs.h>.
 *
 *   bfs_example [GRAPH [DEVICES [ROOT]]]
 *
 * With no GRAPH it builds a graph from arrays (a 6 x 6 grid, edges of
 * internal ids), otherwise loads GRAPH (kron:SCALE, .mtx, .bbcsr, SNAP edge
 * list, .gz). It runs one BFS on DEVICES devices (default 2; cuda when this
 * machine has that many GPUs, else the cpu backend's emulated devices) from
 * ROOT (default: the grid's corner 0, a loaded graph's vertex with the most
 * edges), validates the tree by the Graph500 rules, prints how many vertices
 * it reached in how many levels, levels and parents of the first vertices
 * and the traffic report (bytes per phase and per link).
 * Exit 0 ok, 1 a failed call (its message on stderr), 2 a wrong result.
 *
 * Build against an installed copy:
 *   cc bfs_example.c $(pkg-config --cflags --libs boxbfs) -o bfs_example */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <boxbfs.h>

#define GRID 6

/* Print the failed call's status and message and leave. */
static int fail(const char *what, boxbfs_status_t st)
{
    fprintf(stderr, "bfs_example: %s: %s: %s\n", what, boxbfs_status_string(st),
            boxbfs_last_error());
    return 1;
}

/* A GRID x GRID grid: vertex r * GRID + c joined to its right and lower
 * neighbours; from vertex 0 the level of (r, c) is r + c. */
static boxbfs_status_t build_grid(boxbfs_graph_t *graph_p)
{
    int64_t src[2 * GRID * GRID], dst[2 * GRID * GRID], m = 0;
    for (int64_t r = 0; r < GRID; r++)
        for (int64_t c = 0; c < GRID; c++) {
            int64_t v = r * GRID + c;
            if (c + 1 < GRID) { src[m] = v; dst[m] = v + 1; m++; }
            if (r + 1 < GRID) { src[m] = v; dst[m] = v + GRID; m++; }
        }
    return boxbfs_graph_from_edges(GRID * GRID, m, src, dst, 0 /* undirected */, graph_p);
}

/* The vertex with the most edges: a search from it reaches the graph's big
 * component, where a Kronecker graph's vertex 0 often has no edge at all. */
static int64_t most_edges(boxbfs_graph_t graph)
{
    const int64_t *off = boxbfs_graph_offsets(graph);
    int64_t best = 0;
    for (int64_t v = 1; v < boxbfs_graph_vertices(graph); v++)
        if (off[v + 1] - off[v] > off[best + 1] - off[best]) best = v;
    return best;
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : NULL;
    int devices = argc > 2 ? atoi(argv[2]) : 2;
    int64_t root;
    boxbfs_graph_t graph = NULL;
    boxbfs_engine_t engine = NULL;
    boxbfs_engine_options_t opts;
    const boxbfs_search_report_t *report;
    boxbfs_tree_info_t info;
    boxbfs_status_t st;
    int64_t n, *parent = NULL;
    int32_t *level = NULL;
    int rc = 1;

    printf("boxbfs %s\n", boxbfs_version());
    st = spec != NULL ? boxbfs_graph_load(spec, NULL, &graph) : build_grid(&graph);
    if (st != BOXBFS_OK) return fail(spec != NULL ? spec : "building the grid", st);
    n = boxbfs_graph_vertices(graph);
    root = argc > 3 ? strtoll(argv[3], NULL, 10) : spec != NULL ? most_edges(graph) : 0;
    printf("graph %s: %" PRId64 " vertices, %" PRId64 " input edges, %s\n", boxbfs_graph_name(graph),
           n, boxbfs_graph_input_edges(graph),
           boxbfs_graph_is_directed(graph) ? "directed" : "undirected");

    boxbfs_engine_options_init(&opts);
    opts.devices = devices;
    opts.backend = boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA) >= devices
                       ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
    st = boxbfs_link_model_parse("expether-2x10g", &opts.link_model);
    if (st != BOXBFS_OK) { rc = fail("link model", st); goto out; }
    st = boxbfs_engine_create(graph, &opts, &engine);
    if (st != BOXBFS_OK) { rc = fail("engine", st); goto out; }

    parent = malloc((size_t)n * sizeof *parent);
    level = malloc((size_t)n * sizeof *level);
    if (parent == NULL || level == NULL) { fprintf(stderr, "bfs_example: out of memory\n"); goto out; }
    st = boxbfs_engine_run(engine, root, parent, level, &report);
    if (st != BOXBFS_OK) { rc = fail("bfs", st); goto out; }
    st = boxbfs_validate(graph, root, parent, level, &info);
    if (st != BOXBFS_OK) { rc = fail("validation", st); goto out; }

    printf("bfs from %" PRId64 " on %d %s devices: %" PRId64 " of %" PRId64 " vertices reached, "
           "%d levels, %.6f s, validated\n", root, boxbfs_engine_device_count(engine), boxbfs_backend_name(opts.backend),
           report->reached, n, report->levels, report->time_s);
    printf("vertex level parent (-1: not reached)\n");
    for (int64_t v = 0; v < n && v < 8; v++)
        printf("%6" PRId64 " %5d %6" PRId64 "\n", v, level[v], parent[v]);
    printf("traffic: %" PRId64 " bytes in %" PRId64 " messages, modeled on %s: %.9f s\n",
           report->total_bytes, report->total_messages, boxbfs_engine_link_model(engine)->name,
           report->modeled_exchange_s);
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++)
        printf("  phase %-16s %10" PRId64 " bytes\n", boxbfs_phase_name((boxbfs_phase_t)p),
               report->phase_bytes[p]);
    for (int s = 0; s < boxbfs_engine_device_count(engine); s++)
        for (int d = 0; d < boxbfs_engine_device_count(engine); d++)
            if (report->link_bytes[s * boxbfs_engine_device_count(engine) + d] > 0)
                printf("  link %d -> %d %10" PRId64 " bytes\n", s, d,
                       report->link_bytes[s * boxbfs_engine_device_count(engine) + d]);

    rc = 0;
    if (spec == NULL && root == 0)   /* the grid: level of (r, c) is r + c */
        for (int64_t v = 0; v < n; v++)
            if (level[v] != v / GRID + v % GRID) {
                fprintf(stderr, "bfs_example: vertex %" PRId64 " at level %d, expected %" PRId64 "\n",
                        v, level[v], v / GRID + v % GRID);
                rc = 2;
            }
    if (devices > 1 && report->total_bytes <= 0) {
        fprintf(stderr, "bfs_example: %d devices but no traffic counted\n", devices);
        rc = 2;
    }
out:
    free(parent);
    free(level);
    boxbfs_engine_free(engine);
    boxbfs_graph_free(graph);
    boxbfs_finalize();
    return rc;
}
