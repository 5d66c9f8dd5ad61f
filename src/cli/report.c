/* Reports of `boxbfs bfs`: the text report on stdout (# header lines,
 * fixed-width tables, key: value summary, verdict), the JSON report whose
 * fields scripts rely on, and the traffic CSV. TEPS as Graph500 defines them:
 * input edges inside the traversed component over the search time; teps_arc
 * counts the out-degrees of reached vertices instead (Gunrock, Enterprise). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "graph/graph.h"

static double per_bfs(int64_t total, int nroots) { return nroots ? (double)total / nroots : 0.0; }

/* "td" / "bu" in the level table; "td*" / "bu*": inside the one-GPU device loop. */
static const char *level_dir(const boxbfs_level_report_t *L)
{
    if (L->direction == BOXBFS_SEARCH_BOTTOM_UP) return L->device_loop ? "bu*" : "bu";
    return L->device_loop ? "td*" : "td";
}

/* What a level costs beyond its work, over the first root's levels with at
 * most BB_SMALL_LEVEL frontier vertices: the median level time and overhead. */
#define BB_SMALL_LEVEL 1000
static int small_levels(const bb_bfs_report_t *r, double *time_p, double *overhead_p)
{
    int n = 0;
    double *t = malloc((size_t)(r->first_nlevels + 1) * sizeof *t);
    double *o = malloc((size_t)(r->first_nlevels + 1) * sizeof *o);
    bb_summary_t st, so;
    *time_p = *overhead_p = 0;
    if (t && o)
        for (int l = 0; l < r->first_nlevels; l++)
            if (r->first_levels[l].frontier <= BB_SMALL_LEVEL) {
                t[n] = r->first_levels[l].time_s;
                o[n++] = r->first_levels[l].overhead_s;
            }
    if (n > 0) {
        bb_summarize(t, n, &st);
        bb_summarize(o, n, &so);
        *time_p = st.median;
        *overhead_p = so.median;
    }
    free(t);
    free(o);
    return n;
}

typedef struct {
    const char *name;
    size_t bytes;
} array_t;

static int larger_first(const void *a, const void *b)
{
    size_t x = ((const array_t *)a)->bytes, y = ((const array_t *)b)->bytes;
    return (x < y) - (x > y);
}

/* Device x of e's arrays, largest first, after the device line: names and
 * sizes (MiB; KiB below one), then the optional arrays it went without. */
static void print_arrays(FILE *f, boxbfs_engine_t e, int x)
{
    array_t a[64];
    int n = 0;
    while (n < 64 && boxbfs_engine_device_array(e, x, n, &a[n].name, &a[n].bytes)) n++;
    qsort(a, (size_t)n, sizeof a[0], larger_first);
    if (n > 0) fprintf(f, "#     arrays:");
    for (int i = 0; i < n; i++) {
        int mib = a[i].bytes >= 1048576;
        fprintf(f, "%s %s %.1f %s", i ? "," : "", a[i].name,
                (double)a[i].bytes / (mib ? 1048576.0 : 1024.0), mib ? "MiB" : "KiB");
    }
    if (n > 0) fputc('\n', f);
    if (*boxbfs_engine_device_dropped(e, x))
        fprintf(f, "#     dropped: %s\n", boxbfs_engine_device_dropped(e, x));
}

/* The engine that holds device d of the run, and its index there (the
 * roots side by side: d's own engine, device 0). */
static boxbfs_engine_t dev_engine(const bb_bfs_report_t *r, int d, int *index)
{
    *index = r->side_engines ? 0 : d;
    return r->side_engines ? r->side_engines[d] : r->engine;
}

/* The direction switch's alpha the searches ran with (the engine's own
 * where the options left it 0). */
static double alpha_run(const bb_bfs_report_t *r)
{
    int x;
    double a = boxbfs_engine_alpha(dev_engine(r, 0, &x));
    return a > 0 ? a : r->opts->alpha;
}

/* What ran the searches (docs/architecture.md "Where a search runs"). */
static const char *strategy(const bb_bfs_report_t *r)
{
    return r->side_by_side[0] ? "roots side by side" : boxbfs_engine_strategy(r->engine);
}

/* Searches a second side by side, from the searches' own times (the host's
 * validation between them left out): on the devices, the roots over the
 * busiest device's summed times; on one device, the roots over all their
 * times summed, as one device would run them back to back. */
static void side_rates(const bb_bfs_report_t *r, int ndev, double *devices_p, double *one_p)
{
    double all = 0, busiest = 0;
    for (int d = 0; d < ndev; d++) {
        double busy = 0;
        for (int i = 0; i < r->nroots; i++) busy += r->root_device[i] == d ? r->time_s[i] : 0;
        all += busy;
        if (busy > busiest) busiest = busy;
    }
    *devices_p = busiest > 0 ? r->nroots / busiest : 0;
    *one_p = all > 0 ? r->nroots / all : 0;
}

/* Roots device d ran side by side. */
static int64_t side_roots(const bb_bfs_report_t *r, int d)
{
    int64_t n = 0;
    for (int i = 0; r->root_device && i < r->nroots; i++) n += r->root_device[i] == d;
    return n;
}

static void header(FILE *f, const bb_bfs_report_t *r)
{
    const boxbfs_engine_options_t *o = r->opts;
    boxbfs_graph_t g = r->graph;
    int64_t hub_degree = 0;
    fprintf(f, "# boxbfs %s (commit %s)\n", boxbfs_version(), bb_build_commit());
    fprintf(f, "# graph: %s  vertices: %lld  edges: %lld (%s)  arcs: %lld\n", g->name,
            (long long)g->n, (long long)g->input_edges, g->directed ? "directed" : "undirected",
            (long long)g->arcs);
    if (r->per_process && r->sliced)
        fprintf(f, "# loaded: per-rank slices (rank 0 rows [%lld, %lld))\n", (long long)g->row_lo,
                (long long)g->row_hi);
    else if (r->per_process)
        fprintf(f, "# loaded: whole graph on every rank\n");
    fprintf(f, "# backend: %s  devices: %d  processes: %d\n", boxbfs_backend_name(o->backend),
            o->devices, boxbfs_engine_processes(r->engine));
    if (r->devices_why[0]) fprintf(f, "# devices %s\n", r->devices_why);
    for (int d = 0; d < o->devices; d++) {
        int x;
        boxbfs_engine_t e = dev_engine(r, d, &x);
        size_t visited, mem = boxbfs_engine_memory_bytes(e, x, &visited);
        fprintf(f, "#   device %d: %s  memory: %.1f MiB (visited %.1f MiB)", d,
                boxbfs_engine_device_name(e, x), mem / 1048576.0, visited / 1048576.0);
        if (o->devices > 1 && !r->side_engines)
            fprintf(f, "  parents: %s", boxbfs_parents_name(boxbfs_engine_parents(e, x)));
        if (boxbfs_engine_arc_bits(e, x) == 64) fprintf(f, "  arcs: 64-bit");
        fputc('\n', f);
        print_arrays(f, e, x);
    }
    fprintf(f, "# direction: %s (alpha %g, beta %g)  max depth: ",
            boxbfs_search_direction_name(o->direction), alpha_run(r), o->beta);
    if (o->max_depth < 0) fprintf(f, "none");
    else fprintf(f, "%d", o->max_depth);
    fprintf(f, "  device loop: %lld arcs", (long long)o->device_loop_arcs);
    fprintf(f, "  search: %s", strategy(r));
    if (!r->side_by_side[0] && *boxbfs_engine_strategy_why(r->engine))
        fprintf(f, " (%s)", boxbfs_engine_strategy_why(r->engine));
    if (r->side_by_side[0])
        fprintf(f, " (%s; a device search on each device)", r->side_by_side);
    if (boxbfs_engine_prefix_skip(r->engine)) fprintf(f, "  visited-prefix skip");
    if (boxbfs_engine_hubs(r->engine, &hub_degree))
        fprintf(f, "  hubs split: %lld of >= %lld arcs",
                (long long)boxbfs_engine_hubs(r->engine, NULL), (long long)hub_degree);
    fprintf(f, "%s", r->reverse ? "  reversed: arcs followed against their direction" : "");
    if (r->relabel)
        fprintf(f, "  relabeled: by degree, %d stripes (%.2f s, construction: not timed%s)",
                r->stripes, r->relabel_s, r->relabel_auto ? "; --relabel auto" : "");
    if (g->on_devices)
        fprintf(f, "  built on the devices (%.2f s with their setup, construction: not timed; "
                "ids as generated)", r->build_s);
    fputc('\n', f);
    if (o->partition == BOXBFS_PARTITION_2D)
        fprintf(f, "# partition: 2d  grid: %dx%d (device p at grid row p %% %d, column p / %d: "
                   "holds the arcs from its grid column's vertices to its grid row's, owns "
                   "1/%d of the vertices)\n",
                o->grid_rows, o->grid_cols, o->grid_rows, o->grid_rows, o->devices);
    char k[8] = "auto";
    if (o->expand_edges_per_thread) snprintf(k, sizeof k, "%d", o->expand_edges_per_thread);
    fprintf(f,
            "# contract: %s  visited: %s  wire: %s  exchange: %s  expand: %s (K %s, f0 %d)  "
            "parents: %s\n"
            "# link model: %s (%.3g GB/s, %.3g us per message)\n",
            boxbfs_contract_name(o->contract), boxbfs_visited_name(o->visited),
            boxbfs_wire_name(boxbfs_engine_wire(r->engine)), boxbfs_exchange_name(o->exchange),
            boxbfs_expand_name(o->expand), k, o->expand_f0,
            boxbfs_parents_name(o->parents), o->link_model.name, o->link_model.bandwidth_Bps / 1e9,
            o->link_model.latency_s * 1e6);
}

void bb_report_text(FILE *f, const bb_bfs_report_t *r)
{
    bb_summary_t t, tt;
    int ndev = r->opts->devices;
    header(f, r);
    fprintf(f, "#\n# %12s %12s %14s %7s %10s %14s %10s\n", "root", "time_s", "TEPS", "levels",
            "reached", "bytes", "validated");
    for (int i = 0; i < r->nroots; i++)
        fprintf(f, "  %12lld %12.6f %14.6g %7lld %10lld %14lld %10s\n",
                (long long)boxbfs_graph_external_id(r->graph, r->roots[i]), r->time_s[i],
                r->teps[i], (long long)r->levels[i], (long long)r->reached[i],
                (long long)r->bytes[i],
                r->validated[i] < 0 ? "skipped" : r->validated[i] ? "yes" : "NO");
    if (r->first_nlevels) {
        fprintf(f, "#\n# levels of the first root (%lld)\n",
                (long long)boxbfs_graph_external_id(r->graph, r->roots[0]));
        fprintf(f, "# %5s %4s %11s %11s %12s %8s %7s %10s %10s %10s %10s %10s %10s %12s\n",
                "level", "dir", "frontier", "sent_vert", "bytes", "msgs", "bitmaps", "time_s",
                "expand_s", "contract_s", "exchange_s", "update_s", "overhead_s", "modeled_s");
        for (int l = 0; l < r->first_nlevels; l++) {
            const boxbfs_level_report_t *L = &r->first_levels[l];
            fprintf(f, "  %5d %4s %11lld %11lld %12lld %8lld %7lld %10.6f %10.6f %10.6f %10.6f %10.6f %10.6f %12.6g\n",
                    L->level, level_dir(L), (long long)L->frontier, (long long)L->sent_vertices,
                    (long long)L->bytes, (long long)L->messages, (long long)L->bitmap_messages,
                    L->time_s, L->expand_s, L->contract_s, L->exchange_s, L->update_s,
                    L->overhead_s, L->modeled_exchange_s);
        }
    }
    if (ndev > 1) {
        fprintf(f, "#\n# bytes per BFS on each link (row: source, column: destination)\n# %6s", "");
        for (int d = 0; d < ndev; d++) fprintf(f, " %12s%d", "dev", d);
        fprintf(f, "\n");
        for (int s = 0; s < ndev; s++) {
            fprintf(f, "  dev%-4d", s);
            for (int d = 0; d < ndev; d++)
                fprintf(f, " %13.0f", per_bfs(r->link_bytes[(size_t)s * ndev + d], r->nroots));
            fprintf(f, "\n");
        }
    }
    if (r->side_by_side[0]) {
        fprintf(f, "#\n# roots side by side: %d searches in %.6f s of wall time;", r->nroots,
                r->side_wall_s);
        for (int d = 0; d < ndev; d++)
            fprintf(f, " device %d: %lld roots%s", d, (long long)side_roots(r, d),
                    d + 1 < ndev ? "," : "\n");
    }
    bb_summarize(r->teps, r->nroots, &t);
    bb_summarize(r->teps_arc, r->nroots, &tt);
    fprintf(f, "#\n");
    fprintf(f, "searches: %d\n", r->nroots);
    if (r->side_by_side[0]) {
        double on_devices, on_one;
        side_rates(r, ndev, &on_devices, &on_one);
        fprintf(f, "side_by_side_searches_per_s: %.6g\n",
                r->side_wall_s > 0 ? r->nroots / r->side_wall_s : 0);
        fprintf(f, "side_by_side_device_searches_per_s: %.6g (%d devices; one device: %.6g, "
                   "%.2fx)\n", on_devices, ndev, on_one, on_one > 0 ? on_devices / on_one : 0);
    }
    fprintf(f, "min_TEPS: %.6g\nfirstquartile_TEPS: %.6g\nmedian_TEPS: %.6g\n"
               "thirdquartile_TEPS: %.6g\nmax_TEPS: %.6g\nharmonic_mean_TEPS: %.6g\n",
            t.min, t.q1, t.median, t.q3, t.max, t.harmonic_mean);
    fprintf(f, "harmonic_mean_TEPS_arc: %.6g\n", tt.harmonic_mean);
    {
        bb_summary_t ts;
        bb_summarize(r->time_s, r->nroots, &ts);
        fprintf(f, "median_time_s: %.6g\nmean_time_s: %.6g\n", ts.median, ts.mean);
        bb_summarize(r->outside_s, r->nroots, &ts);   /* every search's, not the first's */
        fprintf(f, "median_outside_levels_s: %.6g\n", ts.median);
        bb_summarize(r->span_s, r->nroots, &ts);
        if (ts.max > 0) fprintf(f, "median_device_span_s: %.6g\n", ts.median);
        if (ndev > 1) {   /* its parent gather (with recomputed parents, their pass) */
            bb_summarize(r->gather_s, r->nroots, &ts);
            fprintf(f, "median_gather_s: %.6g\n", ts.median);
        }
    }
    {
        double lt, lo;
        int nsmall = small_levels(r, &lt, &lo);
        if (nsmall)
            fprintf(f, "small_levels: %d (first root, frontier <= %d)\nsmall_level_median_time_s: "
                       "%.3g\nsmall_level_median_overhead_s: %.3g\n",
                    nsmall, BB_SMALL_LEVEL, lt, lo);
    }
    fprintf(f, "bytes_per_bfs: %.0f\nmessages_per_bfs: %.1f\n", per_bfs(r->total_bytes, r->nroots),
            per_bfs(r->total_messages, r->nroots));
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++)
        fprintf(f, "bytes_per_bfs_%s: %.0f\n", boxbfs_phase_name((boxbfs_phase_t)p),
                per_bfs(r->phase_bytes[p], r->nroots));
    fprintf(f, "modeled_exchange_s_per_bfs: %.6g (%s)\n",
            r->nroots ? r->modeled_exchange_s / r->nroots : 0.0, r->opts->link_model.name);
    fprintf(f, "validation: %s\n",
            strcmp(r->validation, "passed") == 0 ? "PASS" : strcmp(r->validation, "failed") == 0 ? "FAIL" : "SKIPPED");
    if (r->sigma) bb_sigma_report_text(f, r->sigma);   /* bfs --sigma (issue #14) */
}

static void json_summary(bb_json_t *j, const char *key, const double *v, int n)
{
    bb_summary_t s;
    bb_summarize(v, n, &s);
    bb_json_begin_object(j, key);
    bb_json_double(j, "harmonic_mean", s.harmonic_mean);
    bb_json_double(j, "min", s.min);
    bb_json_double(j, "q1", s.q1);
    bb_json_double(j, "median", s.median);
    bb_json_double(j, "q3", s.q3);
    bb_json_double(j, "max", s.max);
    bb_json_end_object(j);
}

/* "links": [{src, dst, bytes[, messages]}] for every ordered pair of devices;
 * bytes and messages are ndev x ndev, row = source; messages may be NULL. */
static void json_links(bb_json_t *j, int ndev, const int64_t *bytes, const int64_t *messages)
{
    bb_json_begin_array(j, "links");
    for (int s = 0; s < ndev; s++)
        for (int d = 0; d < ndev; d++) {
            if (s == d) continue;
            bb_json_begin_object(j, NULL);
            bb_json_int(j, "src", s);
            bb_json_int(j, "dst", d);
            bb_json_int(j, "bytes", bytes[(size_t)s * ndev + d]);
            if (messages) bb_json_int(j, "messages", messages[(size_t)s * ndev + d]);
            bb_json_end_object(j);
        }
    bb_json_end_array(j);
}

int bb_report_json(FILE *f, const bb_bfs_report_t *r)
{
    const boxbfs_engine_options_t *o = r->opts;
    boxbfs_graph_t g = r->graph;
    int ndev = o->devices;
    bb_json_t j;
    bb_json_init(&j, f);
    bb_json_begin_object(&j, NULL);
    bb_json_string(&j, "command", "bfs");
    bb_json_begin_object(&j, "graph");
    bb_json_string(&j, "name", g->name);
    bb_json_int(&j, "vertices", g->n);
    bb_json_int(&j, "edges", g->input_edges);
    bb_json_int(&j, "arcs", g->arcs);
    bb_json_bool(&j, "directed", g->directed);
    bb_json_string(&j, "loaded", !r->per_process ? "whole graph"
                                 : r->sliced ? "per-rank slices" : "whole graph on every rank");
    if (r->sliced) {   /* this report is rank 0's */
        bb_json_begin_array(&j, "rank0_rows");
        bb_json_int(&j, NULL, g->row_lo);
        bb_json_int(&j, NULL, g->row_hi);
        bb_json_end_array(&j);
    }
    bb_json_end_object(&j);
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "device_count", ndev);
    if (r->devices_why[0]) bb_json_string(&j, "devices_auto", r->devices_why);   /* why ndev */
    bb_json_int(&j, "processes", boxbfs_engine_processes(r->engine));
    bb_json_begin_array(&j, "devices");
    for (int d = 0; d < ndev; d++) {
        int x;
        boxbfs_engine_t e = dev_engine(r, d, &x);
        size_t visited, mem = boxbfs_engine_memory_bytes(e, x, &visited);
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "id", d);
        bb_json_string(&j, "name", boxbfs_engine_device_name(e, x));
        bb_json_int(&j, "memory_bytes", (int64_t)mem);
        bb_json_int(&j, "visited_bytes", (int64_t)visited);
        bb_json_string(&j, "parents", boxbfs_parents_name(boxbfs_engine_parents(e, x)));
        bb_json_int(&j, "arc_bits", boxbfs_engine_arc_bits(e, x));   /* 0: not known here */
        bb_json_begin_object(&j, "arrays");   /* name: bytes */
        const char *name;
        size_t bytes;
        for (int i = 0; boxbfs_engine_device_array(e, x, i, &name, &bytes); i++)
            bb_json_int(&j, name, (int64_t)bytes);
        bb_json_end_object(&j);
        bb_json_string(&j, "dropped", boxbfs_engine_device_dropped(e, x));
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "runs");
    for (int i = 0; i < r->nroots; i++) {
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "root", boxbfs_graph_external_id(g, r->roots[i]));
        bb_json_double(&j, "time_s", r->time_s[i]);
        bb_json_double(&j, "teps", r->teps[i]);
        bb_json_double(&j, "teps_arc", r->teps_arc[i]);
        bb_json_int(&j, "levels", r->levels[i]);
        bb_json_int(&j, "reached", r->reached[i]);
        bb_json_int(&j, "input_edges", r->input_edges[i]);
        bb_json_int(&j, "bytes", r->bytes[i]);
        bb_json_double(&j, "modeled_exchange_s", r->modeled_s[i]);
        bb_json_double(&j, "gather_s", r->gather_s[i]);
        bb_json_double(&j, "levels_s", r->levels_s[i]);
        bb_json_double(&j, "outside_levels_s", r->outside_s[i]);
        bb_json_double(&j, "device_span_s", r->span_s[i]);
        if (r->validated[i] < 0) bb_json_string(&j, "validated", "skipped");
        else bb_json_bool(&j, "validated", r->validated[i]);
        if (r->root_device) bb_json_int(&j, "device", r->root_device[i]);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    json_summary(&j, "teps", r->teps, r->nroots);
    json_summary(&j, "teps_arc", r->teps_arc, r->nroots);
    json_summary(&j, "time_s", r->time_s, r->nroots);
    json_summary(&j, "outside_levels_s", r->outside_s, r->nroots);
    json_summary(&j, "device_span_s", r->span_s, r->nroots);
    bb_json_string(&j, "validation", r->validation);
    /* the levels ran on the device, no host between them (docs/architecture.md,
     * "Where a search runs") */
    bb_json_bool(&j, "device_search", boxbfs_engine_device_search(r->engine));
    bb_json_string(&j, "strategy", strategy(r));
    if (!r->side_by_side[0] && *boxbfs_engine_strategy_why(r->engine))   /* host-driven: why */
        bb_json_string(&j, "strategy_why", boxbfs_engine_strategy_why(r->engine));
    if (r->side_by_side[0]) {   /* bfs --side-by-side (docs/cli.md "Roots side by side") */
        bb_json_begin_object(&j, "side_by_side");
        bb_json_string(&j, "why", r->side_by_side);
        bb_json_double(&j, "wall_s", r->side_wall_s);
        bb_json_double(&j, "searches_per_s", r->side_wall_s > 0 ? r->nroots / r->side_wall_s : 0);
        {   /* the searches' own times, the host's work between them left out */
            double on_devices, on_one;
            side_rates(r, ndev, &on_devices, &on_one);
            bb_json_double(&j, "device_searches_per_s", on_devices);
            bb_json_double(&j, "one_device_searches_per_s", on_one);
            bb_json_double(&j, "speedup", on_one > 0 ? on_devices / on_one : 0);
        }
        bb_json_begin_array(&j, "roots_per_device");
        for (int d = 0; d < ndev; d++) bb_json_int(&j, NULL, side_roots(r, d));
        bb_json_end_array(&j);
        bb_json_end_object(&j);
    }
    /* top-down levels skip the arcs into the visited prefix (docs/architecture.md,
     * "The visited-prefix skip") */
    bb_json_bool(&j, "prefix_skip", boxbfs_engine_prefix_skip(r->engine));
    {   /* hubs split by destination (docs/architecture.md, "Hubs split by destination") */
        int64_t degree = 0, hubs = boxbfs_engine_hubs(r->engine, &degree);
        bb_json_begin_object(&j, "hubs");
        bb_json_int(&j, "count", hubs);
        bb_json_int(&j, "degree", degree);
        bb_json_end_object(&j);
    }
    /* the wire that ran: options.wire is what was asked (docs/cli.md, "Memory plan") */
    bb_json_string(&j, "wire", boxbfs_wire_name(boxbfs_engine_wire(r->engine)));
    if (r->relabel) bb_json_double(&j, "relabel_s", r->relabel_s);   /* before the searches */
    bb_json_string(&j, "built_on", g->on_devices ? "devices" : "host");
    if (g->on_devices) bb_json_double(&j, "build_s", r->build_s);   /* with the devices' setup */
    bb_json_double(&j, "check_s", r->check_s);   /* the trees' checks: not in any search */
    bb_json_begin_object(&j, "traffic");
    bb_json_int(&j, "searches", r->nroots);
    bb_json_int(&j, "total_bytes", r->total_bytes);
    bb_json_int(&j, "total_messages", r->total_messages);
    bb_json_double(&j, "bytes_per_bfs", per_bfs(r->total_bytes, r->nroots));
    json_links(&j, ndev, r->link_bytes, r->link_messages);
    bb_json_int(&j, "levels_root", r->nroots ? boxbfs_graph_external_id(g, r->roots[0]) : -1);
    bb_json_begin_array(&j, "levels");
    for (int l = 0; l < r->first_nlevels; l++) {
        const boxbfs_level_report_t *L = &r->first_levels[l];
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "level", L->level);
        bb_json_string(&j, "direction",
                       boxbfs_search_direction_name((boxbfs_search_direction_t)L->direction));
        bb_json_bool(&j, "device_loop", L->device_loop);
        bb_json_int(&j, "frontier", L->frontier);
        bb_json_int(&j, "frontier_arcs", L->frontier_arcs);
        bb_json_int(&j, "unexplored_arcs", L->unexplored_arcs);
        bb_json_int(&j, "sent_vertices", L->sent_vertices);
        bb_json_int(&j, "undone_vertices", L->undone_vertices);
        bb_json_int(&j, "bytes", L->bytes);
        bb_json_int(&j, "messages", L->messages);
        bb_json_int(&j, "bitmap_messages", L->bitmap_messages);
        bb_json_double(&j, "time_s", L->time_s);
        bb_json_double(&j, "expand_s", L->expand_s);
        bb_json_double(&j, "contract_s", L->contract_s);
        bb_json_double(&j, "exchange_s", L->exchange_s);
        bb_json_double(&j, "update_s", L->update_s);
        bb_json_double(&j, "overhead_s", L->overhead_s);
        bb_json_double(&j, "modeled_exchange_s", L->modeled_exchange_s);
        json_links(&j, ndev, r->first_level_links + (size_t)l * ndev * ndev, NULL);
        bb_json_begin_array(&j, "devices");   /* each device's part: imbalance */
        for (int d = 0; d < ndev; d++) {
            const boxbfs_level_device_t *D = &r->first_level_devices[(size_t)l * ndev + d];
            bb_json_begin_object(&j, NULL);
            bb_json_int(&j, "frontier", D->frontier);
            bb_json_double(&j, "expand_s", D->expand_s);
            bb_json_double(&j, "contract_s", D->contract_s);
            bb_json_double(&j, "exchange_s", D->exchange_s);
            bb_json_double(&j, "update_s", D->update_s);
            bb_json_end_object(&j);
        }
        bb_json_end_array(&j);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    {   /* the fixed cost of a level: levels of the first root with small frontiers */
        double lt, lo;
        int nsmall = small_levels(r, &lt, &lo);
        bb_json_begin_object(&j, "small_levels");
        bb_json_int(&j, "max_frontier", BB_SMALL_LEVEL);
        bb_json_int(&j, "count", nsmall);
        bb_json_double(&j, "median_time_s", lt);
        bb_json_double(&j, "median_overhead_s", lo);
        bb_json_end_object(&j);
    }
    bb_json_begin_object(&j, "phases");
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++)
        bb_json_int(&j, boxbfs_phase_name((boxbfs_phase_t)p), r->phase_bytes[p]);
    bb_json_end_object(&j);
    bb_json_begin_object(&j, "phase_messages");
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++)
        bb_json_int(&j, boxbfs_phase_name((boxbfs_phase_t)p), r->phase_messages[p]);
    bb_json_end_object(&j);
    bb_json_double(&j, "modeled_exchange_s", r->modeled_exchange_s);
    bb_json_double(&j, "modeled_exchange_s_per_bfs", r->nroots ? r->modeled_exchange_s / r->nroots : 0);
    bb_json_begin_object(&j, "link_model");
    bb_json_string(&j, "name", o->link_model.name);
    bb_json_double(&j, "bandwidth_Bps", o->link_model.bandwidth_Bps);
    bb_json_double(&j, "latency_s", o->link_model.latency_s);
    bb_json_end_object(&j);
    bb_json_end_object(&j);
    bb_json_begin_object(&j, "options");
    bb_json_string(&j, "graph", r->graph_spec);
    bb_json_string(&j, "backend", boxbfs_backend_name(o->backend));
    bb_json_int(&j, "devices", ndev);
    bb_json_string(&j, "contract", boxbfs_contract_name(o->contract));
    bb_json_string(&j, "visited", boxbfs_visited_name(o->visited));
    bb_json_string(&j, "wire", boxbfs_wire_name(o->wire));
    bb_json_string(&j, "parents", boxbfs_parents_name(o->parents));
    bb_json_string(&j, "exchange", boxbfs_exchange_name(o->exchange));
    bb_json_string(&j, "expand", boxbfs_expand_name(o->expand));
    if (o->expand_edges_per_thread == 0) bb_json_string(&j, "expand_k", "auto");
    else bb_json_int(&j, "expand_k", o->expand_edges_per_thread);
    bb_json_int(&j, "expand_f0", o->expand_f0);
    bb_json_int(&j, "arcs64_from", o->arcs64_from);
    bb_json_string(&j, "link_model", o->link_model.name);
    bb_json_bool(&j, "throttle", o->throttle);
    bb_json_string(&j, "order", o->order == BOXBFS_ORDER_TOPOLOGY ? "topology" : "given");
    bb_json_string(&j, "direction", boxbfs_search_direction_name(o->direction));
    bb_json_double(&j, "alpha", alpha_run(r));
    bb_json_double(&j, "beta", o->beta);
    bb_json_int(&j, "max_depth", o->max_depth);
    bb_json_bool(&j, "reverse", r->reverse);
    bb_json_string(&j, "relabel", r->relabel ? "degree" : "none");
    bb_json_string(&j, "relabel_asked", r->relabel_auto ? "auto" : r->relabel ? "degree" : "none");
    if (r->relabel) bb_json_int(&j, "relabel_stripes", r->stripes);
    bb_json_int(&j, "device_loop_arcs", o->device_loop_arcs);
    bb_json_string(&j, "search_on", boxbfs_search_on_name(o->search_on));
    bb_json_string(&j, "side_by_side", r->side_asked == BB_SIDE_ON    ? "on"
                                       : r->side_asked == BB_SIDE_OFF ? "off"
                                                                      : "auto");
    bb_json_bool(&j, "prefix_skip", boxbfs_engine_prefix_skip(r->engine));   /* BOXBFS_PREFIX_SKIP */
    if (o->hub_degree < 0) bb_json_string(&j, "hub_degree", "auto");
    else bb_json_int(&j, "hub_degree", o->hub_degree);
    bb_json_int(&j, "roots", r->nroots);
    bb_json_bool(&j, "validate", r->validate);
    bb_json_int(&j, "memory_limit", (int64_t)o->device_memory_limit);
    bb_json_string(&j, "partition", boxbfs_partition_name(o->partition));
    if (o->partition == BOXBFS_PARTITION_2D) {
        bb_json_int(&j, "grid_rows", o->grid_rows);
        bb_json_int(&j, "grid_cols", o->grid_cols);
    }
    bb_json_end_object(&j);
    bb_json_provenance(&j);
    if (r->sigma) bb_sigma_report_json(&j, r->sigma);   /* bfs --sigma (issue #14) */
    bb_json_end_object(&j);
    return bb_json_finish(&j);
}

int bb_report_traffic_csv(FILE *f, const bb_bfs_report_t *r)
{
    int ndev = r->opts->devices;
    fprintf(f, "kind,src,dst,level,phase,bytes,messages,frontier,sent_vertices,modeled_exchange_s,"
               "direction\n");
    for (int s = 0; s < ndev; s++)
        for (int d = 0; d < ndev; d++)
            if (s != d)
                fprintf(f, "link,%d,%d,,,%lld,%lld,,,,\n", s, d,
                        (long long)r->link_bytes[(size_t)s * ndev + d],
                        (long long)r->link_messages[(size_t)s * ndev + d]);
    for (int l = 0; l < r->first_nlevels; l++) {
        const boxbfs_level_report_t *L = &r->first_levels[l];
        fprintf(f, "level,,,%d,,%lld,%lld,%lld,%lld,%.9g,%s\n", L->level, (long long)L->bytes,
                (long long)L->messages, (long long)L->frontier, (long long)L->sent_vertices,
                L->modeled_exchange_s,
                boxbfs_search_direction_name((boxbfs_search_direction_t)L->direction));
    }
    for (int l = 0; l < r->first_nlevels; l++)
        for (int s = 0; s < ndev; s++)
            for (int d = 0; d < ndev; d++)
                if (s != d)
                    fprintf(f, "level_link,%d,%d,%d,,%lld,,,,,\n", s, d, l,
                            (long long)r->first_level_links[((size_t)l * ndev + s) * ndev + d]);
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++)
        fprintf(f, "phase,,,,%s,%lld,%lld,,,,\n", boxbfs_phase_name((boxbfs_phase_t)p),
                (long long)r->phase_bytes[p], (long long)r->phase_messages[p]);
    return ferror(f) ? -1 : 0;
}
