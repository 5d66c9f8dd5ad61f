/* The boxbfs command-line tool: subcommands, option parsing helpers, the JSON
 * writer, TEPS statistics, text reports and progress output.
 * Exit codes: 0 ok, 1 usage or bad input, 2 validation failed, 3 runtime or
 * device failure. Results go to stdout, diagnostics to stderr. */
#ifndef BB_CLI_H
#define BB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "boxbfs.h"

enum { BB_EXIT_OK = 0, BB_EXIT_USAGE = 1, BB_EXIT_VALIDATION = 2, BB_EXIT_RUNTIME = 3 };

int bb_cmd_bfs(int argc, char **argv);
int bb_cmd_gen(int argc, char **argv);
int bb_cmd_convert(int argc, char **argv);
int bb_cmd_info(int argc, char **argv);
int bb_cmd_topo(int argc, char **argv);
int bb_cmd_bc(int argc, char **argv);
int bb_cmd_msbfs(int argc, char **argv);   /* concurrent multi-source BFS (cmd_msbfs.c) */

/* "boxbfs: <library message>" on stderr (the CLI's own, when bb_cli_status
 * set one since); returns the exit code for status (1 for
 * INVALID_ARG/IO/PARSE, 2 for VALIDATION, 3 otherwise). */
int bb_cli_fail(boxbfs_status_t status);
/* "boxbfs: <printf message>" on stderr. */
void bb_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A failure of the CLI's own (a file it writes): keeps the message for the
 * next bb_cli_fail and returns status. The CLI links libboxbfs.so, which
 * exports only the public boxbfs_* functions: CLI code calls no bb_*
 * function of the library (bb_error_set, bb_malloc, BB_INFO: use
 * bb_cli_status, malloc, boxbfs_log); static inline helpers and struct
 * fields of the internal headers are fine. */
boxbfs_status_t bb_cli_status(boxbfs_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Option parsing: strict integers ("12", no junk, in [min, max]). */
int bb_parse_i64(const char *text, int64_t min, int64_t max, int64_t *value_p);
/* A finite positive number ("15", "0.5", "1e3"); no junk, no NaN or inf. */
int bb_parse_positive(const char *text, double *value_p);
/* --name=value or --name value; returns the value or NULL when argv[*i] is
 * not this option; with "--name value" leaves *i on the value (the caller's
 * loop steps past it). Sets *missing_p when the
 * option is there but its value is not. */
const char *bb_opt_value(int argc, char **argv, int *i, const char *name, int *missing_p);
/* 1 when arg is --directed or --undirected (*direction_p set), else 0. */
int bb_opt_direction(const char *arg, boxbfs_direction_t *direction_p);
/* 1 when s ends in suffix. */
int bb_ends_with(const char *s, const char *suffix);
/* "boxbfs: COMMAND: <printf message>" and "Try 'boxbfs COMMAND --help'." on
 * stderr; returns BB_EXIT_USAGE. */
int bb_cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The command line of gen, convert and info: up to two positional arguments
 * ("-" is one; after "--" all are), --help/-h, --directed or --undirected,
 * --threads N in [0, 65536] and, where the command takes it, --json FILE. */
typedef struct {
    const char *command;     /* "gen": errors read "boxbfs: gen: ..." */
    const char *usage;       /* --help prints it on stdout */
    int max_positional;      /* 1 or 2 */
    const char *too_many;    /* follows "unexpected argument 'X': " */
    int takes_json;
} bb_load_cmd_t;
typedef struct {
    boxbfs_load_options_t load;
    const char *positional[2];   /* NULL where not given */
    const char *json;            /* NULL where not given */
} bb_load_args_t;
/* bb_cli_parse_load_args returns this when the command goes on. */
enum { BB_ARGS_GO_ON = -1 };
/* Returns BB_ARGS_GO_ON with *args_p filled in, or the exit code to return
 * now: BB_EXIT_OK after --help, BB_EXIT_USAGE after a usage error (printed). */
int bb_cli_parse_load_args(const bb_load_cmd_t *cmd, int argc, char **argv,
                           bb_load_args_t *args_p);
/* A note on stderr when a direction was asked for but spec is a .bbcsr file,
 * which records its own. */
void bb_cli_note_direction(const char *spec, const boxbfs_load_options_t *opts);
/* boxbfs_graph_load, showing "VERB SPEC" and the elapsed time on a terminal. */
boxbfs_status_t bb_cli_load_graph(const char *verb, const char *spec,
                                  const boxbfs_load_options_t *opts, boxbfs_graph_t *graph_p);

/* --relabel degree: *graph_p replaced by its copy numbered by degree in
 * stripes (boxbfs_graph_relabel_by_degree), the count internal ids in ids
 * mapped to the same vertices of the copy, the time it took in *seconds_p.
 * Refuses a slice (usage error). Returns 0 or the exit code, after a message. */
int bb_cli_relabel(boxbfs_graph_t *graph_p, int stripes, int64_t *ids, int64_t count,
                   double *seconds_p);
/* --relabel auto (bfs's default): relabel where the graph is whole, has more
 * than BB_RELABEL_MIN_VERTICES vertices and the 1 % of its vertices of highest
 * out-degree hold at least BB_RELABEL_MIN_SHARE of its arcs (Kronecker graphs:
 * more than half; road networks: a few percent). Returns 1 when it pays, with
 * that share in *share_p (0 where it was not computed). docs/performance.md
 * "Defaults" gives the figures behind it. */
#define BB_RELABEL_MIN_VERTICES (INT64_C(1) << 20)
#define BB_RELABEL_MIN_SHARE 0.2
int bb_cli_relabel_pays(boxbfs_graph_t g, double *share_p);
/* The internal id of the i-th vertex in the input's order (per-vertex files
 * keep that order, relabeled or not). */
int64_t bb_cli_input_vertex(boxbfs_graph_t g, int64_t i);

/* Load spec and write it to out (gen, convert): a binary CSR when out ends in
 * .bbcsr, else an edge list ("-": stdout), replacing a regular out only once
 * complete. Says "boxbfs: COMMAND: NAME -> OUT: ..." on stderr; generate
 * makes the messages say generating/generated. Returns the exit code. */
int bb_cli_write_graph(const char *command, const char *spec, const char *out,
                       const boxbfs_load_options_t *opts, int generate);

/* An output file written whole or not at all (--output, --json,
 * --traffic-csv): a regular path, or one not there yet, is written under a
 * temporary name next to it, renamed into place by bb_outfile_commit and
 * removed by bb_outfile_discard, so a failed run leaves no partial file; "-"
 * is stdout, devices and pipes are written in place. open and commit return
 * 0, or -1 with the message printed; every open is ended by one of the two. */
typedef struct {
    const char *path;
    char *tmp;   /* NULL: written in place */
    FILE *f;
} bb_outfile_t;
int bb_outfile_open(bb_outfile_t *o, const char *path);
int bb_outfile_commit(bb_outfile_t *o);
void bb_outfile_discard(bb_outfile_t *o);

/* JSON writer: pretty enough to read, strict enough to parse. */
typedef struct {
    FILE *f;
    int depth;
    int first[64];   /* per depth: no element written yet */
    int in_key;      /* a key was just written: the value needs no comma */
} bb_json_t;

void bb_json_init(bb_json_t *j, FILE *f);
void bb_json_begin_object(bb_json_t *j, const char *key);   /* key NULL inside arrays / at top */
void bb_json_end_object(bb_json_t *j);
void bb_json_begin_array(bb_json_t *j, const char *key);
void bb_json_end_array(bb_json_t *j);
void bb_json_string(bb_json_t *j, const char *key, const char *value);
void bb_json_int(bb_json_t *j, const char *key, int64_t value);
void bb_json_double(bb_json_t *j, const char *key, double value);   /* NaN/inf -> null */
void bb_json_bool(bb_json_t *j, const char *key, int value);
/* Ends the document with a newline; returns 0, or -1 if any write failed. */
int bb_json_finish(bb_json_t *j);
/* What every results JSON records of its making: "version", "commit" and
 * "date" (UTC, now). */
void bb_json_provenance(bb_json_t *j);

/* Statistics over per-root values (Graph500 output). */
typedef struct {
    double harmonic_mean, min, q1, median, q3, max, mean, stddev;
} bb_summary_t;
/* values are not modified; n >= 1. Quartiles by linear interpolation
 * between order statistics (as the Graph500 reference code). */
void bb_summarize(const double *values, int n, bb_summary_t *s);
/* The spread of the devices' busy times (msbfs, bc): the busiest minus the
 * least busy, in *spread_s_p, and as a fraction of the busiest in
 * *fraction_p (0 when no device was busy); n >= 1. */
void bb_busy_spread(const double *busy_s, int n, double *spread_s_p, double *fraction_p);

/* Progress on stderr, only when stderr is a terminal: "label  i/n  ETA". */
typedef struct {
    const char *label;
    int64_t total;
    double t0, last;
    int enabled;
} bb_progress_t;
void bb_progress_start(bb_progress_t *p, const char *label, int64_t total);
void bb_progress_update(bb_progress_t *p, int64_t done);
void bb_progress_end(bb_progress_t *p);
/* Around one long call whose progress is unknown (a graph load): a thread
 * redraws p's elapsed time twice a second until bb_progress_tick_stop, on a
 * terminal only (elsewhere nothing is started). */
typedef struct {
    bb_progress_t *p;
    int running;
    void *thread;   /* pthread_t, opaque here */
    void *sync;     /* the stop flag's lock and condition */
} bb_progress_tick_t;
void bb_progress_tick_start(bb_progress_tick_t *t, bb_progress_t *p);
void bb_progress_tick_stop(bb_progress_tick_t *t);

/* Graph500 root choice (roots.c), for bfs --roots and msbfs --sources: the
 * vertices with at least one out-arc, and min(want, that many) distinct ones
 * drawn from seed into *roots_p (caller frees). Returns 0 or the exit code
 * after printing the error (no vertex has an edge: 1; out of memory: 3). */
int64_t bb_cli_root_candidates(boxbfs_graph_t g);
int bb_cli_random_roots(boxbfs_graph_t g, int want, uint64_t seed, int64_t **roots_p, int *count_p);

/* Git commit the binary was built from ("unknown" if not in a checkout). */
const char *bb_build_commit(void);

/* Command-line options of `boxbfs bfs` (src/cli/bfs_args.c). */
typedef struct {
    const char *spec, *output, *json, *traffic_csv;
    boxbfs_load_options_t load;
    boxbfs_engine_options_t eo;
    int backend_given, devices_given, validate, nroots;
    int whole_graph;        /* --whole-graph: every MPI rank loads the whole graph */
    int build_on_devices;   /* --build-on devices: a kron: graph's rows made on the devices */
    int reverse;            /* --reverse: search the graph with its arcs turned around */
    int relabel;            /* --relabel: 0 none, 1 degree (a copy numbered by degree),
                               2 auto (degree where bb_cli_relabel_pays: the default) */
    int grid_given, direction_given;   /* --grid, --direction (docs/architecture.md, 2D) */
    int64_t *given_roots;   /* external ids */
    int ngiven;
    uint64_t seed;
    int device_ids[64];
    boxbfs_links_t links;   /* --link-model FILE or a description-only built-in */
    /* --sigma FILE (issue #14): shortest-path counts from the first root */
    const char *sigma;
    int sigma_algorithm, sigma_algorithm_given;   /* 0 frontier, 1 spmv */
    int sigma_spmv, sigma_spmv_given;             /* bb_spmv_t */
    int side_by_side;       /* --side-by-side: BB_SIDE_AUTO, _ON, _OFF (side_by_side.c) */
    /* --devices auto (the default on GPUs): the count comes from the graph's
     * arcs (boxbfs_devices_auto) among devices_all, and roots side by side
     * take all of them */
    int devices_auto, devices_all;
} bb_bfs_args_t;
enum { BB_SIDE_AUTO, BB_SIDE_ON, BB_SIDE_OFF };

/* Parse argv into *a (defaults already set by the caller); --help prints the
 * usage and exits 0. Also refuses what an MPI launcher with several processes
 * cannot run. Returns 0, or -1 after printing what is wrong. */
int bb_bfs_parse_args(int argc, char **argv, bb_bfs_args_t *a);

/* Everything `boxbfs bfs` measured, for the text, JSON and CSV reports. */
typedef struct {
    boxbfs_graph_t graph;
    boxbfs_engine_t engine;
    const boxbfs_engine_options_t *opts;
    int nroots;
    int64_t *roots;              /* internal ids */
    double *time_s, *teps, *teps_arc, *modeled_s;
    double *gather_s;            /* the parent gather's part of time_s */
    double *levels_s;            /* the sum of the search's level times */
    double *outside_s;           /* time_s less levels_s: outside the levels (setup, launch,
                                  * closing) */
    double *span_s;              /* the device search's own time (0: host-driven levels) */
    int64_t *levels, *reached, *bytes, *input_edges;
    int *validated;              /* 1 passed, 0 failed, -1 skipped */
    const char *validation;      /* "passed", "failed", "skipped" */
    /* traffic summed over all searches */
    int64_t *link_bytes, *link_messages;   /* devices x devices */
    int64_t phase_bytes[BOXBFS_PHASE_COUNT], phase_messages[BOXBFS_PHASE_COUNT];
    int64_t total_bytes, total_messages;
    double modeled_exchange_s;
    /* the first root's per-level table */
    boxbfs_level_report_t *first_levels;
    int64_t *first_level_links;  /* first_nlevels x devices x devices */
    boxbfs_level_device_t *first_level_devices;   /* first_nlevels x devices */
    int first_nlevels;
    /* options as given, for the report */
    const char *graph_spec;
    int validate;
    int per_process;             /* one device per MPI rank (--exchange mpi, nccl under mpirun) */
    int reverse;                 /* the graph searched is the input's reverse */
    int relabel;                 /* ... numbered by degree, with stripes of it */
    int relabel_auto;            /* --relabel auto chose (relabel or not) */
    double relabel_share;        /* auto: the arcs' share of the top 1 % of vertices */
    int stripes;
    double relabel_s;            /* the time relabel took (not in any search's) */
    double build_s;              /* --build-on devices: the engine's setup, the rows built */
    double check_s;              /* the trees' checks, all roots (validation, or the counts) */
    int sliced;                  /* per_process: each rank loaded its slice */
    const struct bb_sigma_summary *sigma;   /* --sigma: its search, else NULL */
    /* roots side by side (side_by_side.c): why they ran so (empty: they did
     * not), the device that ran each root, the wall time of the searches */
    char side_by_side[160];
    int *root_device;
    double side_wall_s;
    boxbfs_engine_t *side_engines;   /* one per device (engine: the first) */
    int side_asked;                  /* --side-by-side: BB_SIDE_* */
    char devices_why[200];           /* --devices auto: why this count (empty: given) */
} bb_bfs_report_t;

/* One worker's state over its roots (cmd_bfs.c bb_bfs_root): the result
 * arrays of one tree and what went wrong. */
typedef struct {
    int64_t *parent;
    int32_t *level;
    int failed, output_failed;   /* a tree failed validation; --output failed */
    double search_s, check_s;    /* BOXBFS_LOG=info: where the time went */
} bb_bfs_worker_t;

/* Root i's timed search on engine e and its tree's check, into the report's
 * row i (and root 0's level table and --output); dev: the device that runs
 * it where the roots run side by side (e has that one device), else -1.
 * Returns 0 or an exit code (the error printed). */
int bb_bfs_root(const bb_bfs_args_t *a, bb_bfs_report_t *r, boxbfs_engine_t e, int dev, int i,
                bb_outfile_t *output, bb_bfs_worker_t *w);

/* Roots side by side (side_by_side.c; docs/cli.md "Roots side by side"):
 * after the warm-up search of levels levels on r->engine, whether the roots
 * run side by side, one whole-graph device search per device: 1 (the
 * reason in r->side_by_side), 0, or -1 after printing why --side-by-side
 * on cannot. Where --devices auto chose fewer devices than a->devices_all
 * and auto picks roots side by side, a->eo.devices becomes all of them. */
int bb_side_by_side_pick(bb_bfs_args_t *a, bb_bfs_report_t *r, int levels);
/* Replaces r->engine by one single-device engine per device (into
 * r->side_engines, the caller frees them) and runs every root on the device
 * that comes free first. Returns 0 or an exit code. */
int bb_side_by_side_run(const bb_bfs_args_t *a, bb_bfs_report_t *r, bb_outfile_t *output,
                        bb_bfs_worker_t *total);

void bb_report_text(FILE *f, const bb_bfs_report_t *r);
/* Returns 0, or -1 when writing failed. */
int bb_report_json(FILE *f, const bb_bfs_report_t *r);
int bb_report_traffic_csv(FILE *f, const bb_bfs_report_t *r);

/* bfs --sigma (src/cli/cmd_bc.c): the counts' search from the first root
 * (boxbfs_sigma_run) after the engine's searches. */
typedef struct bb_sigma_summary {
    const char *file, *algorithm, *spmv, *direction, *validation;
    double time_s, teps;
    int64_t input_edges, reached;
    int32_t levels;
    int bottom_up_levels, overflow, devices;
    int64_t *link_bytes;                 /* devices x devices */
    int64_t pair_bytes, size_bytes, termination_bytes, messages;
} bb_sigma_summary_t;
/* Runs the counts for r->roots[0] and writes a->sigma; fills *s (link_bytes
 * allocated). Returns the exit code. */
int bb_sigma_run(const bb_bfs_args_t *a, boxbfs_graph_t g, int64_t root, bb_sigma_summary_t *s);
void bb_sigma_report_text(FILE *f, const bb_sigma_summary_t *s);
void bb_sigma_report_json(bb_json_t *j, const bb_sigma_summary_t *s);

#endif /* BB_CLI_H */
