/* The multi-device level engine [DESIGN "The level engine"]: one host thread
 * per device, a barrier per phase, expand -> contract -> exchange -> update ->
 * terminate, top-down; parents gathered once after the search. Written once
 * above the device-operations table (kernels/kernels.h) and the team
 * (bb_team_ops_t): all devices in this process, or one device per MPI rank. */
#ifndef BB_ENGINE_H
#define BB_ENGINE_H

#include <pthread.h>

#include "boxbfs.h"
#include "common/threads.h"
#include "engine/partition.h"
#include "graph/graph.h"
#include "kernels/kernels.h"
#include "peer/exchange.h"
#include "peer/traffic.h"

#define BB_MAX_ALLOCS 40
#define BB_LOOP_LOG 4096    /* levels one device loop launch logs */
#define BB_LOOP_LOG_FIRST 32   /* log entries read back with the counters */

typedef struct {
    bb_device_t *dev;              /* NULL for a device of another process */
    char name[128];
    bb_kstate_t k;
    void *allocs[BB_MAX_ALLOCS];
    int nallocs;
    size_t memory_bytes, visited_bytes;
    /* the device's arrays by name (bb_engine_dev_alloc: the field it fills),
     * the bytes of the allocations of each name summed; the optional arrays
     * its memory had no room for (boxbfs_engine_device_dropped) */
    struct {
        char name[24];
        size_t bytes;
    } arrays[BB_MAX_ALLOCS];
    int narrays;
    char dropped[160];
    int parents;                   /* BOXBFS_PARENTS_KEEP or _RECOMPUTE, as planned */
    /* The parent gather after the search [README "Memory plan"]: the
     * requests of other devices land in gather_area (room for gather_cap
     * entries: bb_engine_gather_cap); with recompute, the requested vertices
     * are marked in gather_bits (n bits) with a prefix of its words' bit
     * counts in gather_prefix (both in arrays dead after the search). */
    uint32_t *gather_area, *gather_bits, *gather_prefix;
    uint64_t gather_cap;
    bb_level_set_t sent_levels;    /* this search's top-down levels that sent vertices */
    uint64_t *ctr;                 /* host copy of k.counters (pinned: host_alloc), then
                                      the values a level starts from (begin_level) */
    int outbox_dirty;              /* k.outbox_bits has bits set (the last level's) */
    uint64_t *loop_log;            /* host copy of k.level_log (where the loop can run) */
    /* the loop across devices (device_loop.c): this device's mailbox (device
     * memory, BB_MAIL_WORDS per source), and the tag its last level used */
    uint64_t *loop_mail;
    uint64_t loop_tag;
    double expand_s, contract_s, exchange_s, update_s;   /* last level */
    /* this level's timer slots: alias[s] = the slot recorded at the same
     * point (no work between them: no event recorded, no query made) */
    int8_t alias[BB_TIMER_SLOTS];
    int last_stamp;
    /* one device: the device loop queued right after a top-down level, read
     * back with its counters (level.c, queue_loop): levels it ran (-1: none
     * queued), the frontier and arcs it left, its levels' device seconds */
    int64_t loop_runs;
    uint64_t loop_next, loop_next_arcs;
    double loop_s;
    void *search_cache;            /* the backend's device search state (kernels.h search) */
    int search_off;                /* the backend could not set the device search up */
    double t_searched;             /* when this device's search ended (device_search.c; 0:
                                      not on the device) */
    double span_s;                 /* its device search's own time (kernels.h span_ns) */
    int skip_off;                  /* the visited-prefix skip's arrays or temporaries did
                                      not fit this device: it runs without (device_setup.c) */
    int skips;                     /* its rows are ranked: it runs with the skip (every
                                      rank learns the others' in the team's describe) */
    int short_off;                 /* the short rows did not fit this device: its loop
                                      levels read the offsets (device_setup.c) */
    uint32_t *bits[2];             /* the search across devices: the frontier bitmaps (n bits
                                      each; bb_search_t.bits) */
    uint32_t *stage;               /* and its top-down lists for the other devices before
                                      they go into their inboxes: the vertices of each other
                                      range in turn, then their parents (bb_search_t.stage) */
    size_t built_bytes;            /* a graph built on the devices: its rows' offsets and
                                      columns, allocated by device_build.c (0: none) */
    /* the validation of such a graph on this device (device_build.c): the
     * levels of all n vertices and its rows' parents, allocated at the first
     * check and kept (no allocation or free between searches), freed with
     * the engine */
    int32_t *check_level;
    int64_t *check_parent;
} bb_engine_dev_t;

struct boxbfs_engine {
    boxbfs_graph_t graph;
    boxbfs_engine_options_t opts;
    const bb_device_ops_t *ops;
    int ndev;
    int first, nlocal;   /* this process drives devices first .. first + nlocal - 1 */
    int host_rank;       /* one device per process: this process's index among its host's */
    const struct bb_team_ops *team;
    void *team_state;    /* owned by the team (MPI: the communicator) */
    bb_engine_dev_t *devs;
    bb_device_t **handles;
    bb_partition_t part;
    bb_traffic_t traffic;
    bb_barrier_t barrier;
    bb_exchange_t xchg;
    bb_linkmat_t linkmat;       /* per-pair figures in engine order (model, throttle) */
    int *order;                 /* engine device i is physical device order[i] */
    /* one all-to-all round: row s of the matrices is written by device s and
     * published to every device by team->publish_rows */
    uint64_t *send_count, *send_offset, *bytes;   /* ndev x ndev */
    uint8_t *as_bitmap;                           /* ndev x ndev */
    const void **src;    /* [s * ndev + d]: on s, what s sends to d (written by s) */
    void **recv;         /* [d * ndev + s]: on d, where d receives from s (written by d) */
    /* search state shared by the device threads */
    int64_t root;
    uint64_t *frontier_count;   /* per device: the frontier to expand, then the next one */
    uint64_t *frontier_arcs;    /* per device: the out-arcs of frontier_count's vertices */
    uint64_t *level_frontier;   /* per device: the frontier expanded this level */
    /* Direction-optimizing: bottom_up = 1 when bottom-up levels can run (the
     * frontier bitmaps exist). close_level writes dir (of the next level),
     * prev_dir and the totals, the same on every process; the device threads
     * read them after the level's last barrier. */
    int bottom_up;
    int dir, prev_dir;
    uint64_t total_frontier, prev_total_frontier, total_arcs, unexplored;
    int64_t *in_offsets, *in_columns;   /* directed + bottom_up: the transpose (setup only) */
    double gather_modeled_s;    /* link-model time of the parent gather */
    int done;
    int64_t *parent_out;
    int32_t *level_out;
    double t_start, t_level;
    uint64_t searches;          /* boxbfs_engine_run calls so far (the loop's tags) */
    pthread_mutex_t fail_lock;
    boxbfs_status_t fail;
    int fail_dev;               /* the device whose failure fail_message is (-1: not known) */
    char fail_message[1024];
    boxbfs_search_report_t report;
    struct bb_grid2d *grid;     /* --partition 2d (engine2d.c); NULL for 1D */
    uint32_t *skip_order;       /* the visited-prefix skip's degree order during setup */
    /* The search runs on every device of this process at once, and they
     * meet in each other's memory (device_search.c; bb_search_peers_refusal
     * says where it cannot); the abort word they poll (host memory). */
    int search_peers;
    char strategy_why[200];   /* several devices, host-driven levels: why (choose_search) */
    int links_described;      /* the link figures are a description file's or measured */
    int search_ready;   /* every device's search is set up (device_search.c run_peers) */
    uint32_t *abort_word;
    /* Hubs split by destination (hubs.c; kernels.h bb_peers_split_hubs), the
     * search across devices only (0 hubs: none): the vertices of at least
     * hub_degree out-arcs, hub_gid their ids in increasing order (host),
     * device d's hubs from hub_first[d] to hub_first[d + 1] - 1, and
     * hub_arcs[d] the arcs of all the hubs' rows that lead into device d */
    uint32_t hubs, hub_degree;
    uint32_t *hub_gid, *hub_first;
    uint64_t *hub_arcs;
    /* The search across devices: heads[d], device d's vertices that are
     * some arc's head (bb_engine_count_heads); NULL: each device's range */
    uint64_t *heads;
};

/* What differs between "all devices in this process" (bb_team_threads) and
 * "one device per MPI rank" (bb_team_mpi_ptr): how devices meet, how a
 * device's row of the round and its level books reach the others, how a
 * round's payloads move, and how traffic and the tree reach rank 0. The
 * engine is written once above it. Every device calls each op the same
 * number of times, in the same order. */
typedef struct bb_team_ops {
    const char *name;
    /* Decide ndev, first and nlocal (opts.devices: 0 = one per process). */
    boxbfs_status_t (*open)(boxbfs_engine_t e);
    void (*close)(boxbfs_engine_t e);
    /* After this process's setup ended with st: OK when every process's
     * did, else st, or an error naming the device that failed elsewhere. */
    boxbfs_status_t (*agree)(boxbfs_engine_t e, boxbfs_status_t st);
    /* After setup: make every device's name and memory known here. */
    boxbfs_status_t (*describe)(boxbfs_engine_t e);
    /* Wait for every device; 1 if the search was aborted. */
    int (*barrier)(boxbfs_engine_t e);
    /* Rows self of send_count, send_offset, bytes and as_bitmap (and the
     * recv row) are written: make the matrices whole everywhere. 1: aborted. */
    int (*publish_rows)(boxbfs_engine_t e, int self);
    /* frontier_count[self], level_frontier[self] and devs[self]'s phase times
     * are written: make them known everywhere. 1: aborted. */
    int (*publish_books)(boxbfs_engine_t e, int self);
    /* Move one round's payloads (bytes, src, recv are whole), counting each
     * message on its link where it is sent. */
    boxbfs_status_t (*exchange)(boxbfs_engine_t e, const bb_exchange_round_t *r, int self);
    /* After copy_results: sum the traffic and gather the tree on rank 0. */
    boxbfs_status_t (*finish)(boxbfs_engine_t e, int self);
    /* A device failed (its status is recorded): stop the others. */
    void (*fail)(boxbfs_engine_t e);
    /* --exchange nccl: the communicators of this process's devices into
     * e->xchg.nccl (rank = engine device index), after the devices opened. */
    boxbfs_status_t (*nccl_open)(boxbfs_engine_t e);
    /* Collectives of boxbfs_engine_check_tree, called by every process.
     * Several processes only (NULL in the thread team): every process's
     * rows [part.lo[first], part.lo[first + nlocal]) of level (n entries)
     * into every process's level; */
    boxbfs_status_t (*allgather_levels)(boxbfs_engine_t e, int32_t *level);
    /* several processes only: counts[p] records of width int64s (send
     * holds them in process order) to process p; *recv_p (malloc'ed, the
     * caller frees it) receives the records sent here, in process order,
     * *nrecv_p their count. Every process returns the same status; */
    boxbfs_status_t (*exchange_records)(boxbfs_engine_t e, const int64_t *send,
                                        const int64_t *counts, int width, int64_t **recv_p,
                                        int64_t *nrecv_p);
    /* sum (max = 0) or maximum (max = 1) of count values over processes, in
     * place, everywhere; */
    boxbfs_status_t (*allreduce)(boxbfs_engine_t e, int64_t *values, int count, int max);
    /* after this process's part ended with st: OK when every process's did,
     * else everywhere the status and message of the lowest failing rank. */
    boxbfs_status_t (*first_error)(boxbfs_engine_t e, boxbfs_status_t st);
} bb_team_ops_t;

extern const bb_team_ops_t bb_team_threads;
/* NULL when built without MPI (engine/team_none.c). */
extern const bb_team_ops_t *const bb_team_mpi_ptr;


/* The layers [DESIGN "Where a search runs"]; each calls only those below it.
 *   engine.c          creates engines, plans each search, picks its strategy
 *   strategies        device_search.c (one device, or several that meet in
 *                     each other's memory), host_levels.c (host-driven
 *                     levels, with device_loop.c for runs of small levels),
 *                     engine2d.c (--partition 2d)
 *   services          books.c (rules and books), device_setup.c (memory plan,
 *                     device state), gather.c (parents after a search),
 *                     setup.c (options, devices, links, exchange, failure),
 *                     the team (team*.c), peer/ (exchange and traffic)
 *   ground            the device-operations table (kernels/kernels.h) */

#define BB_PEER_TIMEOUT_NS 10000000000ull   /* a device that has not come in 10 s failed */

/* ---- strategies ---------------------------------------------------------- */

/* The device search (device_search.c): whether this engine's searches run
 * on the devices (one device: atomic, the device loop on, a backend that
 * could set it up; several: e->search_peers), and the whole search from
 * level 0 on device d, booked (e->done left unset where one device's
 * backend could not set it up). */
int bb_search_fits(const struct boxbfs_engine *e);
boxbfs_status_t bb_search_run(boxbfs_engine_t e, int d);
/* Several devices, before a search's time starts: every link between the
 * devices woken (kernels.h peers_wake), device d's part. */
boxbfs_status_t bb_search_wake(boxbfs_engine_t e, int d);
/* Why the search cannot run on these several devices at once (a phrase
 * for a message), NULL where it can; peer_ok: every pair has peer access. */
const char *bb_search_peers_refusal(const struct boxbfs_engine *e, int peer_ok);

/* Host-driven levels (host_levels.c): device d's levels from level 0 to
 * the end; OK with the barrier aborted where another device failed. */
boxbfs_status_t bb_host_levels_run(boxbfs_engine_t e, int d);

/* The device loop of small levels (device_loop.c): whether the next level
 * starts it; run it from *level_p on device d (every device's thread at
 * once where there are several) and book the levels it ran: *level_p moves
 * past them, *runs_p of them; *aborted_p = 1 where a barrier was aborted. */
int bb_loop_fits(const struct boxbfs_engine *e);
boxbfs_status_t bb_loop_run(boxbfs_engine_t e, int d, int *level_p, uint64_t *runs_p,
                            int *aborted_p);
/* One device: queue it behind a shrinking top-down level (bb_loop_queues),
 * and book the levels a queued loop ran (bb_loop_book). */
int bb_loop_queues(const struct boxbfs_engine *e);
boxbfs_status_t bb_loop_queue(boxbfs_engine_t e, int d, int32_t next_level);
boxbfs_status_t bb_loop_book(boxbfs_engine_t e, int d, int *level_p, uint64_t runs, uint64_t next,
                             uint64_t next_arcs);

/* ---- services: rules and books (books.c) ---------------------------------- */

/* Beamer's rule with the engine's options, and the direction it gives the
 * level the engine's totals stand at; whether a top-down level also leaves
 * its discoveries in own_bits (one device, atomic, auto). */
bb_dir_rule_t bb_engine_dir_rule(const struct boxbfs_engine *e);
/* The alpha an engine takes where its options leave it 0. */
double bb_engine_auto_alpha(int ndev);
int bb_engine_choose_direction(const struct boxbfs_engine *e);
int bb_engine_td_marks_bits(const struct boxbfs_engine *e);
/* After level `level` found total_next vertices with total_arcs out-arcs:
 * termination, the next level's totals and direction (the same on every
 * process), its row in the books. */
boxbfs_status_t bb_engine_advance(boxbfs_engine_t e, int level, uint64_t total_next,
                                  uint64_t total_arcs);
/* Device 0's thread: level `level`'s row and control messages from the
 * round's matrices (send_count, as_bitmap, bytes) and each device's frontier:
 * sent vertices, bitmap messages, every pair's size message before a
 * top-down round, the termination reduce, the modeled exchange. */
void bb_engine_book_round(boxbfs_engine_t e, int level, int dir, const uint64_t *frontier);
/* Book level `level` of one device from its log row L (frontier, arcs,
 * nanoseconds), run top-down in the device loop or, by the device search,
 * in direction dir; then advance to the next frontier of next vertices with
 * next_arcs arcs. */
boxbfs_status_t bb_engine_book_row(boxbfs_engine_t e, int level, const uint64_t *L, int dir,
                                   int device_loop, uint64_t next, uint64_t next_arcs);
/* Several devices: device s's part of level `level` from its log row L
 * (frontier; expand, the waits in meetings as the exchange, the rest as the
 * update), the level's times the busiest device's. */
void bb_engine_book_device(boxbfs_engine_t e, int level, int s, const uint64_t *L);
/* OK where a device's log row L of level `level`, run in direction dir, is
 * the level the engine's totals expect; INTERNAL naming both otherwise. */
boxbfs_status_t bb_engine_expect_level(const struct boxbfs_engine *e, int level, const uint64_t *L,
                                       int dir);

/* ---- services: device memory (dev_alloc.c) --------------------------------- */

/* Allocate bytes of device d's memory, freed with the engine and counted in
 * its memory_bytes and in its arrays under name; out of memory names the
 * bytes asked, held and free. bb_engine_dev_alloc names the array after the
 * field or variable ptr_p points to (&k->offsets: "offsets"; &D->bits[b]:
 * "bits"), the name the code and docs/architecture.md give it. */
boxbfs_status_t bb_engine_dev_alloc_named(boxbfs_engine_t e, int d, size_t bytes, void *ptr_p,
                                          const char *name);
#define bb_engine_dev_alloc(e, d, bytes, ptr_p) \
    bb_engine_dev_alloc_named((e), (d), (bytes), (ptr_p), #ptr_p)
/* Device d goes without the optional arrays `what` (no room for them):
 * added to what its report names (boxbfs_engine_device_dropped). */
void bb_engine_dropped(boxbfs_engine_t e, int d, const char *what);
/* What a device without room for the visited-prefix skip goes without (1D and 2D). */
#define BB_SKIP_ARRAYS "rank, by_rank, skip (the visited-prefix skip)"
/* bytes as "12.34 KiB|MiB|GiB" into buf (the figures of the memory messages). */
const char *bb_engine_human_bytes(char buf[24], double bytes);

/* ---- services: graphs built on the devices (device_build.c) --------------- */

/* Every device of this process builds its rows of the graph (made with
 * build_on_devices) into its offsets and columns, and the graph gets its
 * offsets, edge credits and arcs. */
boxbfs_status_t bb_engine_build_rows(boxbfs_engine_t e);
/* Graph500 validation of rows [lo, hi) of a graph built on the devices,
 * their columns read back from the devices in bands (check_tree.c). */
boxbfs_status_t bb_engine_validate_built(boxbfs_engine_t e, int64_t root, const int64_t *parent,
                                         const int32_t *level, boxbfs_tree_info_t *info_p);

/* ---- services: memory plan and device state (device_setup.c) -------------- */

/* Plan, check, allocate and upload device d. */
boxbfs_status_t bb_engine_setup_device(boxbfs_engine_t e, int d);
/* Before a graph is built on the devices: device d's least plan with its
 * rows as rows_bytes, refused as bb_engine_setup_device would (device_setup.c). */
boxbfs_status_t bb_engine_check_build(boxbfs_engine_t e, int d, size_t rows_bytes);
/* Several devices, atomic contraction, wire bitmap or auto: the outbox is a
 * bitmap of the remote vertices found this level (kstate.outbox_bits), and
 * only the owners sent a list get one, unpacked from it (host_levels.c). */
int bb_engine_lean_outbox(const struct boxbfs_engine *e);
/* The parent gather's request room on device d, in entries: the same on
 * every process (it depends on the partition and the options only), so
 * every device knows how another one's requests are grouped. */
uint64_t bb_engine_gather_cap(const struct boxbfs_engine *e, int d);
/* Atomic, several devices, --wire list: 1 where device d holds the list
 * layout within its memory (the parents recomputed and the skip dropped if
 * need be), 0 where it cannot (then --wire auto). */
int bb_engine_list_fits(boxbfs_engine_t e, int d);
/* The search across devices (e->search_peers): 1 where device d holds its
 * layout within its memory (the visited-prefix skip dropped if need be). */
int bb_engine_search_fits(boxbfs_engine_t e, int d);
/* The search across devices: a level sends device d at most its vertices
 * that have in-arcs (the others are nobody's neighbor), so its inbox region
 * per source and every other device's list for it hold that many entries
 * (e->heads, counted once; without in-arcs of a directed graph, d's range);
 * and the sum of the other devices' (the lists device d keeps). */
boxbfs_status_t bb_engine_count_heads(boxbfs_engine_t e);
uint64_t bb_engine_peer_cap(const struct boxbfs_engine *e, int d);
uint64_t bb_engine_peer_caps_but(const struct boxbfs_engine *e, int d);
/* Whether device d's rows are ranked for the visited-prefix skip (kstate
 * rank_prefix). */
int bb_engine_prefix_skip(const struct boxbfs_engine *e, int d);
/* Whether the visited-prefix skip is asked for (1D and 2D): not where
 * BOXBFS_PREFIX_SKIP=0 (to measure what it saves). */
int bb_engine_skip_asked(void);
/* The device loop across devices: possible with these options and
 * partition (setup allocates its log and mailboxes); the rows its log
 * holds. */
int bb_loop_across_devices(const struct boxbfs_engine *e);
uint32_t bb_loop_log_rows(int ndev);
/* Device d's counters to its host copy (and sync); where device d takes
 * source o's message, and how many entries each such region holds; its
 * mailbox lines of the loop's meetings cleared for a new search. */
boxbfs_status_t bb_engine_read_counters(boxbfs_engine_t e, int d);
/* e->skip_order: the degree order of the whole graph (bb_graph_degree_order)
 * that ranks the visited-prefix skip's rows (1D and 2D), made for the first
 * device that needs it, freed once all are set up (engine.c, setup_local). */
boxbfs_status_t bb_engine_skip_order(boxbfs_engine_t e);
uint32_t *bb_engine_inbox_region(boxbfs_engine_t e, int d, int o);
uint64_t bb_engine_inbox_cap(const struct boxbfs_engine *e, int d);
boxbfs_status_t bb_engine_mail_words(boxbfs_engine_t e, int d);

/* ---- services: hubs split by destination (hubs.c) ------------------------ */

/* The search across devices (e->search_peers): pick the hubs (--hub-degree,
 * the graph whole in this process) and size each device's part of their
 * rows (e->hubs and the rest; none where they are off or no vertex
 * qualifies); free them. */
boxbfs_status_t bb_hubs_choose(boxbfs_engine_t e);
void bb_hubs_free(boxbfs_engine_t e);
/* Device d's hub state in its kstate, and its part of the hubs' rows after
 * its own rows (offsets and columns hold room for them). */
boxbfs_status_t bb_hubs_upload(boxbfs_engine_t e, int d);
/* Device d's rows' offsets as the graph counts them (from offsets[lo]),
 * its own then the hubs' parts (hi - lo + hubs + 1; malloc'ed). */
boxbfs_status_t bb_hubs_rows(const struct boxbfs_engine *e, int d, int64_t **rows_p);

/* ---- services: the parent gather (gather.c) ------------------------------- */

boxbfs_status_t bb_engine_gather(boxbfs_engine_t e, int self);

/* ---- services: setup and failure (setup.c) -------------------------------- */

/* The backend's table (NULL: not built in); the options checked. */
const bb_device_ops_t *bb_engine_backend_ops(boxbfs_backend_t backend);
boxbfs_status_t bb_engine_check_options(boxbfs_graph_t g, const boxbfs_engine_options_t *o);
/* This process's devices and links opened, the transpose bottom-up needs. */
boxbfs_status_t bb_engine_open_local(boxbfs_engine_t e);
/* Peer access between every pair of this process's devices (enabled where
 * possible): *ok_p = 0 and the first pair without it in *a_p, *b_p where
 * some pair has none. */
boxbfs_status_t bb_engine_enable_peers(boxbfs_engine_t e, int *ok_p, int *a_p, int *b_p);
/* *slow_p = 1 and why where some pair of this process's devices is linked
 * slower than NVLink as far as the engine knows (link_speed.c: a link
 * description file or measured figures under 100 GB/s, or GPUs without an
 * NVLink between them by NVML); 0 where all are fast or nothing is known. */
boxbfs_status_t bb_engine_slow_links(const struct boxbfs_engine *e, int *slow_p, char *why,
                                     size_t why_len);
/* --wire list where every device holds it, else auto (a collective). */
boxbfs_status_t bb_engine_choose_wire(boxbfs_engine_t e);
/* The exchange (peer, staged, NCCL, MPI) and the round's matrices. */
boxbfs_status_t bb_engine_setup_exchange(boxbfs_engine_t e);
/* Record device d's failure and abort the barrier: the first one wins,
 * unless a later one comes from the device that raised the abort word
 * first (the others' then only say that another device failed; d < 0: not
 * known). bb_engine_raise_abort: device d failed, every device's wait in a
 * meeting ends. */
void bb_engine_fail(boxbfs_engine_t e, int d, boxbfs_status_t st);
void bb_engine_raise_abort(boxbfs_engine_t e, int d);

#endif /* BB_ENGINE_H */
