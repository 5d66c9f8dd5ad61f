/* boxbfs public C API: graphs, multi-device BFS, validation, traffic reports.
 *
 * The only installed header. Handles are opaque; every call returns a
 * boxbfs_status_t and, on failure, leaves a detailed message in
 * boxbfs_last_error() (thread-local). No global state: two graphs or two
 * engines never share anything.
 *
 * Vertex ids: the API speaks "internal" ids 0..n-1 (dense). The ids of the
 * input file ("external" ids: Matrix Market is 1-based, SNAP ids as written)
 * are mapped with boxbfs_graph_external_id() / boxbfs_graph_internal_id().
 *
 * Conventions for every function below (docs/library.md):
 * - Ownership: a handle written to *X_p (graph, engine, links, topology) is
 *   the caller's and is released with its _free function (NULL is a no-op);
 *   arrays passed in stay the caller's and are read during the call only
 *   unless a function says otherwise; pointers returned (names, CSR views,
 *   reports) point into a handle and live as long as it (or as documented).
 * - Errors: a function returning boxbfs_status_t checks every argument
 *   (NULL handles and pointers, sizes, ids and enum values out of range)
 *   and returns an error with a message in boxbfs_last_error() instead of
 *   crashing; output parameters are written only on success. Functions
 *   that return a value instead answer a NULL handle or an id out of range
 *   with the value documented (0, -1, "", NULL), and never crash.
 * - Thread safety: any function may be called from any thread; handles are
 *   not locked. A graph is immutable once built: any number of threads may
 *   read it and build engines on it at once. An engine, a links description
 *   and a topology are used by one thread at a time (an engine's run
 *   starts its own threads, one per device, and joins them before
 *   returning). boxbfs_last_error() is per thread. MPI (mpi_slice,
 *   BOXBFS_EXCHANGE_MPI) and boxbfs_finalize are per process: call them
 *   from one thread, as MPI's rules require.
 * - ABI: libboxbfs.so exports only these boxbfs_* functions; its soname
 *   changes when a struct or signature here changes incompatibly. */
#ifndef BOXBFS_H
#define BOXBFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ---------------------------------------------------------------- */
typedef enum {
    BOXBFS_OK = 0,
    BOXBFS_ERR_INVALID_ARG = -1,    /* bad option, id out of range, bad spec   */
    BOXBFS_ERR_IO = -2,             /* open/read/write failed                  */
    BOXBFS_ERR_PARSE = -3,          /* malformed input file                    */
    BOXBFS_ERR_NO_MEMORY = -4,      /* host allocation failed                  */
    BOXBFS_ERR_NO_DEVICE = -5,      /* fewer devices than asked, no driver     */
    BOXBFS_ERR_DEVICE = -6,         /* a device call or kernel failed          */
    BOXBFS_ERR_DEVICE_MEMORY = -7,  /* does not fit in device memory           */
    BOXBFS_ERR_VALIDATION = -8,     /* a BFS result broke a Graph500 rule      */
    BOXBFS_ERR_UNSUPPORTED = -9,    /* feature not built in / not available    */
    BOXBFS_ERR_INTERNAL = -10       /* a bug in boxbfs                         */
} boxbfs_status_t;

/* Short constant description of a status ("parse error"); "unknown status"
 * for a value outside the enum. Never NULL; static storage. */
const char *boxbfs_status_string(boxbfs_status_t status);
/* Detailed message of the last failure on this thread ("g.mtx:14: vertex 812
 * out of range [1, 512]"); "" if none. Valid until the next failing call. */
const char *boxbfs_last_error(void);
/* Library version ("0.1.0"); static storage. */
const char *boxbfs_version(void);

/* ---- graphs ---------------------------------------------------------------- */
typedef struct boxbfs_graph *boxbfs_graph_t;

typedef enum {
    BOXBFS_DIRECTION_DEFAULT = 0,   /* the format's default: undirected for
                                       SNAP and generated graphs, the header's
                                       symmetry for Matrix Market            */
    BOXBFS_DIRECTION_UNDIRECTED = 1,
    BOXBFS_DIRECTION_DIRECTED = 2
} boxbfs_direction_t;

typedef struct {
    boxbfs_direction_t direction;
    int threads;                    /* generator/builder threads; 0 = online CPUs */
    /* 1: load only this MPI rank's rows (a slice, see boxbfs_graph_rows) of
     * the engine's 1D partition over all ranks of MPI_COMM_WORLD: the ranges
     * that boxbfs_engine_create with BOXBFS_EXCHANGE_MPI gives the whole
     * graph. Every rank calls boxbfs_graph_load with the same spec and
     * options (MPI is initialized if the caller did not; boxbfs_finalize
     * ends it). Applies to kron: specs and .bbcsr files; other inputs are
     * loaded whole on every rank. */
    int mpi_slice;
} boxbfs_load_options_t;

/* Load or generate a graph. spec is "kron:SCALE[:EDGEFACTOR[:SEED]]" or a
 * file path: *.mtx (Matrix Market), *.bbcsr (binary, written by
 * boxbfs_graph_save), anything else a SNAP edge list; a ".gz" suffix is read
 * through zlib. opts may be NULL (defaults). On success *graph_p holds a new
 * graph that the caller frees with boxbfs_graph_free; spec and opts are
 * not kept. spec or graph_p NULL, spec "", or a direction outside the enum:
 * INVALID_ARG.
 * Returns OK, INVALID_ARG (bad spec), IO, PARSE, NO_MEMORY; with mpi_slice
 * also UNSUPPORTED (not built with MPI; a rank's range over 2^31 rows),
 * DEVICE (MPI failed), INTERNAL, or the error of another rank that failed
 * to load ("rank R failed ..."), the same status on every rank. */
boxbfs_status_t boxbfs_graph_load(const char *spec, const boxbfs_load_options_t *opts,
                                  boxbfs_graph_t *graph_p);
/* A Kronecker graph ("kron:SCALE[:EDGEFACTOR[:SEED]]", undirected) that is
 * not generated here: the graph holds its sizes, and the engine made with it
 * (1D, the devices of one process) builds each device's rows on that device
 * and fills the graph's offsets, edge credits and arcs (docs/architecture.md
 * "Graphs built on the devices"); the whole graph never sits in host memory.
 * Until then its degrees read 0; functions that need its columns say
 * UNSUPPORTED, as for a slice. Returns OK, INVALID_ARG (not a kron: spec, or
 * a bad one), NO_MEMORY (its n-sized offsets and credits). */
boxbfs_status_t boxbfs_graph_kron_on_devices(const char *spec, boxbfs_graph_t *graph_p);

/* Build a graph from an edge list of internal ids in [0, n): edge i is
 * src[i] -> dst[i], both arrays of nedges entries (the caller's, read during
 * the call only). Undirected graphs store both directions. Self-loops are
 * dropped and duplicate arcs merged in the CSR; both still count as input
 * edges (Graph500 TEPS). On success *graph_p is the caller's (free it with
 * boxbfs_graph_free). Returns OK, INVALID_ARG (id out of range, n <= 0,
 * nedges < 0, src, dst or graph_p NULL), NO_MEMORY. */
boxbfs_status_t boxbfs_graph_from_edges(int64_t n, int64_t nedges, const int64_t *src,
                                        const int64_t *dst, int directed,
                                        boxbfs_graph_t *graph_p);

/* Write the graph as a binary CSR file (magic, version, sizes, checksum).
 * Returns OK, INVALID_ARG (graph or path NULL, path ""), IO, or UNSUPPORTED
 * for a slice. The graph is only read: other threads may use it meanwhile. */
boxbfs_status_t boxbfs_graph_save(boxbfs_graph_t graph, const char *path);

/* Release a graph and everything it owns (NULL: nothing). Free the engines
 * built on it first; its names and CSR views are gone with it. */
void boxbfs_graph_free(boxbfs_graph_t graph);

/* A new graph with every arc turned around (u -> v becomes v -> u): a search
 * of it follows the arcs of graph against their direction (boxbfs bfs
 * --reverse). An undirected graph comes back equal. Its input edges are its
 * stored arcs (duplicates and self-loops of the input are gone), each
 * credited to its new source for TEPS. The caller frees it; graph is not
 * changed. Returns OK, INVALID_ARG (NULL), UNSUPPORTED (a slice), NO_MEMORY. */
boxbfs_status_t boxbfs_graph_reverse(boxbfs_graph_t graph, boxbfs_graph_t *reversed_p);

/* A new graph with the same vertices and arcs, numbered by decreasing
 * degree (out-arcs, plus in-arcs where directed; ties by increasing id), so
 * that the few vertices at the ends of most arcs of a power-law graph have
 * neighbouring ids (docs/architecture.md, "Vertex order by degree"). stripes >= 1: degree
 * rank r becomes the (r / stripes)-th vertex of the r % stripes-th of that
 * many contiguous ranges of (almost) equal size (give the device count of a
 * 1D partition: each device's range then starts with its share of the hubs).
 * External ids stay those of graph: boxbfs_graph_external_id and
 * boxbfs_graph_internal_id map through the new order, so the ids a search
 * returns (internal) still name the input's vertices through them; input
 * edges and TEPS credits are those of graph. The caller frees it; graph is
 * not changed. boxbfs_graph_save refuses the result (UNSUPPORTED);
 * boxbfs_graph_save_edgelist writes it in external ids. Returns OK,
 * INVALID_ARG (NULL, stripes < 1), UNSUPPORTED (a slice), NO_MEMORY. */
boxbfs_status_t boxbfs_graph_relabel_by_degree(boxbfs_graph_t graph, int stripes,
                                               boxbfs_graph_t *relabeled_p);

/* Size and kind of a graph; a NULL graph reads 0 (name: ""). The name ("kron:20",
 * a file's base name) lives as long as the graph. */
int64_t boxbfs_graph_vertices(boxbfs_graph_t graph);
/* Input edges (as read or generated, duplicates and self-loops included). */
int64_t boxbfs_graph_input_edges(boxbfs_graph_t graph);
/* Stored arcs in the CSR (both directions of undirected edges, deduplicated). */
int64_t boxbfs_graph_arcs(boxbfs_graph_t graph);
int boxbfs_graph_is_directed(boxbfs_graph_t graph);
const char *boxbfs_graph_name(boxbfs_graph_t graph);
/* Read-only CSR views into the graph (valid until boxbfs_graph_free; NULL for
 * a NULL graph): offsets has n+1 entries, columns has arcs entries;
 * for a slice only the arcs of its rows lo..hi-1 (boxbfs_graph_rows): the
 * row of v starts at columns[offsets[v] - offsets[lo]]. */
const int64_t *boxbfs_graph_offsets(boxbfs_graph_t graph);
const int64_t *boxbfs_graph_columns(boxbfs_graph_t graph);
/* The rows whose columns the graph holds: [0, n) for a whole graph; for a
 * slice (loaded with mpi_slice) this rank's range. Offsets, edge counts, n
 * and the id mapping are always those of the whole graph. The reference
 * BFS, boxbfs_graph_save and boxbfs_graph_stats need the whole graph and
 * return UNSUPPORTED on a slice. lo_p and hi_p may be NULL. Returns OK, or
 * INVALID_ARG when graph is NULL. */
boxbfs_status_t boxbfs_graph_rows(boxbfs_graph_t graph, int64_t *lo_p, int64_t *hi_p);
/* Map internal <-> external ids. external_id returns -1 when internal is not
 * in [0, n) or graph is NULL. internal_id returns INVALID_ARG when graph is
 * NULL or the external id names no vertex of the graph; internal_p may be
 * NULL (only asks whether the vertex exists). */
int64_t boxbfs_graph_external_id(boxbfs_graph_t graph, int64_t internal);
boxbfs_status_t boxbfs_graph_internal_id(boxbfs_graph_t graph, int64_t external,
                                         int64_t *internal_p);

typedef struct {
    int64_t vertices, arcs, input_edges;
    int64_t self_loops, duplicate_arcs;   /* removed while building the CSR */
    int64_t isolated;                     /* vertices of degree 0 */
    int64_t degree_min, degree_max;
    double degree_mean, degree_stddev;
    int64_t components;                   /* weakly connected, isolated included */
    int64_t largest_component;            /* vertices */
} boxbfs_graph_stats_t;

/* Degree statistics and connected components (linear time) into *stats_p.
 * Returns OK, INVALID_ARG (graph or stats_p NULL), NO_MEMORY, or
 * UNSUPPORTED for a slice. */
boxbfs_status_t boxbfs_graph_stats(boxbfs_graph_t graph, boxbfs_graph_stats_t *stats_p);

/* ---- BFS results and validation --------------------------------------------- */
#define BOXBFS_UNREACHED (-1)

/* Sequential reference BFS from internal root. parent (n entries) gets the
 * parent's internal id, root for the root, -1 when unreached; level (n
 * entries) gets the depth or -1. Caller owns both arrays. Returns OK,
 * INVALID_ARG (graph, parent or level NULL; root not in [0, n)), NO_MEMORY,
 * or UNSUPPORTED for a slice. */
boxbfs_status_t boxbfs_bfs_reference(boxbfs_graph_t graph, int64_t root, int64_t *parent,
                                     int32_t *level);

typedef struct {
    int64_t reached;           /* vertices with a parent */
    int64_t input_edges;       /* input edges inside the root's component (TEPS) */
    int64_t arcs;              /* sum of out-degrees of reached vertices (teps_arc) */
    int32_t levels;            /* max level + 1 */
} boxbfs_tree_info_t;

/* Graph500 validation of a BFS tree (linear time): root is its own parent at
 * level 0; every tree edge is a graph edge between levels L-1 and L; levels
 * of the ends of every graph edge differ by at most one; exactly the root's
 * component is reached. parent and level (n entries) are the caller's, only
 * read. level may be NULL (levels are then derived from
 * parents). Returns OK or VALIDATION with the first broken rule and the vertex
 * in boxbfs_last_error() (a root out of range breaks rule R0); INVALID_ARG
 * when graph or parent is NULL; info_p (may be NULL) is written on OK.
 * On a slice, parent and level are still the whole tree (n entries), but
 * only the rules that the slice's rows can decide are checked, and info
 * counts its rows only (levels: of its rows' vertices): the slices of all
 * ranks together check the whole tree, as boxbfs_engine_check_tree does. */
boxbfs_status_t boxbfs_validate(boxbfs_graph_t graph, int64_t root, const int64_t *parent,
                                const int32_t *level, boxbfs_tree_info_t *info_p);
/* boxbfs_validate for a search stopped at depth max_depth (< 0: no limit):
 * no level exceeds it, and exactly the vertices within max_depth levels of
 * the root are reached (R7). */
boxbfs_status_t boxbfs_validate_depth(boxbfs_graph_t graph, int64_t root, const int64_t *parent,
                                      const int32_t *level, int32_t max_depth,
                                      boxbfs_tree_info_t *info_p);

/* ---- multi-device engine ----------------------------------------------------- */
typedef enum { BOXBFS_BACKEND_CPU = 0, BOXBFS_BACKEND_CUDA = 1 } boxbfs_backend_t;
typedef enum {
    BOXBFS_CONTRACT_SORT_UNIQUE = 0,   /* [003 §4] baseline                   */
    BOXBFS_CONTRACT_VALID_FLAG = 1,    /* [003 §5.1] GPU-BOX                  */
    BOXBFS_CONTRACT_ATOMIC = 2         /* [004 §3.4] visited bitmap, atomics  */
} boxbfs_contract_t;
typedef enum { BOXBFS_VISITED_BYTE = 0, BOXBFS_VISITED_BIT = 1 } boxbfs_visited_t;
typedef enum { BOXBFS_WIRE_LIST = 0, BOXBFS_WIRE_BITMAP = 1, BOXBFS_WIRE_AUTO = 2 } boxbfs_wire_t;
typedef enum {
    BOXBFS_EXCHANGE_PEER = 0,   /* left-right peer copies [003 §5.2]            */
    BOXBFS_EXCHANGE_HOST = 1,   /* left-right, staged through host memory       */
    BOXBFS_EXCHANGE_MPI = 2,    /* one device per MPI rank (built --with-mpi)   */
    BOXBFS_EXCHANGE_NCCL = 3    /* NCCL send/recv, all GPUs of this process
                                   (cuda backend; built with NCCL)              */
} boxbfs_exchange_t;
typedef enum {
    BOXBFS_EXPAND_AUTO = 0, BOXBFS_EXPAND_BINSEARCH = 1, BOXBFS_EXPAND_MERGEPATH = 2
} boxbfs_expand_t;

/* The direction of a level's step (Beamer's direction-optimizing BFS):
 * top-down expands the frontier's arcs; bottom-up lets every unvisited
 * vertex look for a parent in the frontier, which every device then holds
 * as a bitmap over all vertices. AUTO switches per level by Beamer's rule
 * (docs/architecture.md, "Bottom-up levels"). */
typedef enum {
    BOXBFS_SEARCH_AUTO = 0, BOXBFS_SEARCH_TOP_DOWN = 1, BOXBFS_SEARCH_BOTTOM_UP = 2
} boxbfs_search_direction_t;

typedef struct {
    double bandwidth_Bps;      /* bytes per second, per link and direction */
    double latency_s;          /* per message */
    char name[64];
} boxbfs_link_model_t;

/* A link description: bandwidth and latency per device pair or per device
 * slot, slots dedicated or shared (the text format is in docs/cli.md, "Link
 * descriptions"). Opaque; read by boxbfs_engine_create, which keeps no
 * reference to it. */
typedef struct boxbfs_links *boxbfs_links_t;

/* spec is a built-in name (nvlink4, pcie3x16, pcie4x16, pcie5x16,
 * expether-2x10g, expether-2x10g-shared), "BW,LATENCY" (as
 * boxbfs_link_model_parse), or the path of a description file (tried first
 * when such a file exists). On success *links_p is the caller's (free it
 * with boxbfs_links_free). Returns OK, INVALID_ARG (unknown name, spec or
 * links_p NULL), IO (file unreadable), PARSE ("FILE:LINE: what is wrong"),
 * NO_MEMORY. */
boxbfs_status_t boxbfs_links_load(const char *spec, boxbfs_links_t *links_p);
/* Parse description text; source names it in messages ("FILE:LINE: ...").
 * As boxbfs_links_load; text NULL: INVALID_ARG. */
boxbfs_status_t boxbfs_links_parse(const char *text, const char *source, boxbfs_links_t *links_p);
/* Release a description (NULL: nothing). Engines keep no reference to it. */
void boxbfs_links_free(boxbfs_links_t links);
/* Its name (built-in name or file); "" for NULL; lives as long as links. */
const char *boxbfs_links_name(boxbfs_links_t links);
/* Figures of the copy src -> dst (device numbers as in the description):
 * bandwidth (bytes/s, the smaller of both slots' for a slot path), latency
 * (s), *shared_p = 1 when a shared slot is on the path (its bandwidth is
 * divided among concurrent copies). Returns OK or INVALID_ARG when links is
 * NULL or nothing in the description covers the pair (message names it);
 * the output pointers are written on OK. */
boxbfs_status_t boxbfs_links_pair(boxbfs_links_t links, int src, int dst, double *bandwidth_Bps_p,
                                  double *latency_s_p, int *shared_p);

/* How the engine divides the graph (docs/architecture.md, "2D partition"): 1D gives each
 * device a range of vertices and their adjacency lists; 2D [004 §2.2] puts
 * R x C devices on a grid, each holding one block of the adjacency matrix
 * (the arcs from its grid column's vertices to its grid row's) and 1/(RC)
 * of the vertex state; a level gathers the frontier within each grid column
 * (expand) and sends discovered vertices to their owners within each grid
 * row (fold). */
typedef enum { BOXBFS_PARTITION_1D = 0, BOXBFS_PARTITION_2D = 1 } boxbfs_partition_t;

/* Where the parents of vertices that a device discovers for another device
 * come from (docs/cli.md, "Memory plan"). KEEP: each device holds them during the
 * search (4 bytes per vertex outside its range, 4 (n - n/P)) and answers the
 * parent gather from there. RECOMPUTE: no such array; after the search the
 * answering device finds each requested vertex v a parent by one pass over
 * its own arcs: of its reached vertices with an arc to v, one of the least
 * level, the least id among those (level(v) - 1, so the tree validates; the
 * same tree on every backend); the pass is in the report's gather time. AUTO
 * (default): keep where the device's plan with the array fits its free memory
 * (or the memory limit), else recompute. The parent gather moves the same
 * bytes and messages either way. 1D partition only (2D keeps them). */
typedef enum {
    BOXBFS_PARENTS_AUTO = 0, BOXBFS_PARENTS_KEEP = 1, BOXBFS_PARENTS_RECOMPUTE = 2
} boxbfs_parents_t;

/* Where a search runs (docs/architecture.md "Where a search runs"). DEVICE:
 * the whole search without the host between levels: one device runs it as
 * one launch; several devices of this process with peer access run it at
 * once and meet in each other's memory (a vertex found for another device
 * goes straight into its inbox with its parent: nothing is gathered after
 * the search). It needs --contract atomic and the device loop on, and on
 * several devices --exchange peer with peer access between every pair, no
 * --throttle, --wire list or auto, at most 8 devices. HOST: the host drives
 * each level (the device loop still runs the small ones). AUTO (default):
 * DEVICE where those hold, else HOST. */
typedef enum {
    BOXBFS_SEARCH_ON_AUTO = 0, BOXBFS_SEARCH_ON_DEVICE = 1, BOXBFS_SEARCH_ON_HOST = 2
} boxbfs_search_on_t;

typedef enum {
    BOXBFS_ORDER_GIVEN = 0,      /* devices in the order given (--device-ids)    */
    BOXBFS_ORDER_TOPOLOGY = 1    /* greedy ring: fastest links adjacent (docs/cli.md) */
} boxbfs_order_t;

typedef struct {
    boxbfs_backend_t backend;
    int devices;               /* N >= 1; --exchange mpi: the number of ranks, or 0 */
    const int *device_ids;     /* NULL: 0..N-1 (cuda backend) */
    boxbfs_contract_t contract;
    boxbfs_visited_t visited;
    boxbfs_wire_t wire;
    boxbfs_exchange_t exchange;
    boxbfs_expand_t expand;
    int expand_edges_per_thread; /* binsearch/mergepath edges per thread: 1, 2, 4, 8, 16, or 0
                                  * (default): binsearch picks 2, 4 or 8 per level from its arcs */
    int expand_f0;             /* auto: merge path when arcs per frontier vertex > f0 (10) */
    boxbfs_link_model_t link_model;
    size_t device_memory_limit; /* 0 = the device's free memory */
    /* Per-pair figures; NULL: link_model on every pair. Borrowed: read by
     * boxbfs_engine_create only. Slots/pairs are physical device ids. */
    boxbfs_links_t links;
    int links_measured;        /* 1: probe the devices at engine start and use
                                  the measured figures (overrides links) */
    int throttle;              /* 1: pace each peer copy (nccl, mpi: each round) to the links */
    boxbfs_order_t order;      /* device order of the left-right ring */
    boxbfs_search_direction_t direction;   /* per-level step direction (AUTO) */
    /* AUTO's switches, computed from counts that every backend agrees on:
     * bottom-up once the frontier's arcs times alpha exceed the arcs not yet
     * explored; back to top-down once the frontier stops growing and holds
     * fewer than n / beta vertices. alpha 0: the engine's own figure
     * (boxbfs_engine_alpha): 40 on one device, else 15 (Beamer's and the
     * GAP suite's), on every backend. */
    double alpha, beta;
    int max_depth;             /* < 0: no limit; K: vertices deeper than K stay unreached */
    /* Top-down levels whose frontier has at most this many arcs run one
     * after the other inside one kernel launch per device (no host round
     * trip per level; high-diameter graphs have thousands of such levels);
     * several devices: peer exchange in one process, not sort-unique
     * (docs/architecture.md, "Where a search runs"). 0: every level from the
     * host. */
    int64_t device_loop_arcs;
    /* docs/architecture.md, "2D partition": BOXBFS_PARTITION_2D runs every direction, on the
     * cpu backend (emulated devices) or the cuda backend, with every exchange
     * (one device per MPI rank with BOXBFS_EXCHANGE_MPI, or with
     * BOXBFS_EXCHANGE_NCCL under an MPI launcher); grid_rows x grid_cols must
     * equal the devices, 0 x 0 picks the squarest grid (boxbfs_grid_default). */
    boxbfs_partition_t partition;
    int grid_rows, grid_cols;
    boxbfs_parents_t parents;  /* remote parents kept or recomputed (AUTO) */
    boxbfs_search_on_t search_on;   /* where the search runs (AUTO) */
    /* The search across devices (docs/architecture.md, "Hubs split by
     * destination"): each vertex of at least this many out-arcs (a hub) has
     * its row split by the devices its arcs lead to, and a big top-down
     * level's hubs are expanded by every device into its own range. 0: off;
     * < 0 (default): auto, 1024 arcs, doubled until at most 262144 hubs. */
    int64_t hub_degree;
    /* A device holding at least this many arcs (its rows, with the hubs'
     * parts) indexes them with 64 bits: its expand scans 64-bit sums and
     * balances by binary search (docs/architecture.md, "Arcs per device");
     * below it, the 32-bit kernels. In [1, 2^32] (default 2^32); lower it to
     * run the 64-bit kernels on a small graph. */
    int64_t arcs64_from;
} boxbfs_engine_options_t;

/* Fill *opts with the defaults (opts NULL: nothing). Always start from these:
 * a field added in a later version then gets its default.
 * Defaults: cpu backend, 1 device, atomic contraction, bit visited (the
 * fastest validated pair on every backend and device count; valid-flag and
 * byte visited, GPU-BOX's, are selectable), list wire, peer exchange,
 * binsearch expand with 8 edges per thread (auto: f0 = 10), nvlink4 link
 * model, direction AUTO with alpha = 0 (auto), beta = 18, no depth limit, device
 * loop for levels of up to 16384 arcs, parents AUTO, search on AUTO. */
void boxbfs_engine_options_init(boxbfs_engine_options_t *opts);
/* Look up a built-in link model ("nvlink4", "pcie4x16", "pcie3x16",
 * "expether-2x10g") or parse "BW,LATENCY" (bytes/s with optional K/M/G
 * suffix and B/s, latency in s with optional ms/us/ns suffix) into *model_p.
 * Returns OK or INVALID_ARG (unknown name, bad or non-positive figures, text
 * or model_p NULL). */
boxbfs_status_t boxbfs_link_model_parse(const char *text, boxbfs_link_model_t *model_p);

typedef struct boxbfs_engine *boxbfs_engine_t;

/* Partition the graph over the devices and allocate everything a search
 * needs (the graph must outlive the engine; opts, its device_ids and links
 * are read during the call only). On success *engine_p is the caller's
 * (free it with boxbfs_engine_free). INVALID_ARG also covers NULL graph,
 * opts or engine_p, device counts outside [1, 1024] and enum fields out of
 * range. One device per MPI rank with
 * BOXBFS_EXCHANGE_MPI, and with BOXBFS_EXCHANGE_NCCL when an MPI launcher
 * started several processes (boxbfs_mpi_launched_processes() > 1: each rank
 * drives the GPU of its number among its host's processes, NCCL bootstrapped
 * over MPI); all devices from this process otherwise. A slice
 * (boxbfs_graph_rows) needs one device per MPI rank with this rank's range
 * equal to its rows, i.e. loaded by as many processes (else INVALID_ARG).
 * Returns OK, INVALID_ARG, NO_DEVICE, DEVICE (also: ncclCommInitAll /
 * ncclCommInitRank failed, with NCCL's message), DEVICE_MEMORY (message
 * names the shortfall), UNSUPPORTED (backend or exchange not built in;
 * BOXBFS_EXCHANGE_NCCL on the cpu backend; several processes without MPI
 * built in; one device per process with links_measured or
 * BOXBFS_ORDER_TOPOLOGY; BOXBFS_PARENTS_RECOMPUTE with BOXBFS_PARTITION_2D),
 * NO_MEMORY. BOXBFS_EXCHANGE_NCCL sets
 * NCCL_NVLS_ENABLE=0 in the process environment when it is unset. */
boxbfs_status_t boxbfs_engine_create(boxbfs_graph_t graph, const boxbfs_engine_options_t *opts,
                                     boxbfs_engine_t *engine_p);
/* Release an engine, its device memory and its threads (NULL: nothing);
 * reports from its runs are gone with it. MPI: every rank calls it.
 * BOXBFS_EXCHANGE_NCCL in one process: the engine's NCCL communicators, when
 * healthy, are kept for the next engine over the same GPUs (NCCL starts
 * once per process, not once per engine); an engine over other GPUs, or
 * the process's end, releases them. */
void boxbfs_engine_free(boxbfs_engine_t engine);
/* The counts below read 0 for a NULL engine.
 * Devices of the search over all processes (BOXBFS_EXCHANGE_MPI: one per
 * rank of MPI_COMM_WORLD, which boxbfs_engine_create initializes if the
 * caller did not; every rank calls create, run and free with the same
 * arguments; the traffic report and the tree are complete on rank 0 only). */
int boxbfs_engine_device_count(boxbfs_engine_t engine);
/* This process's MPI rank (0 without MPI): the one whose report counts. */
int boxbfs_engine_rank(boxbfs_engine_t engine);
/* Processes the search spans: the device count with one device per MPI
 * rank, else 1. */
int boxbfs_engine_processes(boxbfs_engine_t engine);
/* The number of processes an MPI launcher (mpirun, mpiexec, srun) started
 * this job with, read from the variables it sets (OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE, MV2_COMM_WORLD_SIZE); 0 when none is set. */
int boxbfs_mpi_launched_processes(void);
/* 1 when these options run one device per MPI rank (the rule above:
 * BOXBFS_EXCHANGE_MPI, or BOXBFS_EXCHANGE_NCCL with several launched
 * processes), else 0. */
int boxbfs_one_device_per_process(const boxbfs_engine_options_t *opts);
/* Before exit, after the last engine is freed: finalizes MPI if boxbfs
 * initialized it; does nothing otherwise. */
void boxbfs_finalize(void);
/* Human-readable device names, one per engine device ("cpu-emulated 0",
 * "NVIDIA H200"); "" for a NULL engine or a device out of range. Lives as
 * long as the engine. */
const char *boxbfs_engine_device_name(boxbfs_engine_t engine, int device);
/* Device memory the engine allocated on one device, bytes; visited_bytes_p
 * (may be NULL) gets the part held by the Visited array. 0 for a NULL engine
 * or a device out of range. */
size_t boxbfs_engine_memory_bytes(boxbfs_engine_t engine, int device, size_t *visited_bytes_p);
/* The arrays that make up that memory, by the name the code gives them
 * ("columns", "offsets", "visited", "inbox", ...; docs/cli.md "Memory
 * plan"), the allocations of one name summed: entry i (from 0) into
 * *name_p (lives as long as the engine) and *bytes_p (either may be NULL);
 * returns 1, or 0 past the last entry, for a NULL engine or a device out of
 * range. */
int boxbfs_engine_device_array(boxbfs_engine_t engine, int device, int i, const char **name_p,
                               size_t *bytes_p);
/* The optional arrays one device goes without because its free memory (or
 * --memory-limit) has no room for them, "; " between them ("rank, by_rank,
 * skip (the visited-prefix skip)", "remote_parent (the parents recomputed
 * after each search)"); "" where it has them all, for a NULL engine or a
 * device out of range. Lives as long as the engine. */
const char *boxbfs_engine_device_dropped(boxbfs_engine_t engine, int device);
/* The width of one device's arc indices: 64 where it holds at least
 * opts.arcs64_from arcs, else 32; 0 for a NULL engine, a device out of
 * range or of another MPI rank, or a 2D engine (whose blocks hold fewer
 * than 2^32 arcs). */
int boxbfs_engine_arc_bits(boxbfs_engine_t engine, int device);
/* What one device does for the parents of its remote discoveries:
 * BOXBFS_PARENTS_KEEP or BOXBFS_PARENTS_RECOMPUTE (opts.parents AUTO decided
 * per device by its memory plan; one device has no remote discoveries, and
 * AUTO reads KEEP there).
 * BOXBFS_PARENTS_AUTO for a NULL engine or a device out of range. */
boxbfs_parents_t boxbfs_engine_parents(boxbfs_engine_t engine, int device);
/* The direction switch's alpha the engine runs: opts.alpha, or where that is
 * 0 its own figure (40 on one device, else 15); 0 for a NULL engine. */
double boxbfs_engine_alpha(boxbfs_engine_t engine);
/* The wire format the engine runs: opts.wire, except where --contract atomic
 * on several devices was given BOXBFS_WIRE_LIST and some device cannot hold
 * its list layout (an outbox of n entries): then BOXBFS_WIRE_AUTO, whose
 * outbox is a bitmap (docs/cli.md, "Memory plan"). BOXBFS_WIRE_LIST for a NULL
 * engine. */
boxbfs_wire_t boxbfs_engine_wire(boxbfs_engine_t engine);
/* 1 where each search runs on the devices, without the host between levels
 * (boxbfs_search_on_t DEVICE: one device, or several that meet in each
 * other's memory; the cuda backend launches one CUDA graph per device and
 * search), 0 where the host drives the levels (or engine is NULL). */
int boxbfs_engine_device_search(boxbfs_engine_t engine);
/* What runs a search, in words: "device search" (one device), "device
 * search across devices" (several that meet in peer memory), "host-driven
 * levels", "2d"; "" for a NULL engine. */
const char *boxbfs_engine_strategy(boxbfs_engine_t engine);
/* Why several devices of one process drive their levels from the host under
 * --search-on auto, in words ("links: ...", a missing option or peer access,
 * the memory); "" where they search across devices, for one device, 2d, or a
 * NULL engine. */
const char *boxbfs_engine_strategy_why(boxbfs_engine_t engine);
/* 1 where every device's top-down levels skip the arcs into the visited
 * prefix of the vertices ranked by degree (docs/architecture.md, "The visited-prefix skip":
 * --contract atomic in one process, the rows reordered by their heads'
 * degrees at engine start; BOXBFS_PREFIX_SKIP=0 in the environment turns it
 * off), 0 otherwise (or engine NULL). */
int boxbfs_engine_prefix_skip(boxbfs_engine_t engine);
/* The hubs whose rows the search across devices splits by destination
 * (docs/architecture.md, "Hubs split by destination"), and in *degree_p
 * (may be NULL) their least out-degree; 0 where none (or engine NULL). */
int64_t boxbfs_engine_hubs(boxbfs_engine_t engine, int64_t *degree_p);

/* Traffic of one search, counted where each copy is issued. */
typedef enum {
    BOXBFS_PHASE_FRONTIER = 0,    /* frontier payload (list or bitmap)        */
    BOXBFS_PHASE_SIZES = 1,       /* per-destination counts before each copy  */
    BOXBFS_PHASE_TERMINATION = 2, /* next-frontier sizes, reduce + broadcast  */
    BOXBFS_PHASE_PARENTS = 3,     /* parent gather after the search           */
    BOXBFS_PHASE_FRONTIER_BITMAP = 4, /* bottom-up levels: each device's part of
                                         the frontier bitmap to every other one */
    BOXBFS_PHASE_EXPAND = 5,      /* 2D: the frontier gathered within a grid column */
    BOXBFS_PHASE_FOLD = 6,        /* 2D: discovered vertices to their owners in the grid row */
    BOXBFS_PHASE_VISITED = 7,     /* the search across devices: each device's part of
                                     visited to every other one before a top-down
                                     level of at least n arcs */
    BOXBFS_PHASE_HUBS = 8,        /* the search across devices: the levels of a
                                     device's hubs that changed, to every other one,
                                     before a top-down level that splits the hubs'
                                     rows (--hub-degree) */
    BOXBFS_PHASE_COUNT = 9
} boxbfs_phase_t;

typedef struct {
    int32_t level;
    int32_t direction;            /* BOXBFS_SEARCH_TOP_DOWN or BOXBFS_SEARCH_BOTTOM_UP */
    int32_t device_loop;          /* 1: run inside the device loop (small
                                     frontiers; phase times are not split) */
    int64_t frontier;             /* vertices in the frontier expanded at this level */
    int64_t frontier_arcs;        /* their out-arcs (Beamer's m_f) */
    int64_t unexplored_arcs;      /* arcs of vertices not yet expanded, this level's
                                     frontier included (m_u) */
    int64_t sent_vertices;        /* vertices that crossed a link */
    int64_t undone_vertices;      /* of them, those a device loop across devices
                                     sent in this level before its totals said
                                     the loop stops here: it undid the level,
                                     and the step that ran it sent anew */
    int64_t bytes, messages;      /* all phases of this level */
    int64_t bitmap_messages;      /* frontier messages sent as bitmaps */
    double time_s;                /* measured, whole level */
    double expand_s, contract_s, exchange_s, update_s;   /* max over devices */
    double modeled_exchange_s;    /* link model applied to this level's bytes */
    /* time_s minus the busiest device's phase times: host round trips,
     * launches, syncs and barriers that the data does not need */
    double overhead_s;
} boxbfs_level_report_t;

/* One device's share of a level (where the level's max comes from: load
 * imbalance between devices). */
typedef struct {
    int64_t frontier;             /* vertices this device expanded */
    double expand_s, contract_s, exchange_s, update_s;
} boxbfs_level_device_t;

typedef struct {
    int64_t root;                 /* internal id */
    double time_s;                /* search time (parents gathered included) */
    int32_t levels;
    int64_t reached;
    int64_t total_bytes, total_messages;
    int64_t phase_bytes[BOXBFS_PHASE_COUNT];
    int64_t phase_messages[BOXBFS_PHASE_COUNT];
    const int64_t *link_bytes;    /* devices x devices, row = source */
    const int64_t *link_messages; /* devices x devices */
    int nlevels;
    const boxbfs_level_report_t *level_reports;
    const int64_t *level_link_bytes; /* nlevels x devices x devices: bytes per level and link */
    const boxbfs_level_device_t *level_devices; /* nlevels x devices */
    double modeled_exchange_s;
    double gather_s;              /* parent gather, measured */
    /* the device search: the longest of the devices' own times from their
     * first step's start to their last step's end (the rest of time_s is
     * the host's: the launch, the way there and back); 0 where the host
     * drove the levels */
    double device_span_s;
} boxbfs_search_report_t;

/* Run one BFS from an internal root. parent/level (n entries, may be NULL)
 * receive the tree as in boxbfs_bfs_reference. *report_p (may be NULL)
 * points into the engine and stays valid until the next run or free (the
 * caller frees nothing in it). One run at a time per engine; engines of
 * one graph may run in parallel threads (each drives its own devices).
 * Returns OK, INVALID_ARG (engine NULL, root not in [0, n)), DEVICE,
 * NO_MEMORY. */
boxbfs_status_t boxbfs_engine_run(boxbfs_engine_t engine, int64_t root, int64_t *parent,
                                  int32_t *level, const boxbfs_search_report_t **report_p);

/* Validate (validate = 1, boxbfs_validate_depth's rules with the engine's
 * max_depth) or only count (0: info
 * from the vertices with level >= 0) a tree of this engine's graph, over all
 * its processes. parent and level (n entries each) are the tree as
 * boxbfs_engine_run left it; with one device per MPI rank every rank calls
 * this with its arrays, of which only its own rows are read (rank 0's other
 * rows, the gathered tree, are not): each rank checks its rows with their
 * parents, the levels of all rows are allgathered into every rank's level
 * array (validate = 1; parent is only read), and of the other rows' parents
 * only what the check needs is exchanged. The results are combined, so
 * every rank returns the same status, message (that of the lowest failing
 * rank) and info, those of checking the whole tree's rows on each rank.
 * Returns OK, VALIDATION (also a root out of range: R0), INVALID_ARG
 * (engine, parent or level NULL), NO_MEMORY, UNSUPPORTED (across ranks,
 * more than 2^31 - 1 vertices). */
boxbfs_status_t boxbfs_engine_check_tree(boxbfs_engine_t engine, int64_t root, int64_t *parent,
                                         int32_t *level, int validate, boxbfs_tree_info_t *info_p);

/* The link model in effect: the single figure, or a description's name with
 * its 0 -> 1 figures. Valid while the engine lives; NULL for a NULL engine. */
const boxbfs_link_model_t *boxbfs_engine_link_model(boxbfs_engine_t engine);
/* The device order the engine uses: engine device i is physical device
 * ids_p[i] (n entries, caller's array). Returns OK, or INVALID_ARG when
 * engine or ids_p is NULL or n is smaller than the device count. */
boxbfs_status_t boxbfs_engine_device_order(boxbfs_engine_t engine, int *ids_p, int n);

/* ---- topology: devices, links, probe -------------------------------------------- */
typedef struct boxbfs_topology *boxbfs_topology_t;

typedef struct {
    char name[128];
    char pci_bus_id[32];       /* "0000:1b:00.0"; "emulated" on cpu */
    size_t memory_bytes;
    int sm_count;              /* 0 where not a GPU */
    int numa_node;             /* -1 unknown */
    char cpu_affinity[256];    /* CPU list ("0-15,32-47"); "" unknown */
    int emulated;              /* 1: a cpu-backend device emulated in host memory */
} boxbfs_device_info_t;

typedef struct {
    int access;                /* direct peer access src -> dst */
    int perf_rank;             /* cudaDevP2PAttrPerformanceRank (lower = faster); -1 unknown */
    int native_atomics;
    int nvlinks;               /* NVLinks between the pair as `nvidia-smi topo -m` counts them
                                  (NVML): through an NVSwitch, the source's links into it;
                                  -1 unknown */
    char type[32];             /* "self", "NVLINK x18", "NVSWITCH", "P2P", "HOST", "EMULATED" */
} boxbfs_link_info_t;

/* Open devices of backend (devices = 0: every GPU; on cpu 0 means 2) and
 * describe them and every ordered pair (peer access, rank, atomics, NVLinks
 * through NVML loaded at run time when present). On success *topo_p is the
 * caller's (free it with boxbfs_topology_free). Returns OK, INVALID_ARG
 * (topo_p NULL, backend unknown, devices outside [0, 1024]), NO_DEVICE
 * (cuda without GPUs, more devices than present), UNSUPPORTED (cuda not
 * built in), DEVICE, NO_MEMORY. */
boxbfs_status_t boxbfs_topology_discover(boxbfs_backend_t backend, int devices,
                                         boxbfs_topology_t *topo_p);
/* Release a topology and its open devices (NULL: nothing). */
void boxbfs_topology_free(boxbfs_topology_t topo);
/* Devices described; 0 for NULL. */
int boxbfs_topology_device_count(boxbfs_topology_t topo);
/* "nvml", "cuda p2p attributes", "emulated"; "" for NULL. */
const char *boxbfs_topology_link_source(boxbfs_topology_t topo);
/* Copy device d's description / the pair src -> dst's into the caller's
 * struct. Returns OK, or INVALID_ARG for a NULL topology or pointer or a
 * device out of range. */
boxbfs_status_t boxbfs_topology_device(boxbfs_topology_t topo, int d, boxbfs_device_info_t *info_p);
boxbfs_status_t boxbfs_topology_link(boxbfs_topology_t topo, int src, int dst,
                                     boxbfs_link_info_t *info_p);

typedef enum {
    BOXBFS_PROBE_PEER = 0,     /* peer copy src -> dst                            */
    BOXBFS_PROBE_HOST = 1,     /* src -> pinned host -> dst                       */
    BOXBFS_PROBE_BIDIR = 2,    /* src -> dst and dst -> src at once (both bytes)  */
    BOXBFS_PROBE_MODES = 3
} boxbfs_probe_mode_t;

/* Time copies of each size between every ordered pair, in each mode: one
 * warm-up, then the median of repeats (>= 1) timed with the backend's timers
 * (CUDA events; the monotonic clock on cpu, where a copy is a memcpy). Also
 * measures an 8-byte peer copy per pair (latency). Results stay in topo;
 * sizes (nsizes entries) is read during the call only. Returns OK,
 * INVALID_ARG (topo or sizes NULL, nsizes or repeats < 1), DEVICE,
 * DEVICE_MEMORY, NO_MEMORY. */
boxbfs_status_t boxbfs_topology_probe(boxbfs_topology_t topo, const size_t *sizes, int nsizes,
                                      int repeats);
/* Median seconds of one copy (bidir: of the pair of copies); 0 before a
 * probe, for a NULL topology or any index out of range. */
double boxbfs_topology_probe_time(boxbfs_topology_t topo, int src, int dst,
                                  boxbfs_probe_mode_t mode, int size_index);
/* Median seconds of an 8-byte peer copy src -> dst; 0 as above. */
double boxbfs_topology_probe_latency(boxbfs_topology_t topo, int src, int dst);
/* A link description from the probe: per pair, latency = the 8-byte copy,
 * bandwidth = the largest size's peer-copy bandwidth. *links_p is the
 * caller's (boxbfs_links_free). Returns OK, INVALID_ARG (NULL, or no probe
 * yet), NO_MEMORY. */
boxbfs_status_t boxbfs_topology_probe_links(boxbfs_topology_t topo, boxbfs_links_t *links_p);

/* ---- probe peer paths (issue #16) ----------------------------------------------- */
/* The path the probe's peer copies src -> dst took: 1 direct (peer access
 * enabled before timing), 0 staged by the driver (peer access not possible
 * there), -1 no probe ran, src == dst or an id out of range. */
int boxbfs_topology_probe_direct(boxbfs_topology_t topo, int src, int dst);

/* ---- option names (CLI, JSON) ----------------------------------------------- */
/* Constant strings (static storage) as the CLI spells each value; never NULL,
 * also for a value outside its enum (a placeholder name). */
const char *boxbfs_backend_name(boxbfs_backend_t v);
const char *boxbfs_contract_name(boxbfs_contract_t v);
const char *boxbfs_visited_name(boxbfs_visited_t v);
const char *boxbfs_wire_name(boxbfs_wire_t v);
const char *boxbfs_exchange_name(boxbfs_exchange_t v);
const char *boxbfs_expand_name(boxbfs_expand_t v);
const char *boxbfs_phase_name(boxbfs_phase_t v);
/* "auto", "top-down", "bottom-up" */
const char *boxbfs_search_direction_name(boxbfs_search_direction_t v);
/* "1d", "2d" */
const char *boxbfs_partition_name(boxbfs_partition_t v);
/* "auto", "keep", "recompute" */
const char *boxbfs_parents_name(boxbfs_parents_t v);
const char *boxbfs_search_on_name(boxbfs_search_on_t v);
/* The squarest grid of devices processes: rows >= cols, cols the largest
 * divisor of devices not above its square root (16: 4 x 4, 8: 4 x 2, 2:
 * 2 x 1). */
void boxbfs_grid_default(int devices, int *rows_p, int *cols_p);
/* Parse "RxC" (R, C in [1, 1024]). Returns OK or INVALID_ARG (message says
 * what is wrong); rows_p and cols_p written on OK only. */
boxbfs_status_t boxbfs_grid_parse(const char *text, int *rows_p, int *cols_p);
/* Number of devices the backend can drive here (cpu: unlimited, reports 0
 * meaning "any"); cuda: the visible GPUs, 0 when none or not built in. */
int boxbfs_backend_device_count(boxbfs_backend_t backend);
/* How many of `available` devices a search of a graph of `arcs` arcs should
 * split over (bfs --devices auto): every device needs at least 2^27 arcs of
 * its own to pay for its meetings (on 2 x H200 at 2c28fef, two GPUs ran
 * kron:22, 128 M arcs, at 0.84x of one and kron:24, 521 M arcs, at 1.14x);
 * the environment variable BOXBFS_DEVICES_MIN_ARCS sets another figure.
 * Returns a count in [1, available] (1 where available < 1); why (why_len
 * bytes, may be NULL) gets a sentence saying why. */
int boxbfs_devices_auto(int64_t arcs, int available, char *why, size_t why_len);

/* ---- library: files and errors for programs that link boxbfs (issue 17) ------ */
/* Write the graph as a SNAP-style edge list ("# boxbfs edge list: NAME",
 * "# Nodes: n Edges: m", then "src<TAB>dst" per line in external ids: every
 * stored arc of a directed graph, each edge once of an undirected one). "-"
 * writes to stdout; a path ending in ".gz" is compressed. Vertices without
 * edges are not written (the format cannot hold them). Returns OK,
 * INVALID_ARG (graph or path NULL or empty), IO, NO_MEMORY, UNSUPPORTED (a
 * slice). Thread safety: as boxbfs_graph_save. */
boxbfs_status_t boxbfs_graph_save_edgelist(boxbfs_graph_t graph, const char *path);

/* ---- multi-source BFS (iBFS [000], issue #13; docs/architecture.md, "Multi-source BFS") ------ */
/* Many BFS instances at once, in groups of 32, 64 or 128 sharing one bitwise
 * status array; groups spread over the devices (each holds the whole graph,
 * one host thread per device). Per source the run counts the vertices
 * reached, the eccentricity and the sum of depths (hence closeness) on the
 * fly; whole depth arrays are kept only for the sources asked for. */
typedef struct {
    boxbfs_backend_t backend;
    int devices;               /* 1 to 64 */
    int group_size;            /* instances per group: 32, 64 or 128 */
    int groupby;               /* 1: outdegree GroupBy rules [000 §5.2]; 0: the given order */
    int64_t groupby_p;         /* rule 1: sources of out-degree < p (>= 1) */
    int64_t groupby_q;         /* rule 2: a common neighbour of out-degree > q (>= 0) */
    int32_t max_depth;         /* < 0: no limit; K: depths 0..K only (k-hop counts) */
    double alpha;              /* a level runs bottom-up when the joint frontier's out-arcs
                                  x alpha exceed the in-arcs of the vertices that some
                                  instance has not reached (> 0) */
} boxbfs_msbfs_options_t;

/* Fill *opts with the defaults (NULL: nothing): cpu backend, 1 device,
 * groups of 128, GroupBy on with p = q = 128, no depth limit, alpha 4. */
void boxbfs_msbfs_options_init(boxbfs_msbfs_options_t *opts);

/* One source's figures. */
typedef struct {
    int64_t source;            /* internal id */
    int32_t group;             /* the group it ran in */
    int64_t reached;           /* vertices at a finite depth (<= max_depth), the source included */
    int64_t eccentricity;      /* largest finite depth */
    int64_t sum_depth;         /* sum of the finite depths */
    /* Wasserman-Faust closeness ((r - 1) / (n - 1)) * ((r - 1) / sum_depth),
     * r = reached; 0 when r = 1. (n - 1) / sum_depth on a connected graph. */
    double closeness;
    int64_t input_edges;       /* input edges credited to the reached vertices (Graph500 TEPS) */
    int64_t arcs;              /* out-arcs of the reached vertices (the iBFS paper's count) */
} boxbfs_msbfs_source_t;

typedef struct {
    int32_t device, size;      /* the device that ran it; its instances */
    int32_t levels, top_down_levels, bottom_up_levels;
    double time_s;
    int64_t arcs_touched;      /* arcs inspected by its steps */
    int64_t input_edges, arcs; /* sums over its instances */
} boxbfs_msbfs_group_t;

typedef struct {
    char name[128];
    int32_t groups;
    double busy_s;             /* sum of its groups' times */
    int64_t arcs_touched, input_edges, arcs;
} boxbfs_msbfs_device_t;

typedef struct {
    int64_t nsources;
    int32_t ngroups, ndevices;
    double total_s;            /* first group's start to the last group's end, all devices */
    int64_t input_edges, arcs; /* sums over the sources */
    double teps, teps_arc;     /* input_edges / total_s and arcs / total_s (0 when no time) */
    const boxbfs_msbfs_source_t *sources;   /* nsources, in the order given */
    const boxbfs_msbfs_group_t *groups;     /* ngroups */
    const boxbfs_msbfs_device_t *devices;   /* ndevices */
    /* nsources source indices in group order: group g ran order[g * group_size]
     * up to the next group's first */
    const int64_t *order;
} boxbfs_msbfs_report_t;

typedef struct boxbfs_msbfs_result *boxbfs_msbfs_result_t;

/* The group order boxbfs_msbfs_run will use for these sources and options
 * (which sources share a group) into order (nsources entries, the caller's):
 * with groupby, in three classes: sources of out-degree >= p; those whose
 * highest-degree neighbour (the hub) has out-degree > q; the rest; each class
 * by the hub's out-degree (highest first), then hub, degree and index (sources
 * whose searches reach the bulk of the graph at the same level share groups);
 * without, the given order. Checks the arguments as boxbfs_msbfs_run does.
 * Thread safety: as boxbfs_msbfs_run. */
boxbfs_status_t boxbfs_msbfs_group_order(boxbfs_graph_t graph, const int64_t *sources,
                                         int64_t nsources, const boxbfs_msbfs_options_t *opts,
                                         int64_t *order);

/* Run a BFS from every source (nsources internal ids, distinct; the caller's
 * array, read during the call only) in groups over the devices. keep
 * (nsources entries, may be NULL: none) marks the sources whose depth arrays
 * the result keeps (n int32 each, host memory). opts NULL: the defaults. On
 * success *result_p is the caller's (free it with boxbfs_msbfs_free); it
 * holds no reference to graph, sources or opts.
 * Returns OK; INVALID_ARG (graph, sources or result_p NULL; nsources outside
 * [1, 2^31 - 1]; a source out of range or given twice; a group size other
 * than 32, 64, 128; devices outside [1, 64]; groupby_p < 1, groupby_q < 0,
 * alpha not > 0, an unknown backend); UNSUPPORTED (a slice, over 2^32 - 1
 * vertices, cuda not built in); NO_DEVICE; DEVICE; DEVICE_MEMORY; NO_MEMORY.
 * Thread safety: the graph is only read (runs on one graph may go on in
 * parallel threads; each drives its own devices). */
boxbfs_status_t boxbfs_msbfs_run(boxbfs_graph_t graph, const int64_t *sources, int64_t nsources,
                                 const boxbfs_msbfs_options_t *opts, const uint8_t *keep,
                                 boxbfs_msbfs_result_t *result_p);
/* Release a result (NULL: nothing); its report and depth arrays go with it. */
void boxbfs_msbfs_free(boxbfs_msbfs_result_t result);
/* The run's figures; points into the result (NULL for a NULL result). */
const boxbfs_msbfs_report_t *boxbfs_msbfs_report(boxbfs_msbfs_result_t result);
/* The depths from source number index (its place in the sources given):
 * n entries, -1 unreached (or deeper than max_depth), indexed by internal id;
 * points into the result. NULL for a NULL result, an index out of range or a
 * source whose depths were not kept. */
const int32_t *boxbfs_msbfs_depths(boxbfs_msbfs_result_t result, int64_t index);
/* Check kept sources against the sequential reference BFS of graph (the
 * graph of the run), on all CPUs: every depth, and reached, eccentricity,
 * sum of depths, input edges and arcs. indices (count entries) are source
 * numbers whose depths were kept; verdict (count entries, may be NULL) gets
 * 1 passed / 0 failed per index. Returns OK when all pass; VALIDATION with
 * the first failing index's problem (in index order) in the message;
 * INVALID_ARG (graph, result or indices NULL, count < 1, an index out of
 * range or without kept depths, another graph than the run's vertex count);
 * NO_MEMORY. Several threads may check one result at once. */
boxbfs_status_t boxbfs_msbfs_validate(boxbfs_graph_t graph, boxbfs_msbfs_result_t result,
                                      const int64_t *indices, int64_t count, int *verdict);

/* ---- shortest-path counts (issue #14; docs/architecture.md) ---------------- */
/* A BFS that also counts the shortest paths from the root to every vertex
 * (sigma), on the 1D partition of the engine with (vertex, count) pairs
 * crossing the links, or TurboBFS's SpMV forms on one device [001]. */
typedef enum { BOXBFS_SIGMA_FRONTIER = 0, BOXBFS_SIGMA_SPMV = 1 } boxbfs_sigma_algorithm_t;
typedef enum {
    BOXBFS_SPMV_CSC_SCALAR = 0, BOXBFS_SPMV_CSC_VECTOR = 1, BOXBFS_SPMV_COOC = 2
} boxbfs_spmv_t;

typedef struct {
    boxbfs_backend_t backend;
    int devices;                         /* 1 to 64 (spmv: 1) */
    boxbfs_sigma_algorithm_t algorithm;
    boxbfs_spmv_t spmv;                  /* the SpMV variant of BOXBFS_SIGMA_SPMV */
    /* top-down, bottom-up (one device) or auto: frontier pulls when its arcs
     * outweigh the unreached ones; spmv switches at switch_density */
    boxbfs_search_direction_t direction;
    double switch_density;               /* spmv auto: bottom-up from this frontier density (0, 1] */
    /* devices entries: the GPU of each (one GPU may be named several times:
     * several devices on it); NULL: 0 .. devices - 1. Read during create only. */
    const int *device_ids;
} boxbfs_sigma_options_t;

/* Fill *opts with the defaults (NULL: nothing): cpu, 1 device, frontier,
 * csc-vector, direction auto, switch density 0.10 (TurboBFS), no device ids. */
void boxbfs_sigma_options_init(boxbfs_sigma_options_t *opts);

typedef struct {
    int64_t root;                 /* internal id */
    double time_s;                /* the search, counts included (not the copy to the host) */
    int32_t levels, bottom_up_levels;
    int64_t reached, input_edges; /* input_edges: of the root's component (TEPS) */
    /* 1: a count exceeded 2^64 - 1: the uint64 counts wrapped; the double
     * counts (boxbfs_sigma_run's sigma_d) are the output then */
    int overflow;
    int devices;
    int64_t pair_bytes;           /* (vertex, count) pairs over the links (phase sigma_pairs) */
    int64_t size_bytes;           /* pair counts before each copy (sigma_sizes) */
    int64_t termination_bytes;    /* frontier sums (sigma_termination) */
    int64_t messages;
    const int64_t *link_bytes;    /* devices x devices, row = source */
} boxbfs_sigma_report_t;

typedef struct boxbfs_sigma *boxbfs_sigma_t;

/* Partition the graph over the devices and allocate (the graph must outlive
 * the handle; opts is read during the call only). opts NULL: the defaults.
 * On success *sigma_p is the caller's (free it with boxbfs_sigma_free).
 * Returns OK, INVALID_ARG (graph or sigma_p NULL; devices outside [1, 64];
 * an enum out of range; switch_density not in (0, 1]; options that do not
 * combine: spmv on several devices, bottom-up on several devices; the
 * message says so), UNSUPPORTED (a slice, 2^32 vertices or more, cuda not
 * built in), NO_DEVICE, DEVICE, DEVICE_MEMORY, NO_MEMORY. */
boxbfs_status_t boxbfs_sigma_create(boxbfs_graph_t graph, const boxbfs_sigma_options_t *opts,
                                    boxbfs_sigma_t *sigma_p);
/* Release the handle and its device memory (NULL: nothing). */
void boxbfs_sigma_free(boxbfs_sigma_t sigma);
/* Count the shortest paths from internal root. level (n entries, may be
 * NULL) gets the depths (-1 unreached); counts (n, may be NULL) the counts as
 * exact uint64 (modulo 2^64 when the report says overflow); sigma_d (n, may
 * be NULL) the counts as double: converted from the exact ones, or, on
 * overflow, summed in double level by level on the host (the output of
 * boxbfs bfs --sigma then). *report_p (may be NULL) points into the handle
 * until the next run or free. Arrays are the caller's. Returns OK,
 * INVALID_ARG (sigma NULL, root not in [0, n)), DEVICE, NO_MEMORY.
 * One run at a time per handle. */
boxbfs_status_t boxbfs_sigma_run(boxbfs_sigma_t sigma, int64_t root, int32_t *level,
                                 uint64_t *counts, double *sigma_d,
                                 const boxbfs_sigma_report_t **report_p);
/* Check level and counts (n entries each) from root against the sequential
 * reference of graph: every level, and every count unless a reference count
 * exceeds 2^64 - 1. Returns OK, VALIDATION (the first differing vertex, in
 * external ids, in the message), INVALID_ARG (NULL graph or array, root out
 * of range), UNSUPPORTED (a slice), NO_MEMORY. The graph is only read. */
boxbfs_status_t boxbfs_sigma_validate(boxbfs_graph_t graph, int64_t root, const int32_t *level,
                                      const uint64_t *counts);
/* "frontier", "spmv" / "csc-scalar", "csc-vector", "cooc"; a placeholder
 * (never NULL) for a value outside the enum. */
const char *boxbfs_sigma_algorithm_name(boxbfs_sigma_algorithm_t v);
const char *boxbfs_spmv_name(boxbfs_spmv_t v);

/* ---- betweenness centrality [Brandes] (issue #14) ----------------------------- */
typedef struct {
    boxbfs_backend_t backend;
    int devices;                  /* 1 to 64, each with the whole graph and a share of the sources */
    /* 1: networkx's normalized figures, divided by (n - 1)(n - 2); 0: raw,
     * halved on an undirected graph. Either way a sample (fewer sources than
     * vertices) is scaled by n / sources, as networkx's k does. */
    int normalized;
} boxbfs_bc_options_t;

/* Fill *opts with the defaults (NULL: nothing): cpu, 1 device, not normalized. */
void boxbfs_bc_options_init(boxbfs_bc_options_t *opts);

typedef struct {
    int64_t nsources;
    int devices;
    double total_s;                     /* the run over all sources */
    const int64_t *sources;             /* nsources internal ids, in the order given */
    const double *source_time_s;        /* per source: forward and backward sweeps */
    const int64_t *source_input_edges;  /* per source: input edges of its component (TEPS) */
    /* total_s starts once every device is ready (its copy of the graph held and
     * one source run untimed); from then on each device takes the next source
     * whenever it finishes one. */
    const int32_t *source_device;       /* per source: the device that ran it */
    const double *device_busy_s;        /* per device: the times of the sources it ran */
} boxbfs_bc_report_t;

typedef struct boxbfs_bc_result *boxbfs_bc_result_t;

/* Betweenness of every vertex over the sources (nsources distinct internal
 * ids, the caller's, read during the call only), each source on the next
 * device to finish its last one; sources NULL with nsources 0: every vertex (exact
 * betweenness). opts NULL: the defaults. On success *result_p is the
 * caller's (boxbfs_bc_free). Returns OK; INVALID_ARG (graph or result_p
 * NULL; sources NULL with nsources != 0, or nsources < 1 with sources; a
 * source out of range or given twice; devices outside [1, 64]; an unknown
 * backend); UNSUPPORTED (a slice, 2^32 vertices or more, cuda not built in,
 * a shortest-path count over 2^64 - 1); NO_DEVICE; DEVICE; DEVICE_MEMORY;
 * NO_MEMORY. Thread safety: as boxbfs_msbfs_run. */
boxbfs_status_t boxbfs_bc_run(boxbfs_graph_t graph, const int64_t *sources, int64_t nsources,
                              const boxbfs_bc_options_t *opts, boxbfs_bc_result_t *result_p);
/* Release a result (NULL: nothing). */
void boxbfs_bc_free(boxbfs_bc_result_t result);
/* n values, scaled as the options said; points into the result (NULL for NULL). */
const double *boxbfs_bc_values(boxbfs_bc_result_t result);
/* The run's figures; points into the result (NULL for NULL). */
const boxbfs_bc_report_t *boxbfs_bc_report(boxbfs_bc_result_t result);
/* The name of a device of the run; "" for NULL or a device out of range. */
const char *boxbfs_bc_device_name(boxbfs_bc_result_t result, int device);
/* Compare with the sequential Brandes over the same sources on graph (the
 * run's): *difference_p (may be NULL; written on OK and VALIDATION) gets the
 * largest difference relative to max(1, |reference|) of the unscaled sums.
 * Returns OK (at most 1e-9),
 * VALIDATION (more; the message names the vertex), INVALID_ARG (NULL, a
 * graph of another size), NO_MEMORY. The result and graph are only read. */
boxbfs_status_t boxbfs_bc_validate(boxbfs_graph_t graph, boxbfs_bc_result_t result,
                                   double *difference_p);

/* ---- logging and process exit, for programs that link boxbfs ----------------- */
typedef enum {
    BOXBFS_LOG_ERROR = 0, BOXBFS_LOG_WARN = 1, BOXBFS_LOG_INFO = 2, BOXBFS_LOG_DEBUG = 3
} boxbfs_log_level_t;
/* "boxbfs: warning: message" ("info: ", "debug: "; an error "boxbfs:
 * message") on stderr when BOXBFS_LOG (error, warn: the default, info, debug)
 * lets level through, as the library's own lines: a program's messages follow
 * the same setting. Any thread. */
void boxbfs_log(boxbfs_log_level_t level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A function the library runs before it ends the process itself (an MPI
 * rank's MPI_Abort when another rank failed): remove temporary files there.
 * One per process; NULL removes it. Set it before the first engine. */
void boxbfs_abort_hook_set(void (*hook)(void));

#ifdef __cplusplus
}
#endif
#endif /* BOXBFS_H */
