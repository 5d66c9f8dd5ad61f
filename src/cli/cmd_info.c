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

static void usage(FILE *f)
{
    fputs("usage: boxbfs info GRAPH [options]\n"
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
          f);
}

static int usage_error(const char *what)
{
    bb_cli_error("info: %s", what);
    fputs("Try 'boxbfs info --help'.\n", stderr);
    return BB_EXIT_USAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

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
        return bb_error_set(BOXBFS_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    bb_json_init(&j, f);
    print_json(&j, g, s);
    errno = 0;
    failed = bb_json_finish(&j) != 0;
    if (!to_stdout && fclose(f) != 0) failed = 1;
    if (failed)
        return bb_error_set(BOXBFS_ERR_IO, "%s: write error: %s", to_stdout ? "<stdout>" : path,
                            errno != 0 ? strerror(errno) : "unknown error");
    return BOXBFS_OK;
}

int bb_cmd_info(int argc, char **argv)
{
    boxbfs_load_options_t opts = {BOXBFS_DIRECTION_DEFAULT, 0};
    const char *spec = NULL, *json_path = NULL;
    boxbfs_graph_t graph = NULL;
    boxbfs_graph_stats_t stats;
    boxbfs_status_t st;
    bb_progress_t progress;
    char label[320];
    int positional_only = 0, rc = BB_EXIT_OK;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (spec != NULL) {
                char msg[160];
                snprintf(msg, sizeof msg, "unexpected argument '%.100s': give one GRAPH", arg);
                return usage_error(msg);
            }
            spec = arg;
        } else if (strcmp(arg, "--") == 0) {
            positional_only = 1;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return BB_EXIT_OK;
        } else if (strcmp(arg, "--directed") == 0 || strcmp(arg, "--undirected") == 0) {
            boxbfs_direction_t d = arg[2] == 'd' ? BOXBFS_DIRECTION_DIRECTED
                                                 : BOXBFS_DIRECTION_UNDIRECTED;
            if (opts.direction != BOXBFS_DIRECTION_DEFAULT && opts.direction != d)
                return usage_error("--directed and --undirected exclude each other");
            opts.direction = d;
        } else if ((v = bb_opt_value(argc, argv, &i, "--json", &missing)) != NULL || missing) {
            if (missing) return usage_error("--json needs a value: a file name, or - for stdout");
            if (v[0] == '\0') return usage_error("--json needs a file name, or - for stdout");
            json_path = v;
        } else if ((v = bb_opt_value(argc, argv, &i, "--threads", &missing)) != NULL || missing) {
            int64_t t;
            if (missing || bb_parse_i64(v, 0, 65536, &t) != 0)
                return usage_error("--threads needs a whole number in [0, 65536] (0: all CPUs)");
            opts.threads = (int)t;
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown option '%.100s'", arg);
            return usage_error(msg);
        }
    }
    if (spec == NULL) return usage_error("missing GRAPH: a file or kron:SCALE");
    if (opts.direction != BOXBFS_DIRECTION_DEFAULT &&
        (ends_with(spec, ".bbcsr") || ends_with(spec, ".bbcsr.gz")))
        bb_cli_error("note: %s has no effect on %s: a .bbcsr file records its own direction",
                     opts.direction == BOXBFS_DIRECTION_DIRECTED ? "--directed" : "--undirected",
                     spec);

    snprintf(label, sizeof label, "loading %.300s", spec);
    bb_progress_start(&progress, label, 0);
    bb_progress_update(&progress, 0);
    st = boxbfs_graph_load(spec, &opts, &graph);
    bb_progress_end(&progress);
    if (st != BOXBFS_OK) return bb_cli_fail(st);
    BB_CHECK_GOTO(boxbfs_graph_stats(graph, &stats), st, out_fail);

    if (json_path == NULL || strcmp(json_path, "-") != 0) {
        print_text(stdout, graph, &stats);
        if (fflush(stdout) != 0 || ferror(stdout))
            BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_fail, "<stdout>: write error: %s", strerror(errno));
    }
    if (json_path != NULL) BB_CHECK_GOTO(write_json(json_path, graph, &stats), st, out_fail);
    goto out_free;

out_fail:
    rc = bb_cli_fail(st);
out_free:
    boxbfs_graph_free(graph);
    return rc;
}
