/* boxbfs bc: betweenness centrality [Brandes] over sampled or all sources,
 * split over the devices (each holds the whole graph; boxbfs_bc_*); and the
 * --sigma part of boxbfs bfs (shortest-path counts from the first root,
 * boxbfs_sigma_*). README "Shortest-path counts and betweenness". */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* ---- bfs --sigma ------------------------------------------------------------------ */

static int write_sigma(const char *path, boxbfs_graph_t g, const int32_t *level,
                       const uint64_t *sigma, const double *sigma_d)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (f == NULL) {
        bb_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        return -1;
    }
    for (int64_t i = 0; i < boxbfs_graph_vertices(g); i++) {   /* in the input's order */
        int64_t v = bb_cli_input_vertex(g, i);
        long long id = (long long)boxbfs_graph_external_id(g, v);
        if (sigma_d) fprintf(f, "%lld %d %.17g\n", id, level[v], sigma_d[v]);
        else fprintf(f, "%lld %d %llu\n", id, level[v], (unsigned long long)sigma[v]);
    }
    if (ferror(f) | (f != stdout ? fclose(f) : fflush(f))) {
        bb_cli_error("%s: write failed", path);
        return -1;
    }
    return 0;
}

int bb_sigma_run(const bb_bfs_args_t *a, boxbfs_graph_t g, int64_t root, bb_sigma_summary_t *s)
{
    boxbfs_sigma_options_t o;
    boxbfs_sigma_t c = NULL;
    const boxbfs_sigma_report_t *rep;
    boxbfs_status_t st;
    int64_t n = boxbfs_graph_vertices(g);
    int32_t *level = NULL;
    uint64_t *sigma = NULL;
    double *sigma_d = NULL;
    int rc = BB_EXIT_OK, nd;
    boxbfs_sigma_options_init(&o);
    o.backend = a->eo.backend;
    o.devices = a->eo.devices;
    o.device_ids = a->eo.device_ids;
    o.algorithm = a->sigma_algorithm ? BOXBFS_SIGMA_SPMV : BOXBFS_SIGMA_FRONTIER;
    if (a->sigma_spmv_given) o.spmv = (boxbfs_spmv_t)a->sigma_spmv;
    o.direction = a->eo.direction;
    if (boxbfs_one_device_per_process(&a->eo) || a->eo.exchange == BOXBFS_EXCHANGE_NCCL) {
        bb_cli_error("--sigma runs its own exchange between the devices of this process: it does "
                     "not combine with --exchange mpi or nccl");
        return BB_EXIT_USAGE;
    }
    if ((st = boxbfs_sigma_create(g, &o, &c)) != BOXBFS_OK) return bb_cli_fail(st);
    level = malloc((size_t)n * sizeof *level);
    sigma = malloc((size_t)n * sizeof *sigma);
    sigma_d = malloc((size_t)n * sizeof *sigma_d);
    if (!level || !sigma || !sigma_d) {
        bb_cli_error("cannot allocate the counts of %lld vertices", (long long)n);
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    /* warm-up, then the timed search */
    if ((st = boxbfs_sigma_run(c, root, NULL, NULL, NULL, NULL)) != BOXBFS_OK ||
        (st = boxbfs_sigma_run(c, root, level, sigma, sigma_d, &rep)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    nd = rep->devices;
    s->file = a->sigma;
    s->algorithm = boxbfs_sigma_algorithm_name(o.algorithm);
    s->spmv = o.algorithm == BOXBFS_SIGMA_SPMV ? boxbfs_spmv_name(o.spmv) : "none";
    s->direction = boxbfs_search_direction_name(o.direction);
    s->time_s = rep->time_s;
    s->input_edges = rep->input_edges;
    s->teps = rep->time_s > 0 ? (double)rep->input_edges / rep->time_s : 0;
    s->reached = rep->reached;
    s->levels = rep->levels;
    s->bottom_up_levels = rep->bottom_up_levels;
    s->overflow = rep->overflow;
    s->devices = nd;
    s->link_bytes = malloc((size_t)nd * (size_t)nd * sizeof *s->link_bytes);
    if (s->link_bytes == NULL) {
        bb_cli_error("out of memory");
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    memcpy(s->link_bytes, rep->link_bytes, (size_t)nd * (size_t)nd * sizeof *s->link_bytes);
    s->pair_bytes = rep->pair_bytes;
    s->size_bytes = rep->size_bytes;
    s->termination_bytes = rep->termination_bytes;
    s->messages = rep->messages;
    if (rep->overflow)
        boxbfs_log(BOXBFS_LOG_WARN, "--sigma: a shortest-path count exceeds 2^64 - 1: %s holds "
                                    "the counts in double", a->sigma);
    s->validation = "skipped";
    if (a->validate) {
        st = boxbfs_sigma_validate(g, root, level, sigma);
        s->validation = st == BOXBFS_OK ? "passed" : "failed";
        if (st == BOXBFS_ERR_VALIDATION) {
            bb_cli_error("--sigma: validation failed: %s", boxbfs_last_error());
            rc = BB_EXIT_VALIDATION;
        } else if (st != BOXBFS_OK) {
            rc = bb_cli_fail(st);
            goto out;
        }
    }
    if (write_sigma(a->sigma, g, level, sigma, s->overflow ? sigma_d : NULL) != 0 && rc == BB_EXIT_OK)
        rc = BB_EXIT_RUNTIME;
out:
    free(level);
    free(sigma);
    free(sigma_d);
    boxbfs_sigma_free(c);
    return rc;
}

void bb_sigma_report_text(FILE *f, const bb_sigma_summary_t *s)
{
    fprintf(f, "# shortest-path counts (--sigma %s): algorithm %s, spmv %s, direction %s\n",
            s->file, s->algorithm, s->spmv, s->direction);
    fprintf(f, "sigma_time_s: %.6f\n", s->time_s);
    fprintf(f, "sigma_TEPS: %.6g\n", s->teps);
    fprintf(f, "sigma_reached: %lld\n", (long long)s->reached);
    fprintf(f, "sigma_levels: %d (bottom-up %d)\n", s->levels, s->bottom_up_levels);
    fprintf(f, "sigma_overflow: %s\n", s->overflow ? "yes (output in double)" : "no");
    fprintf(f, "sigma_bytes: pairs %lld, sizes %lld, termination %lld\n", (long long)s->pair_bytes,
            (long long)s->size_bytes, (long long)s->termination_bytes);
    for (int a = 0; a < s->devices; a++)
        for (int b = 0; b < s->devices; b++)
            if (a != b)
                fprintf(f, "sigma_link %d->%d: %lld bytes\n", a, b,
                        (long long)s->link_bytes[a * s->devices + b]);
    fprintf(f, "sigma_validation: %s\n", s->validation);
}

void bb_sigma_report_json(bb_json_t *j, const bb_sigma_summary_t *s)
{
    bb_json_begin_object(j, "sigma");
    bb_json_string(j, "file", s->file);
    bb_json_string(j, "algorithm", s->algorithm);
    bb_json_string(j, "spmv", s->spmv);
    bb_json_string(j, "direction", s->direction);
    bb_json_double(j, "time_s", s->time_s);
    bb_json_double(j, "teps", s->teps);
    bb_json_int(j, "input_edges", s->input_edges);
    bb_json_int(j, "reached", s->reached);
    bb_json_int(j, "levels", s->levels);
    bb_json_int(j, "bottom_up_levels", s->bottom_up_levels);
    bb_json_bool(j, "overflow", s->overflow);
    bb_json_begin_object(j, "phase_bytes");
    bb_json_int(j, "sigma_pairs", s->pair_bytes);
    bb_json_int(j, "sigma_sizes", s->size_bytes);
    bb_json_int(j, "sigma_termination", s->termination_bytes);
    bb_json_end_object(j);
    bb_json_int(j, "messages", s->messages);
    bb_json_begin_array(j, "links");
    for (int a = 0; a < s->devices; a++)
        for (int b = 0; b < s->devices; b++) {
            if (a == b) continue;
            bb_json_begin_object(j, NULL);
            bb_json_int(j, "src", a);
            bb_json_int(j, "dst", b);
            bb_json_int(j, "bytes", s->link_bytes[a * s->devices + b]);
            bb_json_end_object(j);
        }
    bb_json_end_array(j);
    bb_json_string(j, "validation", s->validation);
    bb_json_end_object(j);
}

/* ---- boxbfs bc -------------------------------------------------------------------- */

static const char bc_usage[] =
    "usage: boxbfs bc [GRAPH] [options]\n"
    "  GRAPH                  kron:SCALE[:EDGEFACTOR[:SEED]] (default kron:16), .mtx, SNAP, .bbcsr, .gz\n"
    "  --directed | --undirected   how to read a file (default: the format's own)\n"
    "  --sources K            K distinct random sources (default 64; all when the graph has fewer)\n"
    "  --all                  every vertex a source (exact betweenness)\n"
    "  --seed S               seed of the source choice (default 1)\n"
    "  --backend cpu|cuda     default: cuda when a GPU is present, else cpu\n"
    "  --devices N            devices, each with the whole graph and a share of the sources\n"
    "                         (default: all GPUs, or 2 emulated on cpu)\n"
    "  --normalized           divide by (n-1)(n-2) (networkx's normalization)\n"
    "  --top K                print the K most central vertices (default 10; 0: none)\n"
    "  --output FILE          'vertex bc' per vertex, input ids\n"
    "  --json FILE            machine-readable report ('-' = stdout)\n"
    "  --check                compare with the sequential reference (Brandes) on the same sources\n"
    "  --relabel none|degree  search a copy numbered by decreasing degree, hubs first (ids in\n"
    "                         every output stay the input's; default none)\n"
    "  --threads N            generator/loader threads (default: all CPUs)\n";

typedef struct {
    const char *spec, *output, *json;
    boxbfs_load_options_t load;
    boxbfs_backend_t backend;
    int backend_given, devices, all, normalized, check;
    int relabel;            /* --relabel degree */
    double relabel_s;
    int64_t sources, top;
    uint64_t seed;
} bc_args_t;

static int bc_parse(int argc, char **argv, bc_args_t *a)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        int64_t n;
        boxbfs_direction_t dir;
        const char *v, *arg = argv[i];
#define OPT(name) ((v = bb_opt_value(argc, argv, &i, name, &missing)) != NULL || missing)
#define NEED(name) \
    if (missing) return bb_cli_usage_error("bc", "%s needs a value", name)
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(bc_usage, stdout);
            return BB_EXIT_OK;
        } else if (bb_opt_direction(arg, &dir)) {
            a->load.direction = dir;
        } else if (strcmp(arg, "--all") == 0) {
            a->all = 1;
        } else if (strcmp(arg, "--normalized") == 0) {
            a->normalized = 1;
        } else if (strcmp(arg, "--check") == 0) {
            a->check = 1;
        } else if (OPT("--sources")) {
            NEED("--sources");
            if (bb_parse_i64(v, 1, INT64_MAX, &a->sources))
                return bb_cli_usage_error("bc", "--sources: '%s' is not a count >= 1", v);
        } else if (OPT("--top")) {
            NEED("--top");
            if (bb_parse_i64(v, 0, INT64_MAX, &a->top))
                return bb_cli_usage_error("bc", "--top: '%s' is not a count >= 0", v);
        } else if (OPT("--seed")) {
            NEED("--seed");
            if (bb_parse_i64(v, 0, INT64_MAX, &n))
                return bb_cli_usage_error("bc", "--seed: '%s' is not a non-negative integer", v);
            a->seed = (uint64_t)n;
        } else if (OPT("--devices")) {
            NEED("--devices");
            if (bb_parse_i64(v, 1, 64, &n))
                return bb_cli_usage_error("bc", "--devices: '%s' is not a count in [1, 64]", v);
            a->devices = (int)n;
        } else if (OPT("--backend")) {
            NEED("--backend");
            if (strcmp(v, "cpu") == 0) a->backend = BOXBFS_BACKEND_CPU;
            else if (strcmp(v, "cuda") == 0) a->backend = BOXBFS_BACKEND_CUDA;
            else return bb_cli_usage_error("bc", "--backend: unknown value '%s' (cpu or cuda)", v);
            a->backend_given = 1;
        } else if (OPT("--output")) {
            NEED("--output");
            a->output = v;
        } else if (OPT("--json")) {
            NEED("--json");
            a->json = v;
        } else if (OPT("--relabel")) {
            NEED("--relabel");
            if (strcmp(v, "none") != 0 && strcmp(v, "degree") != 0)
                return bb_cli_usage_error("bc", "--relabel: unknown value '%s' (none, degree)", v);
            a->relabel = strcmp(v, "degree") == 0;
        } else if (OPT("--threads")) {
            NEED("--threads");
            if (bb_parse_i64(v, 0, 65536, &n))
                return bb_cli_usage_error("bc", "--threads: '%s' is not a count in [0, 65536]", v);
            a->load.threads = (int)n;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return bb_cli_usage_error("bc", "unknown option '%s'", arg);
        } else if (a->spec == NULL) {
            a->spec = arg;
        } else {
            return bb_cli_usage_error("bc", "more than one graph given ('%s' and '%s')", a->spec, arg);
        }
#undef OPT
#undef NEED
    }
    if (a->all && a->sources)
        return bb_cli_usage_error("bc", "--all and --sources exclude each other");
    return BB_ARGS_GO_ON;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* K distinct sources uniformly over all vertices (partial Fisher-Yates). */
static int64_t *choose_sources(int64_t n, int64_t k, uint64_t seed)
{
    int64_t *perm = malloc((size_t)n * sizeof *perm);
    uint64_t state = seed ^ 0xbc5eedULL;
    if (perm == NULL) return NULL;
    for (int64_t v = 0; v < n; v++) perm[v] = v;
    if (k < n)
        for (int64_t i = 0; i < k; i++) {
            int64_t j = i + (int64_t)(splitmix64(&state) % (uint64_t)(n - i)), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
    return perm;
}

static int cmp_rank(const void *pa, const void *pb, void *ctx)
{
    const double *bc = ctx;
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    if (bc[a] != bc[b]) return bc[a] < bc[b] ? 1 : -1;
    return a < b ? -1 : a > b;
}

/* The sources device d ran. */
static int64_t device_sources(const boxbfs_bc_report_t *rep, int d)
{
    int64_t count = 0;
    for (int64_t i = 0; i < rep->nsources; i++) count += rep->source_device[i] == d;
    return count;
}

/* The top K by a selection over a copy (no qsort_r: portable). */
static int64_t *top_vertices(const double *bc, int64_t n, int64_t k)
{
    int64_t *top = malloc((size_t)(k ? k : 1) * sizeof *top);
    if (top == NULL) return NULL;
    for (int64_t i = 0; i < k; i++) {
        int64_t best = -1;
        for (int64_t v = 0; v < n; v++) {
            int taken = 0;
            if (best >= 0 && cmp_rank(&v, &best, (void *)bc) >= 0) continue;
            for (int64_t j = 0; j < i && !taken; j++) taken = top[j] == v;
            if (!taken) best = v;
        }
        top[i] = best;
    }
    return top;
}

static int bc_write_output(const char *path, boxbfs_graph_t g, const double *bc)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (f == NULL) {
        bb_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        return -1;
    }
    for (int64_t i = 0; i < boxbfs_graph_vertices(g); i++) {   /* in the input's order */
        int64_t v = bb_cli_input_vertex(g, i);
        fprintf(f, "%lld %.17g\n", (long long)boxbfs_graph_external_id(g, v), bc[v]);
    }
    if (ferror(f) | (f != stdout ? fclose(f) : fflush(f))) {
        bb_cli_error("%s: write failed", path);
        return -1;
    }
    return 0;
}

static void bc_json(FILE *f, const bc_args_t *a, boxbfs_bc_result_t res, boxbfs_graph_t g,
                    const double *teps, int64_t nteps, double aggregate_teps, const int64_t *top,
                    int64_t ntop, const char *check)
{
    const boxbfs_bc_report_t *rep = boxbfs_bc_report(res);
    const double *bc = boxbfs_bc_values(res);
    int64_t k = rep->nsources;
    bb_json_t j;
    bb_summary_t ts;
    bb_json_init(&j, f);
    bb_json_begin_object(&j, NULL);
    bb_json_string(&j, "command", "bc");
    bb_json_provenance(&j);
    bb_json_begin_object(&j, "graph");
    bb_json_string(&j, "name", boxbfs_graph_name(g));
    bb_json_int(&j, "vertices", boxbfs_graph_vertices(g));
    bb_json_int(&j, "arcs", boxbfs_graph_arcs(g));
    bb_json_int(&j, "input_edges", boxbfs_graph_input_edges(g));
    bb_json_bool(&j, "directed", boxbfs_graph_is_directed(g));
    bb_json_end_object(&j);
    bb_json_begin_object(&j, "options");
    bb_json_string(&j, "graph", a->spec);
    bb_json_string(&j, "backend", boxbfs_backend_name(a->backend));
    bb_json_int(&j, "devices", a->devices);
    bb_json_bool(&j, "all", a->all);
    bb_json_int(&j, "sources", k);
    bb_json_int(&j, "seed", (int64_t)a->seed);
    bb_json_bool(&j, "normalized", a->normalized);
    bb_json_int(&j, "top", a->top);
    bb_json_string(&j, "output", a->output ? a->output : "");
    bb_json_bool(&j, "check", a->check);
    bb_json_string(&j, "relabel", a->relabel ? "degree" : "none");
    bb_json_end_object(&j);
    if (a->relabel) bb_json_double(&j, "relabel_s", a->relabel_s);
    bb_json_string(&j, "backend", boxbfs_backend_name(a->backend));
    bb_json_int(&j, "devices", a->devices);
    bb_json_begin_array(&j, "device_names");
    for (int d = 0; d < a->devices; d++) bb_json_string(&j, NULL, boxbfs_bc_device_name(res, d));
    bb_json_end_array(&j);
    bb_json_int(&j, "sources", k);
    bb_json_double(&j, "total_time_s", rep->total_s);
    bb_json_double(&j, "time_per_source_s", k ? rep->total_s / (double)k : 0);
    bb_summarize(rep->source_time_s, (int)k, &ts);
    bb_json_double(&j, "mean_source_time_s", ts.mean);
    bb_summarize(teps, (int)nteps, &ts);
    bb_json_double(&j, "harmonic_mean_TEPS", ts.harmonic_mean);   /* sources with an edge */
    bb_json_int(&j, "sources_with_edges", nteps);
    bb_json_double(&j, "aggregate_TEPS", aggregate_teps);   /* all edges / all source time */
    {   /* each device's share: sources and busy time, and their spread */
        double spread_s, fraction;
        bb_json_begin_array(&j, "device_sources");
        for (int d = 0; d < a->devices; d++) bb_json_int(&j, NULL, device_sources(rep, d));
        bb_json_end_array(&j);
        bb_json_begin_array(&j, "device_busy_s");
        for (int d = 0; d < a->devices; d++) bb_json_double(&j, NULL, rep->device_busy_s[d]);
        bb_json_end_array(&j);
        bb_busy_spread(rep->device_busy_s, a->devices, &spread_s, &fraction);
        bb_json_double(&j, "device_busy_spread_s", spread_s);
        bb_json_double(&j, "device_busy_spread_fraction", fraction);
    }
    bb_json_begin_array(&j, "source_time_s");
    for (int64_t i = 0; i < k; i++) bb_json_double(&j, NULL, rep->source_time_s[i]);
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "top");
    for (int64_t i = 0; i < ntop; i++) {
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "vertex", boxbfs_graph_external_id(g, top[i]));
        bb_json_double(&j, "bc", bc[top[i]]);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_string(&j, "check", check);
    bb_json_end_object(&j);
    if (bb_json_finish(&j) != 0) bb_cli_error("%s: write failed", a->json);
}

/* Graph500 TEPS of each source with an edge (an isolated source traverses
 * nothing) into teps (*nteps_p of them; one 0 when none), and all edges over
 * all source time. */
static double source_teps(const boxbfs_bc_report_t *rep, double *teps, int64_t *nteps_p)
{
    double all_edges = 0, all_time = 0;
    int64_t nteps = 0;
    for (int64_t i = 0; i < rep->nsources; i++) {
        if (rep->source_input_edges[i] > 0 && rep->source_time_s[i] > 0)
            teps[nteps++] = (double)rep->source_input_edges[i] / rep->source_time_s[i];
        all_edges += (double)rep->source_input_edges[i];
        all_time += rep->source_time_s[i];
    }
    if (nteps == 0) teps[nteps++] = 0;
    *nteps_p = nteps;
    return all_time > 0 ? all_edges / all_time : 0;
}

int bb_cmd_bc(int argc, char **argv)
{
    bc_args_t a;
    boxbfs_graph_t g = NULL;
    boxbfs_bc_options_t o;
    boxbfs_bc_result_t res = NULL;
    const boxbfs_bc_report_t *rep;
    const double *bc;
    boxbfs_status_t st;
    int64_t *src = NULL, *top = NULL, k, n, ntop, nteps = 0;
    double *teps = NULL, aggregate_teps;
    const char *check = "skipped";
    int rc;
    memset(&a, 0, sizeof a);
    a.top = 10;
    a.seed = 1;
    rc = bc_parse(argc, argv, &a);
    if (rc != BB_ARGS_GO_ON) return rc;
    if (a.spec == NULL) a.spec = "kron:16";
    if (!a.backend_given) {
        int gpus = boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
        a.backend = gpus > 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
        if (!a.devices) a.devices = gpus > 0 ? gpus : 2;
    }
    if (!a.devices) a.devices = a.backend == BOXBFS_BACKEND_CUDA ? 1 : 2;
    if ((st = bb_cli_load_graph("loading", a.spec, &a.load, &g)) != BOXBFS_OK)
        return bb_cli_fail(st);
    n = boxbfs_graph_vertices(g);
    k = a.all || a.sources == 0 || a.sources > n ? n : a.sources;
    if (!a.all && a.sources == 0 && n > 64) k = 64;
    if (!a.all && a.sources > n)
        boxbfs_log(BOXBFS_LOG_WARN, "bc: --sources %lld > %lld vertices: every vertex is a source",
                   (long long)a.sources, (long long)n);
    src = choose_sources(n, k, a.seed);
    teps = calloc((size_t)k, sizeof *teps);
    if (!src || !teps) {
        bb_cli_error("out of memory");
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    /* the same sources; every device holds the whole graph: one stripe */
    if (a.relabel && (rc = bb_cli_relabel(&g, 1, src, k, &a.relabel_s)) != 0) goto out;
    boxbfs_bc_options_init(&o);
    o.backend = a.backend;
    o.devices = a.devices;
    o.normalized = a.normalized;
    if ((st = boxbfs_bc_run(g, src, k, &o, &res)) != BOXBFS_OK) {
        rc = bb_cli_fail(st);
        goto out;
    }
    rep = boxbfs_bc_report(res);
    bc = boxbfs_bc_values(res);
    aggregate_teps = source_teps(rep, teps, &nteps);
    rc = BB_EXIT_OK;
    if (a.check) {
        double worst = 0;
        st = boxbfs_bc_validate(g, res, &worst);
        check = st == BOXBFS_OK ? "passed" : "failed";
        if (st == BOXBFS_ERR_VALIDATION) {
            bb_cli_error("bc: --check: differs from the reference by %g (relative)", worst);
            rc = BB_EXIT_VALIDATION;
        } else if (st != BOXBFS_OK) {
            rc = bb_cli_fail(st);
            goto out;
        }
    }
    ntop = a.top < n ? a.top : n;
    if ((top = top_vertices(bc, n, ntop)) == NULL) {
        bb_cli_error("out of memory");
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    if (!(a.json && strcmp(a.json, "-") == 0)) {
        bb_summary_t s;
        printf("# boxbfs %s (commit %s)\n", boxbfs_version(), bb_build_commit());
        printf("# bc %s: %lld vertices, %lld arcs, %s; %lld sources%s; backend %s, %d devices (%s)\n",
               boxbfs_graph_name(g), (long long)n, (long long)boxbfs_graph_arcs(g),
               boxbfs_graph_is_directed(g) ? "directed" : "undirected", (long long)k,
               k == n ? " (all)" : " (sampled)", boxbfs_backend_name(a.backend), a.devices,
               boxbfs_bc_device_name(res, 0));
        if (a.relabel) printf("# relabeled: by degree (%.2f s, not timed)\n", a.relabel_s);
        if (ntop) printf("%6s %16s %24s\n", "rank", "vertex", a.normalized ? "bc_normalized" : "bc");
        for (int64_t i = 0; i < ntop; i++)
            printf("%6lld %16lld %24.10g\n", (long long)i + 1,
                   (long long)boxbfs_graph_external_id(g, top[i]), bc[top[i]]);
        bb_summarize(teps, (int)nteps, &s);
        printf("sources: %lld\n", (long long)k);
        printf("total_time_s: %.6f\n", rep->total_s);
        printf("time_per_source_ms: %.4f\n", 1e3 * rep->total_s / (double)k);
        printf("harmonic_mean_TEPS: %.6g (sources with an edge)\n", s.harmonic_mean);
        printf("aggregate_TEPS: %.6g\n", aggregate_teps);
        {
            double spread_s, fraction;
            bb_busy_spread(rep->device_busy_s, a.devices, &spread_s, &fraction);
            printf("# %6s %8s %12s\n", "device", "sources", "busy_s");
            for (int d = 0; d < a.devices; d++)
                printf("  %6d %8lld %12.6f\n", d, (long long)device_sources(rep, d),
                       rep->device_busy_s[d]);
            printf("device_busy_spread_s: %.6f (%.1f %% of the busiest device)\n", spread_s,
                   100 * fraction);
        }
        printf("check: %s\n", check);
    }
    if (a.output && bc_write_output(a.output, g, bc) != 0 && rc == BB_EXIT_OK) rc = BB_EXIT_RUNTIME;
    if (a.json) {
        FILE *f = strcmp(a.json, "-") == 0 ? stdout : fopen(a.json, "w");
        if (f == NULL) {
            bb_cli_error("%s: cannot open for writing: %s", a.json, strerror(errno));
            if (rc == BB_EXIT_OK) rc = BB_EXIT_RUNTIME;
        } else {
            bc_json(f, &a, res, g, teps, nteps, aggregate_teps, top, ntop, check);
            if (f != stdout && fclose(f) != 0 && rc == BB_EXIT_OK) rc = BB_EXIT_RUNTIME;
        }
    }
out:
    boxbfs_bc_free(res);
    boxbfs_graph_free(g);
    free(src);
    free(top);
    free(teps);
    return rc;
}
