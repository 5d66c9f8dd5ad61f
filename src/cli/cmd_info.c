/* "boxbfs info GRAPH": load a graph (file or kron: spec) and print its size,
 * what the CSR builder dropped, degree statistics and connected components as
 * "key: value" lines on stdout, or as a JSON object with the same keys
 * (--json FILE). Malformed input exits 1 with the library's message. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/json.h"
#include "common/error.h"

static const bb_load_cmd_t info_cmd = {
    .command = "info",
    .usage = "usage: boxbfs info GRAPH [options]\n"
             "\n"
             "Print the size, degree statistics and connected components of GRAPH, a\n"
             "file (.mtx, .bbcsr, SNAP edge list, any of them .gz) or kron:SCALE[:EF[:SEED]].\n"
             "\n"
             "options:\n"
             "  --directed       read the input as a directed graph\n"
             "  --undirected     read the input as an undirected graph\n"
             "                   (default: the format's own: Matrix Market symmetry,\n"
             "                   undirected otherwise; a .bbcsr file records its own)\n"
             "  --json FILE      also write the numbers as JSON to FILE; '-' writes only\n"
             "                   the JSON to stdout\n"
             "  --threads N      threads for generating and building (default 0: all CPUs)\n"
             "  --help           show this help\n",
    .max_positional = 1,
    .too_many = "give one GRAPH",
    .takes_json = 1,
};

static void print_text(FILE *f, boxbfs_graph_t g, const boxbfs_graph_stats_t *s)
{
    fprintf(f, "name: %s\n", boxbfs_graph_name(g));
    fprintf(f, "vertices: %" PRId64 "\n", s->vertices);
    fprintf(f, "input_edges: %" PRId64 "\n", s->input_edges);
    fprintf(f, "arcs: %" PRId64 "\n", s->arcs);
    fprintf(f, "directed: %s\n", boxbfs_graph_is_directed(g) ? "yes" : "no");
    fprintf(f, "self_loops: %" PRId64 "\n", s->self_loops);
    fprintf(f, "duplicate_arcs: %" PRId64 "\n", s->duplicate_arcs);
    fprintf(f, "degree_min: %" PRId64 "\n", s->degree_min);
    fprintf(f, "degree_mean: %.6g\n", s->degree_mean);
    fprintf(f, "degree_stddev: %.6g\n", s->degree_stddev);
    fprintf(f, "degree_max: %" PRId64 "\n", s->degree_max);
    fprintf(f, "isolated: %" PRId64 "\n", s->isolated);
    fprintf(f, "components: %" PRId64 "\n", s->components);
    fprintf(f, "largest_component: %" PRId64 "\n", s->largest_component);
}

static void print_json(bb_json_t *j, boxbfs_graph_t g, const boxbfs_graph_stats_t *s)
{
    bb_json_begin_object(j, NULL);
    bb_json_string(j, "name", boxbfs_graph_name(g));
    bb_json_int(j, "vertices", s->vertices);
    bb_json_int(j, "input_edges", s->input_edges);
    bb_json_int(j, "arcs", s->arcs);
    bb_json_bool(j, "directed", boxbfs_graph_is_directed(g));
    bb_json_int(j, "self_loops", s->self_loops);
    bb_json_int(j, "duplicate_arcs", s->duplicate_arcs);
    bb_json_int(j, "degree_min", s->degree_min);
    bb_json_double(j, "degree_mean", s->degree_mean);
    bb_json_double(j, "degree_stddev", s->degree_stddev);
    bb_json_int(j, "degree_max", s->degree_max);
    bb_json_int(j, "isolated", s->isolated);
    bb_json_int(j, "components", s->components);
    bb_json_int(j, "largest_component", s->largest_component);
    bb_json_end_object(j);
}

/* Write the JSON document to path ("-": stdout). */
static boxbfs_status_t write_json(const char *path, boxbfs_graph_t g, const boxbfs_graph_stats_t *s)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    bb_json_t j;
    int failed;

    if (f == NULL)
        return bb_cli_status(BOXBFS_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    bb_json_init(&j, f);
    print_json(&j, g, s);
    errno = 0;
    failed = bb_json_finish(&j) != 0;
    if (!to_stdout && fclose(f) != 0) failed = 1;
    if (failed)
        return bb_cli_status(BOXBFS_ERR_IO, "%s: write error: %s", to_stdout ? "<stdout>" : path,
                             errno != 0 ? strerror(errno) : "unknown error");
    return BOXBFS_OK;
}

int bb_cmd_info(int argc, char **argv)
{
    bb_load_args_t args;
    const char *spec, *json_path;
    boxbfs_graph_t graph = NULL;
    boxbfs_graph_stats_t stats;
    boxbfs_status_t st;
    int rc;

    rc = bb_cli_parse_load_args(&info_cmd, argc, argv, &args);
    if (rc != BB_ARGS_GO_ON) return rc;
    rc = BB_EXIT_OK;
    spec = args.positional[0];
    json_path = args.json;
    if (spec == NULL) return bb_cli_usage_error("info", "missing GRAPH: a file or kron:SCALE");
    bb_cli_note_direction(spec, &args.load);

    st = bb_cli_load_graph("loading", spec, &args.load, &graph);
    if (st != BOXBFS_OK) return bb_cli_fail(st);
    BB_CHECK_GOTO(boxbfs_graph_stats(graph, &stats), st, out_fail);

    if (json_path == NULL || strcmp(json_path, "-") != 0) {
        print_text(stdout, graph, &stats);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            st = bb_cli_status(BOXBFS_ERR_IO, "<stdout>: write error: %s", strerror(errno));
            goto out_fail;
        }
    }
    if (json_path != NULL) BB_CHECK_GOTO(write_json(json_path, graph, &stats), st, out_fail);
    goto out_free;

out_fail:
    rc = bb_cli_fail(st);
out_free:
    boxbfs_graph_free(graph);
    return rc;
}
