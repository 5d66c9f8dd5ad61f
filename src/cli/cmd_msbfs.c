/* boxbfs msbfs: concurrent multi-source BFS (iBFS [000], boxbfs_msbfs_*): load a
 * graph, take random sources (the Graph500 root choice) or a source file,
 * run them in groups over the devices, check a sample of the instances'
 * depths against the sequential reference BFS, and report per source
 * (reached, eccentricity, sum of depths, closeness), per group and device,
 * and the aggregate TEPS both as Graph500 and as the iBFS paper count. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Depth rows validated in full when n x sources is at most this; else a
 * sample of VALIDATE_PER_GROUP instances per group (first and last). */
#define VALIDATE_ALL_ENTRIES ((int64_t)1 << 26)
#define VALIDATE_PER_GROUP 2
/* --output-depths keeps every instance's depths in host memory. */
#define OUTPUT_DEPTHS_MAX_BYTES ((int64_t)4 << 30)

typedef struct {
    const char *spec, *source_file, *output_depths, *closeness, *json;
    boxbfs_load_options_t load;
    boxbfs_msbfs_options_t o;
    int nsources, backend_given, devices_given, validate;
    int relabel;         /* --relabel degree */
    double relabel_s;
    uint64_t seed;
} args_t;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: boxbfs msbfs GRAPH [options]\n"
        "  concurrent multi-source BFS (iBFS): groups of sources share a bitwise status array\n"
        "  GRAPH                  kron:SCALE[:EDGEFACTOR[:SEED]], .mtx, SNAP, .bbcsr, .gz\n"
        "  --directed | --undirected   how to read a file (default: the format's own)\n"
        "  --sources N            random distinct sources of non-zero degree (default 64)\n"
        "  --source-file FILE     sources from FILE: ids of the input file, whitespace separated,\n"
        "                         '#' starts a comment\n"
        "  --seed S               seed of the random sources (default 1)\n"
        "  --group-size 32|64|128 instances per group (default 128)\n"
        "  --groupby on|off       outdegree GroupBy rules (default on)\n"
        "  --groupby-p P          rule 1: sources of out-degree < P (default 128)\n"
        "  --groupby-q Q          rule 2: a common neighbor of out-degree > Q (default 128)\n"
        "  --max-depth K          k-hop: depths 0..K only (reached = k-hop counts)\n"
        "  --alpha A              bottom-up when the joint frontier's out-arcs x A exceed the\n"
        "                         in-arcs of the vertices not reached by every instance (4)\n"
        "  --backend cpu|cuda     default: cuda when a GPU is present, else cpu\n"
        "  --devices N            devices the groups spread over (default: all GPUs; 1 on cpu)\n"
        "  --output-depths FILE   every source's depth array: binary (README), text when FILE\n"
        "                         ends in .txt or is '-'\n"
        "  --closeness FILE       'source reached eccentricity sum_depth closeness' per source\n"
        "  --json FILE            machine-readable report ('-' = stdout)\n"
        "  --relabel none|degree  search a copy numbered by decreasing degree, hubs first (ids in\n"
        "                         every output stay the input's; default none)\n"
        "  --no-validate          skip the check against the reference BFS\n"
        "  --threads N            generator/loader threads (default: all CPUs)\n");
}

static int parse_args(int argc, char **argv, args_t *a)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        int64_t n;
        boxbfs_direction_t dir;
        const char *v;
        const char *arg = argv[i];
#define OPT(name) ((v = bb_opt_value(argc, argv, &i, name, &missing)) != NULL || missing)
#define NEED_VALUE(name) \
    if (missing) return bb_cli_usage_error("msbfs", "%s needs a value", name);
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return BB_EXIT_OK;
        } else if (bb_opt_direction(arg, &dir)) {
            if (a->load.direction != BOXBFS_DIRECTION_DEFAULT && a->load.direction != dir)
                return bb_cli_usage_error("msbfs", "--directed and --undirected exclude each other");
            a->load.direction = dir;
        } else if (strcmp(arg, "--no-validate") == 0) {
            a->validate = 0;
        } else if (OPT("--sources")) {
            NEED_VALUE("--sources");
            if (bb_parse_i64(v, 1, 1 << 24, &n))
                return bb_cli_usage_error("msbfs", "--sources: '%s' is not a count in [1, 16777216]", v);
            a->nsources = (int)n;
        } else if (OPT("--source-file")) {
            NEED_VALUE("--source-file");
            a->source_file = v;
        } else if (OPT("--seed")) {
            NEED_VALUE("--seed");
            if (bb_parse_i64(v, 0, INT64_MAX, &n))
                return bb_cli_usage_error("msbfs", "--seed: '%s' is not a non-negative integer", v);
            a->seed = (uint64_t)n;
        } else if (OPT("--group-size")) {
            NEED_VALUE("--group-size");
            if (bb_parse_i64(v, 1, 1024, &n) || (n != 32 && n != 64 && n != 128))
                return bb_cli_usage_error("msbfs", "--group-size: '%s' is not 32, 64 or 128", v);
            a->o.group_size = (int)n;
        } else if (OPT("--groupby")) {
            NEED_VALUE("--groupby");
            if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
                return bb_cli_usage_error("msbfs", "--groupby: '%s' is not on or off", v);
            a->o.groupby = strcmp(v, "on") == 0;
        } else if (OPT("--groupby-p")) {
            NEED_VALUE("--groupby-p");
            if (bb_parse_i64(v, 1, INT64_MAX, &n))
                return bb_cli_usage_error("msbfs", "--groupby-p: '%s' is not a degree >= 1", v);
            a->o.groupby_p = n;
        } else if (OPT("--groupby-q")) {
            NEED_VALUE("--groupby-q");
            if (bb_parse_i64(v, 0, INT64_MAX, &n))
                return bb_cli_usage_error("msbfs", "--groupby-q: '%s' is not a degree >= 0", v);
            a->o.groupby_q = n;
        } else if (OPT("--max-depth")) {
            NEED_VALUE("--max-depth");
            if (bb_parse_i64(v, 0, INT32_MAX, &n))
                return bb_cli_usage_error("msbfs", "--max-depth: '%s' is not a depth >= 0", v);
            a->o.max_depth = (int32_t)n;
        } else if (OPT("--alpha")) {
            NEED_VALUE("--alpha");
            if (bb_parse_positive(v, &a->o.alpha))
                return bb_cli_usage_error("msbfs", "--alpha: '%s' is not a positive number", v);
        } else if (OPT("--backend")) {
            NEED_VALUE("--backend");
            if (strcmp(v, "cpu") == 0) a->o.backend = BOXBFS_BACKEND_CPU;
            else if (strcmp(v, "cuda") == 0) a->o.backend = BOXBFS_BACKEND_CUDA;
            else return bb_cli_usage_error("msbfs", "--backend: '%s' is not cpu or cuda", v);
            a->backend_given = 1;
        } else if (OPT("--devices")) {
            NEED_VALUE("--devices");
            if (bb_parse_i64(v, 1, 64, &n))
                return bb_cli_usage_error("msbfs", "--devices: '%s' is not a count in [1, 64]", v);
            a->o.devices = (int)n;
            a->devices_given = 1;
        } else if (OPT("--output-depths")) {
            NEED_VALUE("--output-depths");
            a->output_depths = v;
        } else if (OPT("--closeness")) {
            NEED_VALUE("--closeness");
            a->closeness = v;
        } else if (OPT("--json")) {
            NEED_VALUE("--json");
            a->json = v;
        } else if (OPT("--relabel")) {
            NEED_VALUE("--relabel");
            if (strcmp(v, "none") != 0 && strcmp(v, "degree") != 0)
                return bb_cli_usage_error("msbfs", "--relabel: unknown value '%s' (none, degree)", v);
            a->relabel = strcmp(v, "degree") == 0;
        } else if (OPT("--threads")) {
            NEED_VALUE("--threads");
            if (bb_parse_i64(v, 0, 65536, &n))
                return bb_cli_usage_error("msbfs", "--threads: '%s' is not a count in [0, 65536]", v);
            a->load.threads = (int)n;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return bb_cli_usage_error("msbfs", "unknown option '%s'", arg);
        } else if (a->spec == NULL) {
            a->spec = arg;
        } else {
            return bb_cli_usage_error("msbfs", "more than one graph given ('%s' and '%s')", a->spec, arg);
        }
#undef OPT
#undef NEED_VALUE
    }
    if (a->spec == NULL) return bb_cli_usage_error("msbfs", "no GRAPH given");
    if (a->source_file && a->nsources)
        return bb_cli_usage_error("msbfs", "--sources and --source-file exclude each other");
    return BB_ARGS_GO_ON;
}

/* Sources from a file of external ids: every id must name a vertex, none twice. */
static int read_source_file(boxbfs_graph_t g, const char *path, int64_t **src_p, int *count_p)
{
    FILE *f = fopen(path, "r");
    int64_t *src = NULL, cap = 0, count = 0, line = 1, n = boxbfs_graph_vertices(g);
    int c, rc = BB_EXIT_USAGE;
    uint8_t *seen = NULL;
    if (f == NULL) {
        bb_cli_error("--source-file %s: cannot open: %s", path, strerror(errno));
        return BB_EXIT_USAGE;
    }
    seen = calloc((size_t)n + 1, 1);
    if (!seen) { bb_cli_error("out of memory"); rc = BB_EXIT_RUNTIME; goto out; }
    while ((c = fgetc(f)) != EOF) {
        char tok[64];
        size_t len = 0;
        int64_t ext, id;
        if (c == '\n') { line++; continue; }
        if (c == ' ' || c == '\t' || c == '\r') continue;
        if (c == '#') {
            while ((c = fgetc(f)) != EOF && c != '\n') {}
            line++;
            continue;
        }
        while (c != EOF && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '#') {
            if (len + 1 < sizeof tok) tok[len++] = (char)c;
            else len = sizeof tok;   /* too long: fails below */
            c = fgetc(f);
        }
        if (c != EOF) ungetc(c, f);
        tok[len < sizeof tok ? len : sizeof tok - 1] = '\0';
        if (len >= sizeof tok || bb_parse_i64(tok, INT64_MIN, INT64_MAX, &ext)) {
            bb_cli_error("%s:%lld: '%s' is not a vertex id", path, (long long)line, tok);
            goto out;
        }
        if (boxbfs_graph_internal_id(g, ext, &id) != BOXBFS_OK) {
            bb_cli_error("%s:%lld: source %lld is not a vertex of %s (%s)", path, (long long)line,
                         (long long)ext, boxbfs_graph_name(g), boxbfs_last_error());
            goto out;
        }
        if (seen[id]) {
            bb_cli_error("%s:%lld: source %lld given twice", path, (long long)line, (long long)ext);
            goto out;
        }
        seen[id] = 1;
        if (count == n) {   /* cannot happen without a duplicate; kept as a guard */
            bb_cli_error("%s: more sources than the %lld vertices of %s", path, (long long)n,
                         boxbfs_graph_name(g));
            goto out;
        }
        if (count == cap) {
            int64_t *grown = realloc(src, (size_t)(cap = cap ? 2 * cap : 256) * sizeof *grown);
            if (!grown) { bb_cli_error("out of memory"); rc = BB_EXIT_RUNTIME; goto out; }
            src = grown;
        }
        src[count++] = id;
    }
    if (ferror(f)) {
        bb_cli_error("--source-file %s: read error", path);
        goto out;
    }
    if (count == 0) {
        bb_cli_error("--source-file %s: no sources in the file", path);
        goto out;
    }
    if (count > (1 << 24)) {
        bb_cli_error("--source-file %s: %lld sources, at most 16777216", path, (long long)count);
        goto out;
    }
    *src_p = src;
    *count_p = (int)count;
    src = NULL;
    rc = 0;
out:
    fclose(f);
    free(seen);
    free(src);
    return rc;
}

static int choose_sources(boxbfs_graph_t g, const args_t *a, int64_t **src_p, int *count_p)
{
    int64_t candidates;
    if (a->source_file) return read_source_file(g, a->source_file, src_p, count_p);
    if (a->nsources > boxbfs_graph_vertices(g)) {
        bb_cli_error("--sources %d: more sources than the %lld vertices of %s", a->nsources,
                     (long long)boxbfs_graph_vertices(g), boxbfs_graph_name(g));
        return BB_EXIT_USAGE;
    }
    candidates = bb_cli_root_candidates(g);
    if (a->nsources > candidates) {
        bb_cli_error("--sources %d: only %lld vertices of %s have an edge", a->nsources,
                     (long long)candidates, boxbfs_graph_name(g));
        return BB_EXIT_USAGE;
    }
    return bb_cli_random_roots(g, a->nsources, a->seed, src_p, count_p);
}

/* ---- outputs --------------------------------------------------------------- */

static FILE *open_out(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (f == NULL) bb_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path)
{
    int bad = ferror(f) != 0;
    bad |= f != stdout ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) bb_cli_error("%s: write failed", path);
    return bad ? -1 : 0;
}

/* Binary layout (little-endian): "BBMSDEP1", uint64 n, uint64 sources, the
 * sources' external ids (int64 each), then per source, in the order of the
 * ids, n int32 depths indexed by internal vertex id (-1: unreached). The
 * text form: "# vertex" and the sources' ids, then a line per vertex: its
 * external id and its depth from each source. */
static int write_depths(const char *path, boxbfs_graph_t g, const int64_t *sources, int ns,
                        boxbfs_msbfs_result_t res)
{
    int64_t n = boxbfs_graph_vertices(g);
    FILE *f = open_out(path);
    if (f == NULL) return -1;
    if (strcmp(path, "-") == 0 || bb_ends_with(path, ".txt")) {
        fprintf(f, "# vertex");
        for (int i = 0; i < ns; i++) fprintf(f, " %lld", (long long)boxbfs_graph_external_id(g, sources[i]));
        fputc('\n', f);
        for (int64_t k = 0; k < n; k++) {   /* rows in the input's order */
            int64_t v = bb_cli_input_vertex(g, k);
            fprintf(f, "%lld", (long long)boxbfs_graph_external_id(g, v));
            for (int i = 0; i < ns; i++) fprintf(f, " %d", boxbfs_msbfs_depths(res, i)[v]);
            fputc('\n', f);
        }
    } else {
        uint64_t hdr[2] = {(uint64_t)n, (uint64_t)ns};
        fwrite("BBMSDEP1", 1, 8, f);
        fwrite(hdr, 8, 2, f);
        for (int i = 0; i < ns; i++) {
            int64_t ext = boxbfs_graph_external_id(g, sources[i]);
            fwrite(&ext, 8, 1, f);
        }
        for (int i = 0; i < ns; i++) {   /* entries in the input's order */
            const int32_t *depth = boxbfs_msbfs_depths(res, i);
            int32_t chunk[4096];
            for (int64_t k = 0; k < n; k += 4096) {
                int64_t m = n - k < 4096 ? n - k : 4096;
                for (int64_t c = 0; c < m; c++) chunk[c] = depth[bb_cli_input_vertex(g, k + c)];
                fwrite(chunk, 4, (size_t)m, f);
            }
        }
    }
    return close_out(f, path);
}

static int write_closeness(const char *path, boxbfs_graph_t g, const boxbfs_msbfs_report_t *rep)
{
    FILE *f = open_out(path);
    if (f == NULL) return -1;
    fprintf(f, "# source reached eccentricity sum_depth closeness (Wasserman-Faust)\n");
    for (int64_t i = 0; i < rep->nsources; i++) {
        const boxbfs_msbfs_source_t *s = &rep->sources[i];
        fprintf(f, "%lld %lld %lld %lld %.9g\n", (long long)boxbfs_graph_external_id(g, s->source),
                (long long)s->reached, (long long)s->eccentricity, (long long)s->sum_depth,
                s->closeness);
    }
    return close_out(f, path);
}

typedef struct {
    const args_t *a;
    boxbfs_graph_t g;
    const boxbfs_msbfs_report_t *rep;
    const int *checked;       /* per source: 1 passed, 0 failed, -1 not checked */
    int nchecked;
    const char *validation;
} report_t;

/* The busiest device's busy time minus the least busy one's (the groups'
 * imbalance between devices), and as a fraction of the busiest. */
static void busy_spread(const boxbfs_msbfs_report_t *rep, double *spread_s_p, double *fraction_p)
{
    double busy[64];
    int n = rep->ndevices < 64 ? rep->ndevices : 64;
    for (int d = 0; d < n; d++) busy[d] = rep->devices[d].busy_s;
    bb_busy_spread(busy, n, spread_s_p, fraction_p);
}

static void report_text(FILE *f, const report_t *r)
{
    const boxbfs_msbfs_report_t *rep = r->rep;
    const boxbfs_msbfs_options_t *o = &r->a->o;
    boxbfs_graph_t g = r->g;
    double spread_s, fraction;
    fprintf(f, "# boxbfs %s (commit %s) msbfs\n", boxbfs_version(), bb_build_commit());
    fprintf(f, "# graph: %s  vertices: %lld  edges: %lld (%s)  arcs: %lld\n", boxbfs_graph_name(g),
            (long long)boxbfs_graph_vertices(g), (long long)boxbfs_graph_input_edges(g),
            boxbfs_graph_is_directed(g) ? "directed" : "undirected", (long long)boxbfs_graph_arcs(g));
    fprintf(f, "# backend: %s  devices: %d\n", boxbfs_backend_name(o->backend), rep->ndevices);
    for (int d = 0; d < rep->ndevices; d++) fprintf(f, "#   device %d: %s\n", d, rep->devices[d].name);
    fprintf(f, "# sources: %lld  group size: %d  groups: %d  groupby: %s (p %lld, q %lld)  alpha: %g  "
               "max depth: ", (long long)rep->nsources, o->group_size, rep->ngroups,
            o->groupby ? "on" : "off", (long long)o->groupby_p, (long long)o->groupby_q, o->alpha);
    if (o->max_depth >= 0) fprintf(f, "%d", o->max_depth);
    else fprintf(f, "none");
    if (r->a->relabel)
        fprintf(f, "  relabeled: by degree (%.2f s, not timed)", r->a->relabel_s);
    fputc('\n', f);
    fprintf(f, "#\n# %6s %6s %5s %7s %4s %4s %12s %16s %12s\n", "group", "device", "size", "levels",
            "td", "bu", "time_s", "arcs_touched", "GTEPS");
    for (int gi = 0; gi < rep->ngroups; gi++) {
        const boxbfs_msbfs_group_t *gr = &rep->groups[gi];
        fprintf(f, "  %6d %6d %5d %7d %4d %4d %12.6f %16lld %12.2f\n", gi, gr->device, gr->size,
                gr->levels, gr->top_down_levels, gr->bottom_up_levels, gr->time_s,
                (long long)gr->arcs_touched,
                gr->time_s > 0 ? (double)gr->input_edges / gr->time_s / 1e9 : 0);
    }
    fprintf(f, "#\n# %6s %7s %12s %16s\n", "device", "groups", "busy_s", "arcs_touched");
    for (int d = 0; d < rep->ndevices; d++)
        fprintf(f, "  %6d %7d %12.6f %16lld\n", d, rep->devices[d].groups, rep->devices[d].busy_s,
                (long long)rep->devices[d].arcs_touched);
    busy_spread(rep, &spread_s, &fraction);
    fprintf(f, "sources: %lld\n", (long long)rep->nsources);
    fprintf(f, "groups: %d\n", rep->ngroups);
    fprintf(f, "total_time_s: %.6f\n", rep->total_s);
    fprintf(f, "time_per_group_s: %.6f\n", rep->total_s * rep->ndevices / rep->ngroups);
    fprintf(f, "aggregate_TEPS: %.6g\n", rep->teps);
    fprintf(f, "aggregate_TEPS_arc: %.6g\n", rep->teps_arc);
    fprintf(f, "device_busy_spread_s: %.6f (%.1f %% of the busiest device)\n", spread_s,
            100 * fraction);
    fprintf(f, "validation: %s (%d sources checked against the reference BFS)\n",
            strcmp(r->validation, "passed") == 0 ? "PASS"
            : strcmp(r->validation, "failed") == 0 ? "FAIL" : "skipped", r->nchecked);
}

static int report_json(FILE *f, const report_t *r)
{
    const boxbfs_msbfs_report_t *rep = r->rep;
    const boxbfs_msbfs_options_t *o = &r->a->o;
    boxbfs_graph_t g = r->g;
    bb_json_t j;
    double tmin = 0, tmax = 0, spread_s, fraction;
    bb_json_init(&j, f);
    bb_json_begin_object(&j, NULL);
    bb_json_string(&j, "command", "msbfs");
    bb_json_begin_object(&j, "graph");
    bb_json_string(&j, "name", boxbfs_graph_name(g));
    bb_json_int(&j, "vertices", boxbfs_graph_vertices(g));
    bb_json_int(&j, "edges", boxbfs_graph_input_edges(g));
    bb_json_int(&j, "arcs", boxbfs_graph_arcs(g));
    bb_json_bool(&j, "directed", boxbfs_graph_is_directed(g));
    bb_json_end_object(&j);
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "device_count", rep->ndevices);
    bb_json_begin_object(&j, "options");
    bb_json_string(&j, "graph", r->a->spec);
    bb_json_int(&j, "sources", rep->nsources);
    bb_json_string(&j, "source_file", r->a->source_file ? r->a->source_file : "");
    bb_json_int(&j, "seed", (int64_t)r->a->seed);
    bb_json_int(&j, "group_size", o->group_size);
    bb_json_string(&j, "groupby", o->groupby ? "on" : "off");
    bb_json_int(&j, "groupby_p", o->groupby_p);
    bb_json_int(&j, "groupby_q", o->groupby_q);
    bb_json_int(&j, "max_depth", o->max_depth);
    bb_json_double(&j, "alpha", o->alpha);
    bb_json_string(&j, "relabel", r->a->relabel ? "degree" : "none");
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "devices", o->devices);
    bb_json_bool(&j, "validate", r->a->validate);
    bb_json_string(&j, "output_depths", r->a->output_depths ? r->a->output_depths : "");
    bb_json_string(&j, "closeness", r->a->closeness ? r->a->closeness : "");
    bb_json_end_object(&j);
    bb_json_int(&j, "groups_count", rep->ngroups);
    bb_json_double(&j, "total_time_s", rep->total_s);
    bb_json_int(&j, "input_edges", rep->input_edges);
    bb_json_int(&j, "arcs", rep->arcs);
    bb_json_begin_object(&j, "teps");
    bb_json_double(&j, "graph500", rep->teps);
    bb_json_double(&j, "paper", rep->teps_arc);
    bb_json_string(&j, "graph500_definition",
                   "sum over sources of the input edges credited to the vertices each reached, over "
                   "total_time_s");
    bb_json_string(&j, "paper_definition",
                   "sum over sources of the out-arcs (directed CSR arcs, both directions of an "
                   "undirected edge) of the vertices each reached, over total_time_s");
    bb_json_end_object(&j);
    for (int gi = 0; gi < rep->ngroups; gi++) {
        double t = rep->groups[gi].time_s;
        if (gi == 0 || t < tmin) tmin = t;
        if (gi == 0 || t > tmax) tmax = t;
    }
    bb_json_begin_object(&j, "time_per_group_s");
    bb_json_double(&j, "mean", rep->total_s * rep->ndevices / rep->ngroups);
    bb_json_double(&j, "min", tmin);
    bb_json_double(&j, "max", tmax);
    bb_json_end_object(&j);
    busy_spread(rep, &spread_s, &fraction);
    bb_json_double(&j, "device_busy_spread_s", spread_s);
    bb_json_double(&j, "device_busy_spread_fraction", fraction);
    bb_json_begin_array(&j, "devices");
    for (int d = 0; d < rep->ndevices; d++) {
        const boxbfs_msbfs_device_t *dv = &rep->devices[d];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "id", d);
        bb_json_string(&j, "name", dv->name);
        bb_json_int(&j, "groups", dv->groups);
        bb_json_double(&j, "busy_s", dv->busy_s);
        bb_json_int(&j, "arcs_touched", dv->arcs_touched);
        bb_json_int(&j, "input_edges", dv->input_edges);
        bb_json_int(&j, "arcs", dv->arcs);
        bb_json_double(&j, "teps", dv->busy_s > 0 ? (double)dv->input_edges / dv->busy_s : 0);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "groups");
    for (int gi = 0; gi < rep->ngroups; gi++) {
        const boxbfs_msbfs_group_t *gr = &rep->groups[gi];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "group", gi);
        bb_json_int(&j, "device", gr->device);
        bb_json_int(&j, "size", gr->size);
        bb_json_int(&j, "levels", gr->levels);
        bb_json_int(&j, "top_down_levels", gr->top_down_levels);
        bb_json_int(&j, "bottom_up_levels", gr->bottom_up_levels);
        bb_json_double(&j, "time_s", gr->time_s);
        bb_json_int(&j, "arcs_touched", gr->arcs_touched);
        bb_json_int(&j, "input_edges", gr->input_edges);
        bb_json_int(&j, "arcs", gr->arcs);
        bb_json_double(&j, "teps", gr->time_s > 0 ? (double)gr->input_edges / gr->time_s : 0);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "sources");
    for (int64_t i = 0; i < rep->nsources; i++) {
        const boxbfs_msbfs_source_t *s = &rep->sources[i];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "source", boxbfs_graph_external_id(g, s->source));
        bb_json_int(&j, "group", s->group);
        bb_json_int(&j, "reached", s->reached);
        bb_json_int(&j, "eccentricity", s->eccentricity);
        bb_json_int(&j, "sum_depth", s->sum_depth);
        bb_json_double(&j, "closeness", s->closeness);
        bb_json_int(&j, "input_edges", s->input_edges);
        bb_json_int(&j, "arcs", s->arcs);
        bb_json_string(&j, "validated", r->checked[i] < 0 ? "skipped" : r->checked[i] ? "passed" : "failed");
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_object(&j, "validation");
    bb_json_string(&j, "result", r->validation);
    bb_json_int(&j, "checked_sources", r->nchecked);
    bb_json_string(&j, "policy", "every source when vertices x sources <= 2^26, else the first "
                                 "and last source of each group");
    bb_json_end_object(&j);
    bb_json_provenance(&j);
    bb_json_end_object(&j);
    return bb_json_finish(&j);
}

/* ---- the command ----------------------------------------------------------- */

static void pick_defaults(args_t *a)
{
    /* --backend cpu never starts the GPU driver (its start costs every run on a GPU host) */
    int cpu = a->backend_given && a->o.backend == BOXBFS_BACKEND_CPU;
    int gpus = cpu ? 0 : boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
    if (!a->backend_given) {
        a->o.backend = gpus > 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
        if (gpus == 0)
            boxbfs_log(BOXBFS_LOG_WARN, "no GPU found: using the cpu backend (devices emulated by "
                       "host threads)");
    }
    if (!a->devices_given) a->o.devices = a->o.backend == BOXBFS_BACKEND_CUDA && gpus > 0 ? gpus : 1;
}

/* Which sources keep their depths (--output-depths: all) and which are
 * checked (checks_p: source indices, in group order): every source when
 * vertices x sources <= 2^26, else the first and last of each group. */
static int mark_kept(const args_t *a, int64_t n, int ns, const int64_t *order, int G,
                     uint8_t *keep, int64_t *checks, int *nchecks_p)
{
    int all = (int64_t)ns * n <= VALIDATE_ALL_ENTRIES, nchecks = 0;
    if (a->output_depths) {
        if ((int64_t)ns * n * 4 > OUTPUT_DEPTHS_MAX_BYTES) {
            bb_cli_error("--output-depths: %d sources x %lld vertices need %.1f GiB of depths; it is "
                         "for small runs (at most 4 GiB): use fewer sources or --max-depth with "
                         "--closeness", ns, (long long)n, (double)ns * (double)n * 4 / 1073741824.0);
            return BB_EXIT_USAGE;
        }
        memset(keep, 1, (size_t)ns);
    }
    if (!a->validate) return 0;
    for (int i = 0; i < ns; i++) {
        int pos = i % G, last = i == ns - 1 || pos == G - 1;
        if (all || pos < VALIDATE_PER_GROUP - 1 || last) {
            keep[order[i]] = 1;
            checks[nchecks++] = order[i];
        }
    }
    *nchecks_p = nchecks;
    return 0;
}

/* The checked sources against the reference BFS: checked[i] 1 passed, 0
 * failed, -1 not checked; *validation_p "passed", "failed" or "skipped".
 * Returns 0, or the exit code of a failure other than a failed check. */
static int validate(boxbfs_graph_t g, boxbfs_msbfs_result_t res, const int64_t *checks,
                    int nchecks, int *verdict, int *checked, const char **validation_p)
{
    boxbfs_status_t st = boxbfs_msbfs_validate(g, res, checks, nchecks, verdict);
    if (st != BOXBFS_OK && st != BOXBFS_ERR_VALIDATION) return bb_cli_fail(st);
    if (st == BOXBFS_ERR_VALIDATION) bb_cli_error("validation failed: %s", boxbfs_last_error());
    for (int c = 0; c < nchecks; c++) checked[checks[c]] = verdict[c];
    *validation_p = st == BOXBFS_OK ? "passed" : "failed";
    return 0;
}

int bb_cmd_msbfs(int argc, char **argv)
{
    args_t a;
    boxbfs_graph_t g = NULL;
    int64_t *sources = NULL, *order = NULL, *checks = NULL;
    int ns = 0, rc, nchecks = 0, *verdict = NULL, *checked = NULL;
    uint8_t *keep = NULL;
    boxbfs_msbfs_result_t res = NULL;
    boxbfs_status_t st;
    const char *validation = "skipped";
    memset(&a, 0, sizeof a);
    boxbfs_msbfs_options_init(&a.o);
    a.validate = 1;
    a.seed = 1;
    if ((rc = parse_args(argc, argv, &a)) != BB_ARGS_GO_ON) return rc;
    if (!a.source_file && a.nsources == 0) a.nsources = 64;
    pick_defaults(&a);
    if ((st = bb_cli_load_graph("loading", a.spec, &a.load, &g)) != BOXBFS_OK) return bb_cli_fail(st);
    if ((rc = choose_sources(g, &a, &sources, &ns)) != 0) goto out;
    /* every device holds the whole graph: one stripe */
    if (a.relabel && (rc = bb_cli_relabel(&g, 1, sources, ns, &a.relabel_s)) != 0) goto out;
    order = malloc((size_t)ns * sizeof *order);
    keep = calloc((size_t)ns, 1);
    checked = malloc((size_t)ns * sizeof *checked);
    checks = malloc((size_t)ns * sizeof *checks);
    verdict = calloc((size_t)ns, sizeof *verdict);
    if (!order || !keep || !checked || !checks || !verdict) {
        bb_cli_error("out of memory");
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    /* the run forms the same groups: which sources share a group decides the sample */
    if ((st = boxbfs_msbfs_group_order(g, sources, ns, &a.o, order)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    if ((rc = mark_kept(&a, boxbfs_graph_vertices(g), ns, order, a.o.group_size, keep, checks,
                        &nchecks)) != 0)
        goto out;
    if ((st = boxbfs_msbfs_run(g, sources, ns, &a.o, keep, &res)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    for (int i = 0; i < ns; i++) checked[i] = -1;
    if (a.validate && (rc = validate(g, res, checks, nchecks, verdict, checked, &validation)) != 0)
        goto out;
    {
        report_t r = {&a, g, boxbfs_msbfs_report(res), checked, a.validate ? nchecks : 0, validation};
        int wrc = 0;
        if (!(a.json && strcmp(a.json, "-") == 0)) report_text(stdout, &r);
        if (a.json) {
            FILE *f = open_out(a.json);
            wrc |= f == NULL || report_json(f, &r) != 0;
            if (f) wrc |= close_out(f, a.json) != 0;
        }
        if (a.output_depths) wrc |= write_depths(a.output_depths, g, sources, ns, res) != 0;
        if (a.closeness) wrc |= write_closeness(a.closeness, g, r.rep) != 0;
        rc = strcmp(validation, "failed") == 0 ? BB_EXIT_VALIDATION : wrc ? BB_EXIT_RUNTIME : BB_EXIT_OK;
    }
out:
    boxbfs_msbfs_free(res);
    boxbfs_graph_free(g);
    free(sources);
    free(order);
    free(keep);
    free(checked);
    free(checks);
    free(verdict);
    return rc;
}
