/* boxbfs bfs: load or generate a graph (under --exchange mpi each rank only
 * its slice where the input allows it), run the engine from many roots
 * (Graph500: 64 random roots of non-zero degree), validate every tree, and
 * report TEPS, traffic per link and level, and modeled link time. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/timer.h"
#include "graph/graph.h"


/* Graph500 root choice: distinct random vertices with at least one edge. */
static int choose_roots(boxbfs_graph_t g, const bb_bfs_args_t *a, int64_t **roots_p, int *count_p)
{
    int64_t *roots;
    if (a->ngiven) {
        roots = malloc((size_t)a->ngiven * sizeof *roots);
        if (!roots) { bb_cli_error("out of memory"); return BB_EXIT_RUNTIME; }
        for (int i = 0; i < a->ngiven; i++) {
            if (boxbfs_graph_internal_id(g, a->given_roots[i], &roots[i]) != BOXBFS_OK) {
                free(roots);
                return bb_cli_fail(BOXBFS_ERR_INVALID_ARG);
            }
        }
        *roots_p = roots;
        *count_p = a->ngiven;
        return 0;
    }
    return bb_cli_random_roots(g, a->nroots, a->seed, roots_p, count_p);
}

/* The first root's tree, one line per vertex, into an output file that
 * bb_cmd_bfs commits with the reports or discards. */
static int write_output(bb_outfile_t *out, const char *path, boxbfs_graph_t g,
                        const int64_t *parent, const int32_t *level)
{
    if (bb_outfile_open(out, path) != 0) return -1;
    for (int64_t i = 0; i < g->n; i++) {
        int64_t v = bb_cli_input_vertex(g, i);
        fprintf(out->f, "%lld %d %lld\n", (long long)boxbfs_graph_external_id(g, v), level[v],
                parent[v] < 0 ? -1LL : (long long)boxbfs_graph_external_id(g, parent[v]));
    }
    if (ferror(out->f)) {
        bb_cli_error("%s: write failed", path);
        bb_outfile_discard(out);
        return -1;
    }
    return 0;
}

static int write_report_file(bb_outfile_t *out, const char *path, const bb_bfs_report_t *r,
                             int (*writer)(FILE *, const bb_bfs_report_t *))
{
    if (bb_outfile_open(out, path) != 0) return -1;
    if (writer(out->f, r) != 0 || ferror(out->f)) {
        bb_cli_error("%s: write failed", path);
        bb_outfile_discard(out);
        return -1;
    }
    return 0;
}

static void add_traffic(bb_bfs_report_t *r, const boxbfs_search_report_t *s, int ndev)
{
    for (int c = 0; c < ndev * ndev; c++) {
        r->link_bytes[c] += s->link_bytes[c];
        r->link_messages[c] += s->link_messages[c];
    }
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) {
        r->phase_bytes[p] += s->phase_bytes[p];
        r->phase_messages[p] += s->phase_messages[p];
    }
    r->total_bytes += s->total_bytes;
    r->total_messages += s->total_messages;
    r->modeled_exchange_s += s->modeled_exchange_s;
}

/* The first root's level table (per level, link and device) for the report;
 * dev >= 0: the roots run side by side and s is that one device's search
 * (its row in column dev of the report's devices, no links). */
static int keep_levels(bb_bfs_report_t *r, const boxbfs_search_report_t *s, int ndev, int dev)
{
    size_t n = (size_t)s->nlevels, cells = (size_t)ndev * (size_t)ndev;
    r->first_levels = malloc(n * sizeof *r->first_levels);
    r->first_level_links = calloc(n * cells, sizeof *r->first_level_links);
    r->first_level_devices = calloc(n * (size_t)ndev, sizeof *r->first_level_devices);
    if (!r->first_levels || !r->first_level_links || !r->first_level_devices) return -1;
    memcpy(r->first_levels, s->level_reports, n * sizeof *r->first_levels);
    if (dev < 0) {
        memcpy(r->first_level_links, s->level_link_bytes, n * cells * sizeof *r->first_level_links);
        memcpy(r->first_level_devices, s->level_devices,
               n * (size_t)ndev * sizeof *r->first_level_devices);
    } else {
        for (size_t l = 0; l < n; l++) r->first_level_devices[l * (size_t)ndev + (size_t)dev] = s->level_devices[l];
    }
    r->first_nlevels = s->nlevels;
    return 0;
}

int bb_bfs_root(const bb_bfs_args_t *a, bb_bfs_report_t *r, boxbfs_engine_t e, int dev, int i,
                bb_outfile_t *output, bb_bfs_worker_t *w)
{
    boxbfs_graph_t g = r->graph;
    int ndev = a->eo.devices;
    int root_rank = boxbfs_engine_rank(e) == 0;   /* --exchange mpi: reports and writes */
    const boxbfs_search_report_t *s;
    boxbfs_tree_info_t info;
    boxbfs_status_t st;
    double t = bb_now_s();
    st = boxbfs_engine_run(e, r->roots[i], w->parent, w->level, &s);
    w->search_s += bb_now_s() - t;
    if (st != BOXBFS_OK) return bb_cli_fail(st);
    r->time_s[i] = s->time_s;
    r->levels[i] = s->levels;
    r->reached[i] = s->reached;
    r->bytes[i] = s->total_bytes;
    r->modeled_s[i] = s->modeled_exchange_s;
    r->gather_s[i] = s->gather_s;
    r->levels_s[i] = 0;
    for (int l = 0; l < s->nlevels; l++) r->levels_s[i] += s->level_reports[l].time_s;
    r->outside_s[i] = s->time_s - r->levels_s[i];
    r->span_s[i] = s->device_span_s;
    if (r->root_device) r->root_device[i] = dev;
    if (dev < 0) add_traffic(r, s, ndev);   /* one device alone moves nothing */
    if (i == 0) {
        if (keep_levels(r, s, ndev, dev) != 0) {
            bb_cli_error("cannot allocate the level table of %d levels", s->nlevels);
            return BB_EXIT_RUNTIME;
        }
        /* rank 0 alone: the others must not wait for it in the collectives, so
         * the searches go on and the run fails at the end */
        if (root_rank && a->output && write_output(output, a->output, g, w->parent, w->level) != 0)
            w->output_failed = 1;
    }
    /* every rank checks its rows of the tree; all get the same verdict and counts */
    t = bb_now_s();
    st = boxbfs_engine_check_tree(e, r->roots[i], w->parent, w->level, a->validate, &info);
    w->check_s += bb_now_s() - t;
    r->validated[i] = !a->validate ? -1 : st == BOXBFS_OK;
    if (st == BOXBFS_ERR_VALIDATION) {
        if (root_rank)
            bb_cli_error("root %lld: validation failed: %s",
                         (long long)boxbfs_graph_external_id(g, r->roots[i]), boxbfs_last_error());
        w->failed = 1;
        /* the TEPS counts of the failed tree */
        st = boxbfs_engine_check_tree(e, r->roots[i], w->parent, w->level, 0, &info);
    }
    if (st != BOXBFS_OK) return bb_cli_fail(st);
    r->input_edges[i] = info.input_edges;
    r->teps[i] = s->time_s > 0 ? (double)info.input_edges / s->time_s : 0;
    r->teps_arc[i] = s->time_s > 0 ? (double)info.arcs / s->time_s : 0;
    if (root_rank)
        boxbfs_log(BOXBFS_LOG_INFO, "search %d/%d%s: %.3f s, %s %.3f s", i + 1, r->nroots,
                   dev >= 0 ? " (side by side)" : "", s->time_s,
                   a->validate ? "validation" : "tree counts", bb_now_s() - t);
    return 0;
}

static int run_searches(bb_bfs_args_t *a, bb_bfs_report_t *r, bb_outfile_t *output)
{
    boxbfs_graph_t g = r->graph;
    int rc = 0, side = 0;
    int root_rank = boxbfs_engine_rank(r->engine) == 0;
    bb_bfs_worker_t w;
    bb_progress_t progress;
    memset(&w, 0, sizeof w);
    w.parent = malloc((size_t)g->n * sizeof *w.parent);
    w.level = malloc((size_t)g->n * sizeof *w.level);
    if (!w.parent || !w.level) {
        free(w.parent);
        free(w.level);
        bb_cli_error("cannot allocate the result arrays for %lld vertices", (long long)g->n);
        return BB_EXIT_RUNTIME;
    }
    /* warm-up search, not timed: module loading, first-touch, caches */
    {
        const boxbfs_search_report_t *s;
        boxbfs_status_t st = boxbfs_engine_run(r->engine, r->roots[0], NULL, NULL, &s);
        if (st != BOXBFS_OK) {
            free(w.parent);
            free(w.level);
            return bb_cli_fail(st);
        }
        side = bb_side_by_side_pick(a, r, s->nlevels);
        if (side < 0) rc = BB_EXIT_USAGE;
    }
    if (side > 0) {
        rc = bb_side_by_side_run(a, r, output, &w);
    } else if (rc == 0) {
        bb_progress_start(&progress, "bfs", r->nroots);
        for (int i = 0; i < r->nroots && rc == 0; i++) {
            rc = bb_bfs_root(a, r, r->engine, -1, i, output, &w);
            bb_progress_update(&progress, i + 1);
        }
        bb_progress_end(&progress);
    }
    if (root_rank)
        boxbfs_log(BOXBFS_LOG_INFO, "%d searches: %.3f s in boxbfs_engine_run (parents gathered "
                   "included), %.3f s in boxbfs_engine_check_tree", r->nroots, w.search_s,
                   w.check_s);
    r->validation = !a->validate ? "skipped" : w.failed ? "failed" : "passed";
    r->check_s = w.check_s;
    free(w.parent);
    free(w.level);
    if (rc == 0 && w.output_failed) rc = BB_EXIT_RUNTIME;
    if (rc == 0 && w.failed) rc = BB_EXIT_VALIDATION;
    return rc;
}

/* --build-on devices: a kron: graph, undirected, in one process, the 1d
 * partition, its ids as generated, no whole-graph feature; 0, or -1 after
 * saying why not. */
static int check_build_on_devices(bb_bfs_args_t *a)
{
    const char *no = strncmp(a->spec, "kron:", 5) != 0 ? "a kron: graph"
                     : a->load.direction == BOXBFS_DIRECTION_DIRECTED ? "undirected (no --directed)"
                     : boxbfs_one_device_per_process(&a->eo) ? "the devices of one process"
                     : a->eo.partition == BOXBFS_PARTITION_2D ? "the 1d partition"
                     : a->relabel == 1 ? "the generator's ids (no --relabel degree)"
                     : a->side_by_side == BB_SIDE_ON ? "searches split over the devices (no "
                                                       "--side-by-side on)"
                     : a->sigma ? "no --sigma (it needs the graph on the host)"
                     : NULL;
    if (no != NULL) {
        bb_cli_error("--build-on devices: the graph must be %s", no);
        return -1;
    }
    a->relabel = 0;   /* the rows are made in the generator's order */
    a->side_by_side = BB_SIDE_OFF;
    return 0;
}

static void pick_defaults(bb_bfs_args_t *a)
{
    /* --backend cpu never starts the GPU driver (its start costs every run on a GPU host) */
    int cpu = a->backend_given && a->eo.backend == BOXBFS_BACKEND_CPU;
    int gpus = cpu ? 0 : boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
    if (!a->backend_given && a->eo.exchange == BOXBFS_EXCHANGE_NCCL) {
        a->eo.backend = BOXBFS_BACKEND_CUDA;   /* NCCL moves GPU memory: no cpu fallback */
    } else if (!a->backend_given) {
        a->eo.backend = gpus > 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
        if (gpus == 0)
            boxbfs_log(BOXBFS_LOG_WARN, "no GPU found: using the cpu backend (devices emulated by "
                       "host threads)");
    }
    if (boxbfs_one_device_per_process(&a->eo)) {
        if (!a->devices_given) a->eo.devices = 0;   /* one per MPI rank */
    } else if (!a->devices_given) {
        /* GPUs: --devices auto unless asked otherwise (the count is chosen once
         * the graph is loaded); the cpu backend emulates 2 (and --devices auto
         * chooses among them) */
        int cuda = a->eo.backend == BOXBFS_BACKEND_CUDA && gpus > 0;
        a->devices_auto |= cuda;
        a->eo.devices = a->devices_all = cuda ? gpus : 2;
        if (!cuda && !a->devices_auto)
            boxbfs_log(BOXBFS_LOG_WARN, "using %d emulated devices (--devices N to change)",
                       a->eo.devices);
    }
    if (a->devices_given) a->devices_auto = 0;
}

/* --devices auto: as many of the devices as the graph's arcs pay for. */
static void choose_devices(bb_bfs_args_t *a, bb_bfs_report_t *r)
{
    char why[160];
    if (!a->devices_auto || r->per_process || a->eo.partition == BOXBFS_PARTITION_2D) return;
    /* a graph built on the devices has no arcs yet: about two per input edge */
    const int64_t arcs = a->build_on_devices ? 2 * boxbfs_graph_input_edges(r->graph)
                                             : boxbfs_graph_arcs(r->graph);
    a->eo.devices = boxbfs_devices_auto(arcs, a->devices_all, why, sizeof why);
    snprintf(r->devices_why, sizeof r->devices_why, "auto: %s", why);
    boxbfs_log(BOXBFS_LOG_INFO, "--devices %s", r->devices_why);
}

static int alloc_report(bb_bfs_report_t *r, int nroots, int ndev)
{
    r->nroots = nroots;
    r->time_s = calloc((size_t)nroots, sizeof(double));
    r->teps = calloc((size_t)nroots, sizeof(double));
    r->teps_arc = calloc((size_t)nroots, sizeof(double));
    r->modeled_s = calloc((size_t)nroots, sizeof(double));
    r->gather_s = calloc((size_t)nroots, sizeof(double));
    r->levels_s = calloc((size_t)nroots, sizeof(double));
    r->outside_s = calloc((size_t)nroots, sizeof(double));
    r->span_s = calloc((size_t)nroots, sizeof(double));
    r->levels = calloc((size_t)nroots, sizeof(int64_t));
    r->reached = calloc((size_t)nroots, sizeof(int64_t));
    r->bytes = calloc((size_t)nroots, sizeof(int64_t));
    r->input_edges = calloc((size_t)nroots, sizeof(int64_t));
    r->validated = calloc((size_t)nroots, sizeof(int));
    r->link_bytes = calloc((size_t)ndev * (size_t)ndev, sizeof(int64_t));
    r->link_messages = calloc((size_t)ndev * (size_t)ndev, sizeof(int64_t));
    return r->time_s && r->teps && r->teps_arc && r->modeled_s && r->gather_s && r->levels_s &&
           r->outside_s && r->span_s && r->levels &&
           r->reached && r->bytes && r->input_edges && r->validated && r->link_bytes && r->link_messages ? 0 : -1;
}

static void free_report(bb_bfs_report_t *r)
{
    free(r->roots); free(r->time_s); free(r->teps); free(r->teps_arc); free(r->modeled_s);
    free(r->gather_s);
    free(r->levels_s);
    free(r->outside_s);
    free(r->span_s);
    free(r->levels); free(r->reached); free(r->bytes); free(r->input_edges); free(r->validated);
    free(r->link_bytes); free(r->link_messages); free(r->first_levels);
    free(r->first_level_links);
    free(r->first_level_devices);
    free(r->root_device);
}

int bb_cmd_bfs(int argc, char **argv)
{
    bb_bfs_args_t a;
    bb_bfs_report_t r;
    bb_outfile_t files[3];   /* --output, --json, --traffic-csv: all or none (exit 0 or 2) */
    bb_sigma_summary_t sigma;
    boxbfs_status_t st;
    int rc, nroots = 0;
    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    memset(files, 0, sizeof files);
    memset(&sigma, 0, sizeof sigma);
    boxbfs_engine_options_init(&a.eo);
    a.validate = 1;
    a.relabel = 2;   /* auto */
    a.nroots = 64;
    a.seed = 1;
    if (bb_bfs_parse_args(argc, argv, &a) != 0) {
        free(a.given_roots);
        boxbfs_links_free(a.links);
        return BB_EXIT_USAGE;
    }
    if (a.spec == NULL) a.spec = "kron:20";
    if (a.build_on_devices && check_build_on_devices(&a) != 0) {
        free(a.given_roots);
        boxbfs_links_free(a.links);
        return BB_EXIT_USAGE;
    }
    pick_defaults(&a);
    /* the inputs that can be read by range: each rank loads only its rows */
    r.per_process = boxbfs_one_device_per_process(&a.eo);
    r.sliced = r.per_process && !a.whole_graph && a.eo.partition == BOXBFS_PARTITION_1D &&
               (strncmp(a.spec, "kron:", 5) == 0 || bb_ends_with(a.spec, ".bbcsr"));
    a.load.mpi_slice = r.sliced;
    {
        bb_progress_t progress;   /* elapsed time while loading, on a terminal */
        bb_progress_tick_t tick;
        double t0 = bb_now_s();
        bb_progress_start(&progress, r.sliced ? "loading this rank's slice" : "loading", 0);
        bb_progress_update(&progress, 0);
        bb_progress_tick_start(&tick, &progress);
        st = a.build_on_devices ? boxbfs_graph_kron_on_devices(a.spec, &r.graph)
                                : boxbfs_graph_load(a.spec, &a.load, &r.graph);
        bb_progress_tick_stop(&tick);
        bb_progress_end(&progress);
        if (st == BOXBFS_OK)
            boxbfs_log(BOXBFS_LOG_INFO, "%s: %s in %.3f s", a.spec,
                       r.sliced ? "this rank's slice loaded" : "loaded", bb_now_s() - t0);
    }
    if (st != BOXBFS_OK) {
        free(a.given_roots);
        boxbfs_links_free(a.links);
        return bb_cli_fail(st);
    }
    if (a.reverse && !boxbfs_graph_is_directed(r.graph)) {
        fprintf(stderr, "boxbfs: --reverse: %s is undirected, so its reverse is itself\n",
                r.graph->name);
    } else if (a.reverse) {
        boxbfs_graph_t reversed;
        if (bb_graph_is_slice(r.graph)) {
            bb_cli_error("--reverse turns the whole graph around: it does not combine with "
                         "per-rank slices (add --whole-graph)");
            rc = BB_EXIT_USAGE;
            goto out;
        }
        if ((st = boxbfs_graph_reverse(r.graph, &reversed)) != BOXBFS_OK) {
            rc = bb_cli_fail(st);
            goto out;
        }
        boxbfs_graph_free(r.graph);
        r.graph = reversed;
        r.reverse = 1;
    }
    choose_devices(&a, &r);
    /* a graph built on the devices has its degrees once the engine built it */
    rc = a.build_on_devices ? 0 : choose_roots(r.graph, &a, &r.roots, &nroots);
    if (rc == 0 && a.relabel == 2) {   /* auto: where the degrees are skewed */
        r.relabel_auto = 1;
        a.relabel = bb_cli_relabel_pays(r.graph, &r.relabel_share);
        if (boxbfs_graph_vertices(r.graph) <= BB_RELABEL_MIN_VERTICES)
            boxbfs_log(BOXBFS_LOG_INFO, "--relabel auto: none (%lld vertices: at most 2^20)",
                       (long long)boxbfs_graph_vertices(r.graph));
        else
            boxbfs_log(BOXBFS_LOG_INFO, "--relabel auto: %s (%lld vertices, the top 1 %% by "
                       "degree hold %.1f %% of the arcs)", a.relabel ? "by degree" : "none",
                       (long long)boxbfs_graph_vertices(r.graph), 100 * r.relabel_share);
    }
    if (rc == 0 && a.relabel) {   /* the same roots, one stripe per device (or rank) */
        int procs = boxbfs_mpi_launched_processes();
        r.stripes = a.eo.devices > 0 ? a.eo.devices : procs > 1 ? procs : 1;
        rc = bb_cli_relabel(&r.graph, r.stripes, r.roots, nroots, &r.relabel_s);
        r.relabel = rc == 0;
    }
    if (rc != 0) goto out;
    {
        bb_progress_t progress;   /* elapsed time on a terminal: kron:30 builds in 80 s */
        bb_progress_tick_t tick;
        double t0 = bb_now_s();
        bb_progress_start(&progress, a.build_on_devices ? "building the graph on the devices"
                                                        : "setting up the devices", 0);
        bb_progress_update(&progress, 0);
        bb_progress_tick_start(&tick, &progress);
        st = boxbfs_engine_create(r.graph, &a.eo, &r.engine);
        bb_progress_tick_stop(&tick);
        bb_progress_end(&progress);
        if (st != BOXBFS_OK) {
            rc = bb_cli_fail(st);
            goto out;
        }
        boxbfs_log(BOXBFS_LOG_INFO, "devices set up (memory plan, slices %s) in %.3f s",
                   a.build_on_devices ? "built there" : "uploaded", bb_now_s() - t0);
        r.build_s = a.build_on_devices ? bb_now_s() - t0 : 0;
    }
    if (a.build_on_devices && (rc = choose_roots(r.graph, &a, &r.roots, &nroots)) != 0) goto out;
    a.eo.devices = boxbfs_engine_device_count(r.engine);   /* --exchange mpi: the ranks */
    if (a.eo.partition == BOXBFS_PARTITION_2D && a.eo.grid_rows == 0)   /* the engine's choice */
        boxbfs_grid_default(a.eo.devices, &a.eo.grid_rows, &a.eo.grid_cols);
    /* the figures in effect (a description's name, measured ones) */
    a.eo.link_model = *boxbfs_engine_link_model(r.engine);
    /* the report's device columns: side by side may take every device (choose_devices) */
    if (alloc_report(&r, nroots, a.eo.devices > a.devices_all ? a.eo.devices : a.devices_all) != 0) {
        bb_cli_error("out of memory");
        rc = BB_EXIT_RUNTIME;
        goto out;
    }
    r.opts = &a.eo;
    r.graph_spec = a.spec;
    r.validate = a.validate;
    r.side_asked = a.side_by_side;
    rc = run_searches(&a, &r, &files[0]);
    if (a.sigma && (rc == BB_EXIT_OK || rc == BB_EXIT_VALIDATION)) {   /* issue #14 */
        int src = bb_sigma_run(&a, r.graph, r.roots[0], &sigma);
        if (src != BB_EXIT_OK && src != BB_EXIT_VALIDATION) {
            rc = src;
            goto out;
        }
        if (rc == BB_EXIT_OK) rc = src;
        r.sigma = &sigma;
    }
    if (boxbfs_engine_rank(r.engine) != 0) goto out;   /* rank 0 reports */
    if (rc == BB_EXIT_OK || rc == BB_EXIT_VALIDATION) {
        int wrc = 0;
        if (!(a.json && strcmp(a.json, "-") == 0)) bb_report_text(stdout, &r);
        if (a.json) wrc |= write_report_file(&files[1], a.json, &r, bb_report_json);
        if (a.traffic_csv && !wrc)
            wrc |= write_report_file(&files[2], a.traffic_csv, &r, bb_report_traffic_csv);
        for (int i = 0; i < 3 && !wrc; i++)
            if (files[i].f != NULL) wrc |= bb_outfile_commit(&files[i]);
        if (wrc && rc == BB_EXIT_OK) rc = BB_EXIT_RUNTIME;
    }
out:
    for (int i = 0; i < 3; i++) bb_outfile_discard(&files[i]);   /* the ones not committed */
    if (r.side_engines) {
        for (int d = 0; d < a.eo.devices; d++) boxbfs_engine_free(r.side_engines[d]);
        free(r.side_engines);
    } else {
        boxbfs_engine_free(r.engine);
    }
    boxbfs_finalize();
    boxbfs_graph_free(r.graph);
    free_report(&r);
    free(sigma.link_bytes);
    free(a.given_roots);
    boxbfs_links_free(a.links);
    return rc;
}
