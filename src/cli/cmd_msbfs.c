/* boxbfs msbfs: concurrent multi-source BFS (iBFS [000], src/msbfs/): load a
 * graph, take random sources (the Graph500 root choice) or a source file,
 * run them in groups over the devices, check a sample of the instances'
 * depths against the sequential reference BFS, and report per source
 * (reached, eccentricity, sum of depths, closeness), per group and device,
 * and the aggregate TEPS both as Graph500 and as the iBFS paper count. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"
#include "msbfs/msbfs.h"

/* Depth rows validated in full when n x sources is at most this; else a
 * sample of VALIDATE_PER_GROUP instances per group (first and last). */
#define VALIDATE_ALL_ENTRIES ((int64_t)1 << 26)
#define VALIDATE_PER_GROUP 2
/* --output-depths keeps every instance's depths in host memory. */
#define OUTPUT_DEPTHS_MAX_BYTES ((int64_t)4 << 30)

typedef struct {
    const char *spec, *source_file, *output_depths, *closeness, *json;
    boxbfs_load_options_t load;
    bb_msbfs_opts_t o;
    int nsources, backend_given, devices_given, validate;
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
    int64_t *src = NULL, cap = 0, count = 0, line = 1;
    int c, rc = BB_EXIT_USAGE;
    uint8_t *seen = NULL;
    if (f == NULL) {
        bb_cli_error("--source-file %s: cannot open: %s", path, strerror(errno));
        return BB_EXIT_USAGE;
    }
    seen = calloc((size_t)g->n + 1, 1);
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
                         (long long)ext, g->name, boxbfs_last_error());
            goto out;
        }
        if (seen[id]) {
            bb_cli_error("%s:%lld: source %lld given twice", path, (long long)line, (long long)ext);
            goto out;
        }
        seen[id] = 1;
        if (count == g->n) {   /* cannot happen without a duplicate; kept as a guard */
            bb_cli_error("%s: more sources than the %lld vertices of %s", path, (long long)g->n, g->name);
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
    if (a->nsources > g->n) {
        bb_cli_error("--sources %d: more sources than the %lld vertices of %s", a->nsources,
                     (long long)g->n, g->name);
        return BB_EXIT_USAGE;
    }
    candidates = bb_cli_root_candidates(g);
    if (a->nsources > candidates) {
        bb_cli_error("--sources %d: only %lld vertices of %s have an edge", a->nsources,
                     (long long)candidates, g->name);
        return BB_EXIT_USAGE;
    }
    return bb_cli_random_roots(g, a->nsources, a->seed, src_p, count_p);
}

/* ---- validation against the reference BFS -------------------------------- */

typedef struct {
    boxbfs_graph_t g;
    const int64_t *sources;
    const bb_msbfs_result_t *res;
    int32_t max_depth;
    const int *checks;        /* source indices to check */
    int nchecks, next;
    int *verdict;             /* per check: 1 pass, 0 fail */
    pthread_mutex_t lock;
} validate_t;

static boxbfs_status_t check_one(validate_t *w, int si, int64_t *parent, int32_t *level)
{
    boxbfs_graph_t g = w->g;
    const bb_msbfs_source_t *s = &w->res->per_source[si];
    const int32_t *depth = w->res->depths + (size_t)w->res->depth_row[si] * (size_t)g->n;
    int64_t reached = 0, ecc = 0, sum = 0, credit = 0, arcs = 0;
    BB_CHECK(boxbfs_bfs_reference(g, w->sources[si], parent, level));
    for (int64_t v = 0; v < g->n; v++) {
        int32_t want = level[v] >= 0 && (w->max_depth < 0 || level[v] <= w->max_depth) ? level[v] : -1;
        if (depth[v] != want)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "source %lld: vertex %lld has depth %d, the reference BFS says %d",
                                (long long)boxbfs_graph_external_id(g, w->sources[si]),
                                (long long)boxbfs_graph_external_id(g, v), depth[v], want);
        if (want < 0) continue;
        reached++;
        sum += want;
        if (want > ecc) ecc = want;
        credit += g->edge_credit[v];
        arcs += g->offsets[v + 1] - g->offsets[v];
    }
    if (reached != s->reached || ecc != s->eccentricity || sum != s->sum_depth ||
        credit != s->input_edges || arcs != s->arcs)
        return bb_error_set(BOXBFS_ERR_VALIDATION,
                            "source %lld: reached/eccentricity/sum of depths/edges/arcs %lld/%lld/%lld/"
                            "%lld/%lld, the reference BFS says %lld/%lld/%lld/%lld/%lld",
                            (long long)boxbfs_graph_external_id(g, w->sources[si]),
                            (long long)s->reached, (long long)s->eccentricity,
                            (long long)s->sum_depth, (long long)s->input_edges, (long long)s->arcs,
                            (long long)reached, (long long)ecc, (long long)sum, (long long)credit,
                            (long long)arcs);
    return BOXBFS_OK;
}

static boxbfs_status_t validate_worker(int tid, int nthreads, void *arg)
{
    validate_t *w = arg;
    int64_t *parent = malloc((size_t)w->g->n * sizeof *parent);
    int32_t *level = malloc((size_t)w->g->n * sizeof *level);
    boxbfs_status_t st = BOXBFS_OK;
    (void)tid;
    (void)nthreads;
    if (!parent || !level) {
        st = bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot allocate a reference BFS's arrays");
        goto out;
    }
    for (;;) {
        int c;
        pthread_mutex_lock(&w->lock);
        c = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (c >= w->nchecks) break;
        st = check_one(w, w->checks[c], parent, level);
        w->verdict[c] = st == BOXBFS_OK;
        if (st == BOXBFS_ERR_VALIDATION) {
            bb_cli_error("validation failed: %s", boxbfs_last_error());
            st = BOXBFS_OK;   /* recorded in the verdict; go on with the others */
        }
        if (st != BOXBFS_OK) break;
    }
out:
    free(parent);
    free(level);
    return st;
}

/* ---- outputs --------------------------------------------------------------- */

/* Wasserman-Faust closeness: ((r - 1) / (n - 1)) * ((r - 1) / sum of depths),
 * r = vertices reached (the source included); 0 when r = 1. For a
 * connected graph it is the classic (n - 1) / sum of depths. */
static double closeness(const bb_msbfs_source_t *s, int64_t n)
{
    if (s->reached <= 1 || s->sum_depth == 0 || n <= 1) return 0;
    return ((double)(s->reached - 1) / (double)(n - 1)) *
           ((double)(s->reached - 1) / (double)s->sum_depth);
}

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
                        const bb_msbfs_result_t *res)
{
    FILE *f = open_out(path);
    if (f == NULL) return -1;
    if (strcmp(path, "-") == 0 || bb_ends_with(path, ".txt")) {
        fprintf(f, "# vertex");
        for (int i = 0; i < ns; i++) fprintf(f, " %lld", (long long)boxbfs_graph_external_id(g, sources[i]));
        fputc('\n', f);
        for (int64_t v = 0; v < g->n; v++) {
            fprintf(f, "%lld", (long long)boxbfs_graph_external_id(g, v));
            for (int i = 0; i < ns; i++)
                fprintf(f, " %d", res->depths[(size_t)res->depth_row[i] * (size_t)g->n + (size_t)v]);
            fputc('\n', f);
        }
    } else {
        uint64_t hdr[2] = {(uint64_t)g->n, (uint64_t)ns};
        fwrite("BBMSDEP1", 1, 8, f);
        fwrite(hdr, 8, 2, f);
        for (int i = 0; i < ns; i++) {
            int64_t ext = boxbfs_graph_external_id(g, sources[i]);
            fwrite(&ext, 8, 1, f);
        }
        for (int i = 0; i < ns; i++)
            fwrite(res->depths + (size_t)res->depth_row[i] * (size_t)g->n, 4, (size_t)g->n, f);
    }
    return close_out(f, path);
}

static int write_closeness(const char *path, boxbfs_graph_t g, const int64_t *sources, int ns,
                           const bb_msbfs_result_t *res)
{
    FILE *f = open_out(path);
    if (f == NULL) return -1;
    fprintf(f, "# source reached eccentricity sum_depth closeness (Wasserman-Faust)\n");
    for (int i = 0; i < ns; i++) {
        const bb_msbfs_source_t *s = &res->per_source[i];
        fprintf(f, "%lld %lld %lld %lld %.9g\n", (long long)boxbfs_graph_external_id(g, sources[i]),
                (long long)s->reached, (long long)s->eccentricity, (long long)s->sum_depth,
                closeness(s, g->n));
    }
    return close_out(f, path);
}

typedef struct {
    const args_t *a;
    boxbfs_graph_t g;
    const int64_t *sources;
    const bb_msbfs_result_t *res;
    int64_t input_edges, arcs;
    const int *checked;       /* per source: 1 passed, 0 failed, -1 not checked */
    int nchecked;
    const char *validation;
} report_t;

static void report_text(FILE *f, const report_t *r)
{
    const bb_msbfs_result_t *res = r->res;
    const bb_msbfs_opts_t *o = &r->a->o;
    boxbfs_graph_t g = r->g;
    fprintf(f, "# boxbfs %s (commit %s) msbfs\n", boxbfs_version(), bb_build_commit());
    fprintf(f, "# graph: %s  vertices: %lld  edges: %lld (%s)  arcs: %lld\n", g->name,
            (long long)g->n, (long long)g->input_edges, g->directed ? "directed" : "undirected",
            (long long)g->arcs);
    fprintf(f, "# backend: %s  devices: %d\n", boxbfs_backend_name(o->backend), res->ndev);
    for (int d = 0; d < res->ndev; d++) fprintf(f, "#   device %d: %s\n", d, res->devices[d].name);
    fprintf(f, "# sources: %d  group size: %d  groups: %d  groupby: %s (p %lld, q %lld)  alpha: %g  "
               "max depth: ", res->nsources, o->group_size, res->ngroups, o->groupby ? "on" : "off",
            (long long)o->groupby_p, (long long)o->groupby_q, o->alpha);
    if (o->max_depth >= 0) fprintf(f, "%d\n", o->max_depth);
    else fprintf(f, "none\n");
    fprintf(f, "#\n# %6s %6s %5s %7s %4s %4s %12s %16s %12s\n", "group", "device", "size", "levels",
            "td", "bu", "time_s", "arcs_touched", "GTEPS");
    for (int gi = 0; gi < res->ngroups; gi++) {
        const bb_msbfs_group_t *gr = &res->groups[gi];
        fprintf(f, "  %6d %6d %5d %7d %4d %4d %12.6f %16lld %12.2f\n", gi, gr->device, gr->count,
                gr->levels, gr->td_levels, gr->bu_levels, gr->time_s, (long long)gr->touched,
                gr->time_s > 0 ? (double)gr->input_edges / gr->time_s / 1e9 : 0);
    }
    fprintf(f, "#\n# %6s %7s %12s %16s\n", "device", "groups", "busy_s", "arcs_touched");
    for (int d = 0; d < res->ndev; d++)
        fprintf(f, "  %6d %7d %12.6f %16lld\n", d, res->devices[d].groups, res->devices[d].busy_s,
                (long long)res->devices[d].touched);
    fprintf(f, "sources: %d\n", res->nsources);
    fprintf(f, "groups: %d\n", res->ngroups);
    fprintf(f, "total_time_s: %.6f\n", res->total_s);
    fprintf(f, "time_per_group_s: %.6f\n", res->total_s * res->ndev / res->ngroups);
    fprintf(f, "aggregate_TEPS: %.6g\n", res->total_s > 0 ? (double)r->input_edges / res->total_s : 0);
    fprintf(f, "aggregate_TEPS_arc: %.6g\n", res->total_s > 0 ? (double)r->arcs / res->total_s : 0);
    fprintf(f, "validation: %s (%d sources checked against the reference BFS)\n",
            strcmp(r->validation, "passed") == 0 ? "PASS"
            : strcmp(r->validation, "failed") == 0 ? "FAIL" : "skipped", r->nchecked);
}

static int report_json(FILE *f, const report_t *r)
{
    const bb_msbfs_result_t *res = r->res;
    const bb_msbfs_opts_t *o = &r->a->o;
    boxbfs_graph_t g = r->g;
    bb_json_t j;
    double tmin = 0, tmax = 0;
    bb_json_init(&j, f);
    bb_json_begin_object(&j, NULL);
    bb_json_string(&j, "command", "msbfs");
    bb_json_begin_object(&j, "graph");
    bb_json_string(&j, "name", g->name);
    bb_json_int(&j, "vertices", g->n);
    bb_json_int(&j, "edges", g->input_edges);
    bb_json_int(&j, "arcs", g->arcs);
    bb_json_bool(&j, "directed", g->directed);
    bb_json_end_object(&j);
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "device_count", res->ndev);
    bb_json_begin_object(&j, "options");
    bb_json_string(&j, "graph", r->a->spec);
    bb_json_int(&j, "sources", res->nsources);
    bb_json_string(&j, "source_file", r->a->source_file ? r->a->source_file : "");
    bb_json_int(&j, "seed", (int64_t)r->a->seed);
    bb_json_int(&j, "group_size", o->group_size);
    bb_json_string(&j, "groupby", o->groupby ? "on" : "off");
    bb_json_int(&j, "groupby_p", o->groupby_p);
    bb_json_int(&j, "groupby_q", o->groupby_q);
    bb_json_int(&j, "max_depth", o->max_depth);
    bb_json_double(&j, "alpha", o->alpha);
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "devices", o->devices);
    bb_json_bool(&j, "validate", r->a->validate);
    bb_json_string(&j, "output_depths", r->a->output_depths ? r->a->output_depths : "");
    bb_json_string(&j, "closeness", r->a->closeness ? r->a->closeness : "");
    bb_json_end_object(&j);
    bb_json_int(&j, "groups_count", res->ngroups);
    bb_json_double(&j, "total_time_s", res->total_s);
    bb_json_int(&j, "input_edges", r->input_edges);
    bb_json_int(&j, "arcs", r->arcs);
    bb_json_begin_object(&j, "teps");
    bb_json_double(&j, "graph500", res->total_s > 0 ? (double)r->input_edges / res->total_s : 0);
    bb_json_double(&j, "paper", res->total_s > 0 ? (double)r->arcs / res->total_s : 0);
    bb_json_string(&j, "graph500_definition",
                   "sum over sources of the input edges credited to the vertices each reached, over "
                   "total_time_s");
    bb_json_string(&j, "paper_definition",
                   "sum over sources of the out-arcs (directed CSR arcs, both directions of an "
                   "undirected edge) of the vertices each reached, over total_time_s");
    bb_json_end_object(&j);
    for (int gi = 0; gi < res->ngroups; gi++) {
        double t = res->groups[gi].time_s;
        if (gi == 0 || t < tmin) tmin = t;
        if (gi == 0 || t > tmax) tmax = t;
    }
    bb_json_begin_object(&j, "time_per_group_s");
    bb_json_double(&j, "mean", res->total_s * res->ndev / res->ngroups);
    bb_json_double(&j, "min", tmin);
    bb_json_double(&j, "max", tmax);
    bb_json_end_object(&j);
    bb_json_begin_array(&j, "devices");
    for (int d = 0; d < res->ndev; d++) {
        const bb_msbfs_device_t *dv = &res->devices[d];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "id", d);
        bb_json_string(&j, "name", dv->name);
        bb_json_int(&j, "groups", dv->groups);
        bb_json_double(&j, "busy_s", dv->busy_s);
        bb_json_int(&j, "arcs_touched", dv->touched);
        bb_json_int(&j, "input_edges", dv->input_edges);
        bb_json_int(&j, "arcs", dv->arcs);
        bb_json_double(&j, "teps", dv->busy_s > 0 ? (double)dv->input_edges / dv->busy_s : 0);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "groups");
    for (int gi = 0; gi < res->ngroups; gi++) {
        const bb_msbfs_group_t *gr = &res->groups[gi];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "group", gi);
        bb_json_int(&j, "device", gr->device);
        bb_json_int(&j, "size", gr->count);
        bb_json_int(&j, "levels", gr->levels);
        bb_json_int(&j, "top_down_levels", gr->td_levels);
        bb_json_int(&j, "bottom_up_levels", gr->bu_levels);
        bb_json_double(&j, "time_s", gr->time_s);
        bb_json_int(&j, "arcs_touched", gr->touched);
        bb_json_int(&j, "input_edges", gr->input_edges);
        bb_json_int(&j, "arcs", gr->arcs);
        bb_json_double(&j, "teps", gr->time_s > 0 ? (double)gr->input_edges / gr->time_s : 0);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "sources");
    for (int i = 0; i < res->nsources; i++) {
        const bb_msbfs_source_t *s = &res->per_source[i];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "source", boxbfs_graph_external_id(g, r->sources[i]));
        bb_json_int(&j, "group", s->group);
        bb_json_int(&j, "reached", s->reached);
        bb_json_int(&j, "eccentricity", s->eccentricity);
        bb_json_int(&j, "sum_depth", s->sum_depth);
        bb_json_double(&j, "closeness", closeness(s, g->n));
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
    bb_json_string(&j, "version", boxbfs_version());
    bb_json_string(&j, "commit", bb_build_commit());
    {
        char date[32];
        time_t now = time(NULL);
        struct tm utc;
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &utc));
        bb_json_string(&j, "date", date);
    }
    bb_json_end_object(&j);
    return bb_json_finish(&j);
}

/* ---- the command ----------------------------------------------------------- */

static void pick_defaults(args_t *a)
{
    int gpus = boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
    if (!a->backend_given) {
        a->o.backend = gpus > 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
        if (gpus == 0)
            fprintf(stderr, "boxbfs: no GPU found: using the cpu backend (devices emulated by host threads)\n");
    }
    if (!a->devices_given) a->o.devices = a->o.backend == BOXBFS_BACKEND_CUDA && gpus > 0 ? gpus : 1;
}

/* Which sources keep their depths (--output-depths: all) and which are
 * checked (checks_p: source indices, in group order): every source when
 * vertices x sources <= 2^26, else the first and last of each group. */
static int mark_kept(const args_t *a, boxbfs_graph_t g, int ns, const int *order, int G,
                     uint8_t *keep, int *checks, int *nchecks_p)
{
    int all = (int64_t)ns * g->n <= VALIDATE_ALL_ENTRIES, nchecks = 0;
    if (a->output_depths) {
        if ((int64_t)ns * g->n * 4 > OUTPUT_DEPTHS_MAX_BYTES) {
            bb_cli_error("--output-depths: %d sources x %lld vertices need %.1f GiB of depths; it is "
                         "for small runs (at most 4 GiB): use fewer sources or --max-depth with "
                         "--closeness", ns, (long long)g->n, (double)ns * (double)g->n * 4 / 1073741824.0);
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

int bb_cmd_msbfs(int argc, char **argv)
{
    args_t a;
    boxbfs_graph_t g = NULL;
    int64_t *sources = NULL, input_edges = 0, arcs = 0;
    int ns = 0, rc, nchecks = 0, *order = NULL, *checks = NULL, *verdict = NULL, *checked = NULL;
    uint8_t *keep = NULL;
    bb_msbfs_result_t res;
    boxbfs_status_t st;
    const char *validation = "skipped";
    memset(&a, 0, sizeof a);
    memset(&res, 0, sizeof res);
    bb_msbfs_opts_init(&a.o);
    a.validate = 1;
    a.seed = 1;
    if ((rc = parse_args(argc, argv, &a)) != BB_ARGS_GO_ON) return rc;
    if (!a.source_file && a.nsources == 0) a.nsources = 64;
    pick_defaults(&a);
    if ((st = bb_cli_load_graph("loading", a.spec, &a.load, &g)) != BOXBFS_OK) return bb_cli_fail(st);
    if ((rc = choose_sources(g, &a, &sources, &ns)) != 0) goto out;
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
    /* the driver forms the same groups: which sources share a group decides the sample */
    if ((st = bb_msbfs_group_order(g, sources, ns, &a.o, order)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    if ((rc = mark_kept(&a, g, ns, order, a.o.group_size, keep, checks, &nchecks)) != 0) goto out;
    if ((st = bb_msbfs_run(g, sources, ns, &a.o, keep, &res)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    for (int i = 0; i < ns; i++) {
        input_edges += res.per_source[i].input_edges;
        arcs += res.per_source[i].arcs;
        checked[i] = -1;
    }
    if (a.validate) {
        validate_t w;
        int c, failed = 0;
        memset(&w, 0, sizeof w);
        w.g = g;
        w.sources = sources;
        w.res = &res;
        w.max_depth = a.o.max_depth;
        w.checks = checks;
        w.nchecks = nchecks;
        w.verdict = verdict;
        pthread_mutex_init(&w.lock, NULL);
        st = bb_parallel_run(bb_cpu_count() < nchecks ? bb_cpu_count() : nchecks, validate_worker, &w);
        pthread_mutex_destroy(&w.lock);
        if (st != BOXBFS_OK) {
            rc = bb_cli_fail(st);
            goto out;
        }
        for (c = 0; c < nchecks; c++) {
            checked[checks[c]] = verdict[c];
            failed |= !verdict[c];
        }
        validation = failed ? "failed" : "passed";
    }
    {
        report_t r = {&a, g, sources, &res, input_edges, arcs, checked, a.validate ? nchecks : 0,
                      validation};
        int wrc = 0;
        if (!(a.json && strcmp(a.json, "-") == 0)) report_text(stdout, &r);
        if (a.json) {
            FILE *f = open_out(a.json);
            wrc |= f == NULL || report_json(f, &r) != 0;
            if (f) wrc |= close_out(f, a.json) != 0;
        }
        if (a.output_depths) wrc |= write_depths(a.output_depths, g, sources, ns, &res) != 0;
        if (a.closeness) wrc |= write_closeness(a.closeness, g, sources, ns, &res) != 0;
        rc = strcmp(validation, "failed") == 0 ? BB_EXIT_VALIDATION : wrc ? BB_EXIT_RUNTIME : BB_EXIT_OK;
    }
out:
    bb_msbfs_result_free(&res);
    boxbfs_graph_free(g);
    free(sources);
    free(order);
    free(keep);
    free(checked);
    free(checks);
    free(verdict);
    return rc;
}
