/* Command-line options of `boxbfs bfs`: usage text, strict parsing of every
 * option into the engine options, and clear errors for bad values. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static void bfs_usage(FILE *f)
{
    fprintf(f,
        "usage: boxbfs bfs [GRAPH] [options]\n"
        "  GRAPH                  kron:SCALE[:EDGEFACTOR[:SEED]] (default kron:20), .mtx, SNAP, .bbcsr, .gz\n"
        "  --directed | --undirected   how to read a file (default: the format's own)\n"
        "  --roots N              random roots with non-zero degree (default 64)\n"
        "  --root V               search from V (an id of the input file); repeatable\n"
        "  --seed S               seed of the root choice (default 1)\n"
        "  --no-validate          skip the Graph500 validation (on by default)\n"
        "  --output FILE          'vertex level parent' per vertex for the first root\n"
        "  --json FILE            machine-readable report ('-' = stdout)\n"
        "  --traffic-csv FILE     traffic per link, level and phase as CSV\n"
        "  --backend cpu|cuda     default: cuda when a GPU is present, else cpu\n"
        "  --devices auto|N       devices; auto (default on GPUs): as many as the graph's arcs\n"
        "                         pay for, 2^27 arcs a device (all of them for roots side by\n"
        "                         side); the cpu backend emulates 2 unless asked\n"
        "  --device-ids A,B,...   which GPUs (cuda)\n"
        "  --contract sort-unique|valid-flag|atomic   frontier contraction (default atomic;\n"
        "                         the papers' valid-flag [003] and sort-unique [004] on request)\n"
        "  --visited byte|bit     Visited array layout (default bit; byte: the paper's)\n"
        "  --wire list|bitmap|auto     frontier wire format (default list)\n"
        "  --exchange peer|host|mpi|nccl   left-right peer copies, staged through host\n"
        "                         memory, one device per MPI rank (mpirun -np N; built\n"
        "                         --with-mpi), or NCCL send/recv between the GPUs (built with NCCL;\n"
        "                         under mpirun: one GPU per process, built --with-mpi too)\n"
        "  --direction auto|top-down|bottom-up   direction of each level's step (default auto:\n"
        "                         Beamer's direction-optimizing rule, the same on every backend)\n"
        "  --alpha A              auto: bottom-up once the frontier's arcs x A exceed the arcs\n"
        "                         not yet explored (default 40 on one device, else 15)\n"
        "  --beta B               auto: back to top-down once the frontier stops growing and\n"
        "                         holds fewer than vertices / B (default 18)\n"
        "  --max-depth K          stop after K levels: vertices deeper than K stay unreached\n"
        "  --reverse              follow the arcs of a directed graph against their direction\n"
        "  --relabel none|degree|auto   search a copy numbered by decreasing degree, hubs first\n"
        "                         (one range per device; ids in the output stay the input's; its\n"
        "                         time is construction, not search); auto (default): degree where\n"
        "                         the graph has > 2^20 vertices and the top 1%% by degree hold\n"
        "                         >= 20%% of the arcs (Kronecker, social), none elsewhere (roads)\n"
        "  --device-loop ARCS     top-down levels of at most ARCS frontier arcs run inside one\n"
        "                         kernel launch per device, without the host (default 16384; 0: off)\n"
        "  --hub-degree auto|off|D   search across devices: vertices of at least D out-arcs (hubs)\n"
        "                         have their rows split by the devices the arcs lead to, and a big\n"
        "                         top-down level expands each hub on every device into its own\n"
        "                         range; auto (default): D = 1024, doubled until <= 262144 hubs\n"
        "  --expand auto|binsearch|mergepath   GPU expand load balancing (default binsearch)\n"
        "  --expand-k K           GPU expand: edges per thread, auto (default: 2, 4 or 8 per\n"
        "                         level from its arcs), 1, 2, 4, 8 or 16\n"
        "  --expand-f0 F          auto expand: merge path above F arcs per frontier vertex (10)\n"
        "  --build-on host|devices   kron: graphs: built on the host (default), or each device\n"
        "                         generates, merges and sorts its own rows (undirected, 1d, one\n"
        "                         process, --relabel none; the graph never sits in host memory)\n"
        "  --arcs64-from ARCS     a device of at least ARCS arcs indexes them with 64 bits (its\n"
        "                         expand by binary search); default 2^32, the 32-bit kernels'\n"
        "                         limit; lower it to run the 64-bit path on a small graph\n"
        "  --link-model NAME|BW,LAT|FILE|measured   nvlink4 (default), pcie3x16, pcie4x16,\n"
        "                         pcie5x16, expether-2x10g, expether-2x10g-shared, e.g. 25GB/s,5us,\n"
        "                         a link description file, or measured (probed at start)\n"
        "  --throttle             pace every copy (nccl, mpi: every round) to the link model\n"
        "  --order given|topology left-right ring order: as given, or fastest links adjacent\n"
        "  --memory-limit BYTES   pretend each device has at most this much free memory\n"
        "  --parents auto|keep|recompute   parents of vertices found for another device: kept\n"
        "                         during the search (4 bytes per vertex outside the device's\n"
        "                         range), or recomputed after it by a pass over the device's arcs;\n"
        "                         auto (default): kept where the memory plan fits, per device\n"
        "  --search-on auto|device|host   where a search runs: on the devices without the host\n"
        "                         between levels (one device, or several that meet in each other's\n"
        "                         memory: --contract atomic, --exchange peer with peer access), or\n"
        "                         host-driven levels; auto (default): on the devices where it can\n"
        "  --side-by-side auto|on|off   on: every device holds the whole graph and runs whole\n"
        "                         searches, the roots handed to the device that comes free first\n"
        "                         (a search takes one device's time; the devices search side by\n"
        "                         side); off: every search spans the devices; auto (default): on\n"
        "                         where the warm-up search ran more than 256 levels (a road\n"
        "                         network's levels are too small to split) on distinct GPUs\n"
        "  --threads N            generator/loader threads (default: all CPUs)\n"
        "  --whole-graph          one device per MPI rank: every rank loads the whole graph (default:\n"
        "                         each rank loads only its rows from kron: or a .bbcsr file)\n"
        "  --partition 1d|2d      1d (default): vertex ranges; 2d: R x C grid, each device holds one\n"
        "                         block of the matrix, expand in grid columns, fold in grid rows\n"
        "                         (docs/architecture.md, \"2D partition\")\n"
        "  --grid RxC             2d: the grid (R x C = devices; default the squarest, R >= C)\n"
        "  --sigma FILE           also count shortest paths from the first root: 'vertex level sigma'\n"
        "                         per vertex (exact 64-bit; in double where a count overflows)\n"
        "  --algorithm frontier|spmv   how --sigma searches: counts travel with the frontier (default,\n"
        "                         any device count) or TurboBFS's masked SpMV (one device)\n"
        "  --spmv csc-scalar|csc-vector|cooc   spmv variant (default csc-vector); --direction picks\n"
        "                         its top-down, bottom-up or the switch at 10%% frontier density\n");
}

static int parse_enum(const char *opt, const char *value, const char *const *names, int count,
                      int *out)
{
    for (int i = 0; i < count; i++)
        if (strcmp(value, names[i]) == 0) {
            *out = i;
            return 0;
        }
    bb_cli_error("%s: unknown value '%s' (see boxbfs bfs --help)", opt, value);
    return -1;
}

static int parse_device_ids(bb_bfs_args_t *a, const char *v)
{
    int n = 0;
    const char *p = v;
    while (*p) {
        char *end;
        long id;
        errno = 0;
        id = strtol(p, &end, 10);
        if (end == p || errno || id < 0 || id > 1023 || n == 64 || (*end && *end != ',')) {
            bb_cli_error("--device-ids: bad list '%s' (comma-separated GPU numbers)", v);
            return -1;
        }
        a->device_ids[n++] = (int)id;
        p = *end ? end + 1 : end;
    }
    if (n == 0) {
        bb_cli_error("--device-ids: empty list");
        return -1;
    }
    a->eo.device_ids = a->device_ids;
    if (!a->devices_given) a->eo.devices = n;
    a->devices_given = 1;
    return 0;
}

#ifdef BB_HAVE_MPI
static const int have_mpi = 1;
#else
static const int have_mpi = 0;
#endif
#ifdef BB_HAVE_NCCL
static const int have_nccl = 1;
#else
static const int have_nccl = 0;
#endif

/* Started by an MPI launcher with several processes: only the exchanges
 * with one device per process make sense, and nccl across processes needs
 * MPI built in (before anything is loaded: a slice needs MPI too). */
static int check_launcher(const bb_bfs_args_t *a)
{
    int procs = boxbfs_mpi_launched_processes();
    if (procs <= 1) return 0;
    if (a->eo.exchange != BOXBFS_EXCHANGE_MPI && a->eo.exchange != BOXBFS_EXCHANGE_NCCL) {
        /* every process would run the same whole search on its own */
        bb_cli_error("an MPI launcher started %d processes, but --exchange %s runs in one "
                     "process: use --exchange mpi (cpu backend) or nccl (GPUs), or start one "
                     "process", procs, boxbfs_exchange_name(a->eo.exchange));
        return -1;
    }
    if (!have_mpi) {
        bb_cli_error("an MPI launcher started %d processes, but boxbfs was built without MPI: "
                     "--exchange nccl across processes needs a build --with-mpi (or start one "
                     "process: it drives every GPU)", procs);
        return -1;
    }
    return 0;
}

/* --partition 2d: --grid RxC sets the device count when
 * --devices is absent and must match it when given. */
static int check_partition(bb_bfs_args_t *a)
{
    if (a->eo.partition != BOXBFS_PARTITION_2D) {
        if (a->grid_given) {
            bb_cli_error("--grid %dx%d applies to --partition 2d only", a->eo.grid_rows,
                         a->eo.grid_cols);
            return -1;
        }
        return 0;
    }
    if (!a->grid_given) return 0;
    if (a->devices_given && a->eo.devices != a->eo.grid_rows * a->eo.grid_cols) {
        bb_cli_error("--grid %dx%d needs %d devices, but --devices is %d", a->eo.grid_rows,
                     a->eo.grid_cols, a->eo.grid_rows * a->eo.grid_cols, a->eo.devices);
        return -1;
    }
    if (a->eo.grid_rows * a->eo.grid_cols > 1024) {
        bb_cli_error("--grid %dx%d: %d devices, at most 1024", a->eo.grid_rows, a->eo.grid_cols,
                     a->eo.grid_rows * a->eo.grid_cols);
        return -1;
    }
    a->eo.devices = a->eo.grid_rows * a->eo.grid_cols;
    a->devices_given = 1;
    return 0;
}

int bb_bfs_parse_args(int argc, char **argv, bb_bfs_args_t *a)
{
    static const char *const backends[] = {"cpu", "cuda"};
    static const char *const contracts[] = {"sort-unique", "valid-flag", "atomic"};
    static const char *const visiteds[] = {"byte", "bit"};
    static const char *const wires[] = {"list", "bitmap", "auto"};
    static const char *const exchanges[] = {"peer", "host", "mpi", "nccl"};
    static const char *const expands[] = {"auto", "binsearch", "mergepath"};
    static const char *const directions[] = {"auto", "top-down", "bottom-up"};
    static const char *const parents[] = {"auto", "keep", "recompute"};
    static const char *const places[] = {"auto", "device", "host"};
    static const char *const sides[] = {"auto", "on", "off"};
    for (int i = 1; i < argc; i++) {
        int missing = 0, iv;
        int64_t n;
        boxbfs_direction_t dir;
        const char *v;
        const char *arg = argv[i];
#define OPT(name) ((v = bb_opt_value(argc, argv, &i, name, &missing)) != NULL || missing)
#define NEED_VALUE(name)                                          \
    if (missing) {                                                \
        bb_cli_error("%s needs a value (see boxbfs bfs --help)", name); \
        return -1;                                                \
    }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            bfs_usage(stdout);
            exit(BB_EXIT_OK);
        } else if (bb_opt_direction(arg, &dir)) {
            if (a->load.direction != BOXBFS_DIRECTION_DEFAULT && a->load.direction != dir) {
                bb_cli_error("--directed and --undirected exclude each other");
                return -1;
            }
            a->load.direction = dir;
        } else if (strcmp(arg, "--no-validate") == 0) {
            a->validate = 0;
        } else if (strcmp(arg, "--validate") == 0) {
            a->validate = 1;
        } else if (OPT("--roots")) {
            NEED_VALUE("--roots");
            if (bb_parse_i64(v, 1, 1 << 20, &n)) { bb_cli_error("--roots: '%s' is not a count in [1, 1048576]", v); return -1; }
            a->nroots = (int)n;
        } else if (OPT("--root")) {
            NEED_VALUE("--root");
            if (bb_parse_i64(v, INT64_MIN, INT64_MAX, &n)) { bb_cli_error("--root: '%s' is not a vertex id", v); return -1; }
            int64_t *grown = realloc(a->given_roots, (size_t)(a->ngiven + 1) * sizeof *grown);
            if (!grown) { bb_cli_error("out of memory"); return -1; }
            a->given_roots = grown;
            a->given_roots[a->ngiven++] = n;
        } else if (OPT("--seed")) {
            NEED_VALUE("--seed");
            if (bb_parse_i64(v, 0, INT64_MAX, &n)) { bb_cli_error("--seed: '%s' is not a non-negative integer", v); return -1; }
            a->seed = (uint64_t)n;
        } else if (OPT("--output")) {
            NEED_VALUE("--output");
            a->output = v;
        } else if (OPT("--json")) {
            NEED_VALUE("--json");
            a->json = v;
        } else if (OPT("--traffic-csv")) {
            NEED_VALUE("--traffic-csv");
            a->traffic_csv = v;
        } else if (OPT("--backend")) {
            NEED_VALUE("--backend");
            if (parse_enum("--backend", v, backends, 2, &iv)) return -1;
            a->eo.backend = (boxbfs_backend_t)iv;
            a->backend_given = 1;
        } else if (OPT("--devices")) {
            NEED_VALUE("--devices");
            if (strcmp(v, "auto") == 0) {   /* the count from the graph (cmd_bfs.c) */
                a->devices_auto = 1;
                a->devices_given = 0;
            } else if (bb_parse_i64(v, 1, 1024, &n)) {
                bb_cli_error("--devices: '%s' is neither auto nor a count in [1, 1024]", v);
                return -1;
            } else {
                a->eo.devices = (int)n;
                a->devices_given = 1;
                a->devices_auto = 0;
            }
        } else if (OPT("--device-ids")) {
            NEED_VALUE("--device-ids");
            if (parse_device_ids(a, v)) return -1;
        } else if (OPT("--contract")) {
            NEED_VALUE("--contract");
            if (parse_enum("--contract", v, contracts, 3, &iv)) return -1;
            a->eo.contract = (boxbfs_contract_t)iv;
        } else if (OPT("--visited")) {
            NEED_VALUE("--visited");
            if (parse_enum("--visited", v, visiteds, 2, &iv)) return -1;
            a->eo.visited = (boxbfs_visited_t)iv;
        } else if (OPT("--wire")) {
            NEED_VALUE("--wire");
            if (parse_enum("--wire", v, wires, 3, &iv)) return -1;
            a->eo.wire = (boxbfs_wire_t)iv;
        } else if (OPT("--parents")) {
            NEED_VALUE("--parents");
            if (parse_enum("--parents", v, parents, 3, &iv)) return -1;
            a->eo.parents = (boxbfs_parents_t)iv;
        } else if (OPT("--search-on")) {
            NEED_VALUE("--search-on");
            if (parse_enum("--search-on", v, places, 3, &iv)) return -1;
            a->eo.search_on = (boxbfs_search_on_t)iv;
        } else if (OPT("--side-by-side")) {
            NEED_VALUE("--side-by-side");
            if (parse_enum("--side-by-side", v, sides, 3, &iv)) return -1;
            a->side_by_side = iv;
        } else if (OPT("--exchange")) {
            NEED_VALUE("--exchange");
            if ((strcmp(v, "nccl") == 0 && !have_nccl) || (strcmp(v, "mpi") == 0 && !have_mpi)) {
                bb_cli_error("--exchange %s is not built into this boxbfs (available: peer, host%s%s)",
                             v, have_mpi ? ", mpi" : "", have_nccl ? ", nccl" : "");
                return -1;
            }
            if (parse_enum("--exchange", v, exchanges, 4, &iv)) return -1;
            a->eo.exchange = (boxbfs_exchange_t)iv;
        } else if (OPT("--direction")) {
            NEED_VALUE("--direction");
            if (parse_enum("--direction", v, directions, 3, &iv)) return -1;
            a->eo.direction = (boxbfs_search_direction_t)iv;
            a->direction_given = 1;
        } else if (OPT("--alpha")) {
            NEED_VALUE("--alpha");
            if (bb_parse_positive(v, &a->eo.alpha)) { bb_cli_error("--alpha: '%s' is not a finite positive number", v); return -1; }
        } else if (OPT("--beta")) {
            NEED_VALUE("--beta");
            if (bb_parse_positive(v, &a->eo.beta)) { bb_cli_error("--beta: '%s' is not a finite positive number", v); return -1; }
        } else if (OPT("--max-depth")) {
            NEED_VALUE("--max-depth");
            if (bb_parse_i64(v, 0, INT32_MAX, &n)) { bb_cli_error("--max-depth: '%s' is not a depth >= 0", v); return -1; }
            a->eo.max_depth = (int)n;
        } else if (OPT("--device-loop")) {
            NEED_VALUE("--device-loop");
            if (bb_parse_i64(v, 0, INT64_MAX, &n)) { bb_cli_error("--device-loop: '%s' is not an arc count >= 0", v); return -1; }
            a->eo.device_loop_arcs = n;
        } else if (OPT("--arcs64-from")) {
            NEED_VALUE("--arcs64-from");
            if (bb_parse_i64(v, 1, INT64_C(1) << 32, &n)) { bb_cli_error("--arcs64-from: '%s' is not an arc count in [1, 4294967296]", v); return -1; }
            a->eo.arcs64_from = n;
        } else if (OPT("--hub-degree")) {
            NEED_VALUE("--hub-degree");
            if (strcmp(v, "auto") == 0) a->eo.hub_degree = -1;
            else if (strcmp(v, "off") == 0) a->eo.hub_degree = 0;
            else if (bb_parse_i64(v, 1, UINT32_MAX, &n)) { bb_cli_error("--hub-degree: '%s' is not auto, off or a degree >= 1", v); return -1; }
            else a->eo.hub_degree = n;
        } else if (strcmp(arg, "--reverse") == 0) {
            a->reverse = 1;
        } else if (OPT("--relabel")) {
            static const char *const relabels[] = {"none", "degree", "auto"};
            NEED_VALUE("--relabel");
            if (parse_enum("--relabel", v, relabels, 3, &a->relabel)) return -1;
        } else if (OPT("--expand")) {
            NEED_VALUE("--expand");
            if (parse_enum("--expand", v, expands, 3, &iv)) return -1;
            a->eo.expand = (boxbfs_expand_t)iv;
        } else if (OPT("--expand-k")) {
            NEED_VALUE("--expand-k");
            if (strcmp(v, "auto") == 0) n = 0;
            else if (bb_parse_i64(v, 1, 16, &n) || (n & (n - 1))) { bb_cli_error("--expand-k: '%s' is not auto, 1, 2, 4, 8 or 16", v); return -1; }
            a->eo.expand_edges_per_thread = (int)n;
        } else if (OPT("--expand-f0")) {
            NEED_VALUE("--expand-f0");
            if (bb_parse_i64(v, 1, 1 << 30, &n)) { bb_cli_error("--expand-f0: '%s' is not a whole number >= 1", v); return -1; }
            a->eo.expand_f0 = (int)n;
        } else if (OPT("--link-model")) {
            NEED_VALUE("--link-model");
            boxbfs_links_free(a->links);
            a->links = NULL;
            a->eo.links_measured = 0;
            if (strcmp(v, "measured") == 0) {
                a->eo.links_measured = 1;
            } else if (access(v, F_OK) == 0 ||
                       boxbfs_link_model_parse(v, &a->eo.link_model) != BOXBFS_OK) {
                /* a file, or a built-in that only exists as a description */
                if (boxbfs_links_load(v, &a->links) != BOXBFS_OK) {
                    bb_cli_fail(BOXBFS_ERR_INVALID_ARG);
                    return -1;
                }
            }
            a->eo.links = a->links;
        } else if (strcmp(arg, "--throttle") == 0) {
            a->eo.throttle = 1;
        } else if (OPT("--partition")) {
            static const char *const partitions[] = {"1d", "2d"};
            NEED_VALUE("--partition");
            if (parse_enum("--partition", v, partitions, 2, &iv)) return -1;
            a->eo.partition = (boxbfs_partition_t)iv;
        } else if (OPT("--grid")) {
            NEED_VALUE("--grid");
            if (boxbfs_grid_parse(v, &a->eo.grid_rows, &a->eo.grid_cols) != BOXBFS_OK) {
                bb_cli_error("--grid: %s", boxbfs_last_error());
                return -1;
            }
            a->grid_given = 1;
        } else if (strcmp(arg, "--whole-graph") == 0) {
            a->whole_graph = 1;
        } else if (OPT("--build-on")) {
            static const char *const places[] = {"host", "devices"};
            NEED_VALUE("--build-on");
            if (parse_enum("--build-on", v, places, 2, &a->build_on_devices)) return -1;
        } else if (OPT("--order")) {
            static const char *const orders[] = {"given", "topology"};
            NEED_VALUE("--order");
            if (parse_enum("--order", v, orders, 2, &iv)) return -1;
            a->eo.order = (boxbfs_order_t)iv;
        } else if (OPT("--memory-limit")) {
            NEED_VALUE("--memory-limit");
            if (bb_parse_i64(v, 1, INT64_MAX, &n)) { bb_cli_error("--memory-limit: '%s' is not a byte count", v); return -1; }
            a->eo.device_memory_limit = (size_t)n;
        } else if (OPT("--sigma")) {
            NEED_VALUE("--sigma");
            a->sigma = v;
        } else if (OPT("--algorithm")) {
            static const char *const algorithms[] = {"frontier", "spmv"};
            NEED_VALUE("--algorithm");
            if (parse_enum("--algorithm", v, algorithms, 2, &iv)) return -1;
            a->sigma_algorithm = iv;
            a->sigma_algorithm_given = 1;
        } else if (OPT("--spmv")) {
            static const char *const variants[] = {"csc-scalar", "csc-vector", "cooc"};
            NEED_VALUE("--spmv");
            if (parse_enum("--spmv", v, variants, 3, &iv)) return -1;
            a->sigma_spmv = iv;
            a->sigma_spmv_given = 1;
        } else if (OPT("--threads")) {
            NEED_VALUE("--threads");
            if (bb_parse_i64(v, 0, 65536, &n)) { bb_cli_error("--threads: '%s' is not a count in [0, 65536] (0: all CPUs)", v); return -1; }
            a->load.threads = (int)n;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            bb_cli_error("unknown option '%s' (see boxbfs bfs --help)", arg);
            return -1;
        } else if (a->spec == NULL) {
            a->spec = arg;
        } else {
            bb_cli_error("more than one graph given ('%s' and '%s')", a->spec, arg);
            return -1;
        }
#undef OPT
#undef NEED_VALUE
    }
    if (check_partition(a)) return -1;
    if ((a->sigma_algorithm_given || a->sigma_spmv_given) && a->sigma == NULL) {
        bb_cli_error("--algorithm and --spmv choose how --sigma counts paths: add --sigma FILE");
        return -1;
    }
    if (a->sigma_spmv_given && a->sigma_algorithm != 1) {
        bb_cli_error("--spmv picks a variant of --algorithm spmv");
        return -1;
    }
    return check_launcher(a);
}

