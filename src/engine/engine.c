/* Engine setup: check the options, partition the graph, open the devices,
 * settle the links and their order, set up each device (device_setup.c) and
 * the exchange, and tear everything down again on any failure (no leak on
 * any error path). */
#include "config.h"

#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "kernels/fault.h"
#include "engine/engine2d.h"
#include "topology/topology.h"

static const bb_device_ops_t *backend_ops(boxbfs_backend_t backend)
{
    return backend == BOXBFS_BACKEND_CUDA ? bb_cuda_ops_ptr : &bb_cpu_ops;
}

static boxbfs_status_t open_devices(boxbfs_engine_t e)
{
    int available = 0;
    BB_CHECK(e->ops->count(&available));
    if (e->opts.backend == BOXBFS_BACKEND_CUDA && available == 0)
        return bb_error_set(BOXBFS_ERR_NO_DEVICE, "the cuda backend found no GPU");
    for (int d = e->first; d < e->first + e->nlocal; d++) {
        /* one device per process, no ids given: the host's device of this process's number */
        int per_process = e->nlocal < e->ndev && !e->opts.device_ids && available > 0;
        int id = per_process ? e->host_rank % available : e->order[d];
        if (per_process && e->opts.backend == BOXBFS_BACKEND_CUDA && e->host_rank >= available)
            return bb_error_set(BOXBFS_ERR_NO_DEVICE,
                                "process %d on this host has no GPU of its own (%d GPU%s here): "
                                "start at most one process per GPU", e->host_rank, available,
                                available == 1 ? "" : "s");
        if (available > 0 && (id < 0 || id >= available))
            return bb_error_set(BOXBFS_ERR_NO_DEVICE,
                                "device %d does not exist (%d %s device%s available: 0..%d)", id,
                                available, e->ops->name, available == 1 ? "" : "s", available - 1);
        BB_CHECK(e->ops->open(id, &e->devs[d].dev, e->devs[d].name, sizeof e->devs[d].name));
        e->handles[d] = e->devs[d].dev;
        e->order[d] = id;   /* the physical device (NCCL opens its rank there) */
    }
    return BOXBFS_OK;
}

/* Per-pair figures (measured, a description, or the single link model) and,
 * with --order topology, the ring order: devices, handles and figures are
 * permuted before any device memory is planned. */
static boxbfs_status_t setup_links(boxbfs_engine_t e)
{
    int n = e->ndev;
    if (e->opts.links_measured) {
        /* 4 MiB peer copies, 3 repeats after a warm-up, plus the 8-byte latency */
        const size_t sizes[1] = {(size_t)4 << 20};
        bb_probe_t p;
        BB_CHECK(bb_probe_run(e->ops, e->handles, n, sizes, 1, 3, 1 << BOXBFS_PROBE_PEER, &p));
        boxbfs_status_t st = bb_probe_linkmat(&p, &e->linkmat);
        bb_probe_free(&p);
        BB_CHECK(st);
    } else if (e->opts.links) {
        BB_CHECK(bb_links_resolve(e->opts.links, n, e->order, &e->linkmat));
    } else {
        BB_CHECK(bb_linkmat_uniform(&e->linkmat, n, &e->opts.link_model));
    }
    if (e->opts.order == BOXBFS_ORDER_TOPOLOGY && n > 2) {
        int *perm;
        bb_engine_dev_t *devs;
        boxbfs_status_t st = BOXBFS_OK;
        BB_CHECK(bb_calloc((size_t)n, sizeof *perm, "the ring order", &perm));
        BB_CHECK_GOTO(bb_calloc((size_t)n, sizeof *devs, "device records", &devs), st, out);
        bb_topo_ring_order(&e->linkmat, perm);
        BB_CHECK_GOTO(bb_linkmat_permute(&e->linkmat, perm), st, out_devs);
        for (int i = 0; i < n; i++) devs[i] = e->devs[perm[i]];
        for (int i = 0; i < n; i++) {
            int id = e->order[perm[i]];
            e->devs[i] = devs[i];
            e->handles[i] = devs[i].dev;
            perm[i] = id;
        }
        memcpy(e->order, perm, (size_t)n * sizeof *perm);
    out_devs:
        free(devs);
    out:
        free(perm);
        BB_CHECK(st);
    }
    /* the report's link model: the description's name, the 0 -> 1 figures */
    if (e->opts.links_measured || e->opts.links) {
        snprintf(e->opts.link_model.name, sizeof e->opts.link_model.name, "%s", e->linkmat.name);
        if (n > 1) {
            e->opts.link_model.bandwidth_Bps = e->linkmat.bw[1];
            e->opts.link_model.latency_s = e->linkmat.lat[1];
        }
    }
    e->opts.links = NULL;   /* borrowed: not kept */
    return BOXBFS_OK;
}

const boxbfs_link_model_t *boxbfs_engine_link_model(boxbfs_engine_t e)
{
    return e ? &e->opts.link_model : NULL;
}

boxbfs_status_t boxbfs_engine_device_order(boxbfs_engine_t e, int *ids_p, int n)
{
    if (e == NULL || ids_p == NULL || n < e->ndev)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_device_order: bad arguments");
    memcpy(ids_p, e->order, (size_t)e->ndev * sizeof *ids_p);
    return BOXBFS_OK;
}

/* Peer access between every pair of this process's devices (enabled where
 * possible): *ok_p = 0 and the first pair without it in *a_p, *b_p where
 * some pair has none. BOXBFS_DISABLE_PEER=1 pretends none has (tests). */
static boxbfs_status_t enable_peers(boxbfs_engine_t e, int *ok_p, int *a_p, int *b_p)
{
    const char *env = getenv("BOXBFS_DISABLE_PEER");
    int no_peer = env != NULL && strcmp(env, "1") == 0;
    *ok_p = 1;
    for (int a = e->first; a < e->first + e->nlocal; a++)
        for (int b = e->first; b < e->first + e->nlocal; b++) {
            int ok = 0;
            if (a == b) continue;
            if (!no_peer) BB_CHECK(e->ops->enable_peer(e->handles[a], e->handles[b], &ok));
            if (!ok && *ok_p) {
                *ok_p = 0;
                *a_p = a;
                *b_p = b;
            }
        }
    return BOXBFS_OK;
}

static boxbfs_status_t setup_exchange(boxbfs_engine_t e)
{
    int ndev = e->ndev, ok = 1, a = 0, b = 0;
    size_t cells = (size_t)ndev * (size_t)ndev;
    e->xchg = (bb_exchange_t){.ndev = ndev, .run = bb_exchange_leftright, .ops = e->ops,
                              .devs = e->handles, .barrier = &e->barrier,
                              .traffic = &e->traffic,
                              .throttle = e->opts.throttle ? &e->linkmat : NULL};
    if (e->opts.exchange == BOXBFS_EXCHANGE_MPI) {
        /* payloads go by MPI from device memory the rank reads and writes */
    } else if (e->opts.exchange == BOXBFS_EXCHANGE_NCCL) {
        /* the communicators open once every process's setup succeeded */
        e->xchg.run = bb_exchange_nccl;
    } else if (e->opts.exchange == BOXBFS_EXCHANGE_PEER) {
        BB_CHECK(enable_peers(e, &ok, &a, &b));
        if (!ok) {
            BB_WARN(-1, "no peer access %d -> %d: using the host-staged exchange "
                        "(--exchange host)", a, b);
            e->xchg.staged = 1;
        }
    } else {
        e->xchg.staged = 1;
    }
    if (e->xchg.staged) {
        e->xchg.stage_bytes = (size_t)e->graph->n * 4 + 64;
        BB_CHECK(bb_calloc((size_t)ndev, sizeof(void *), "staging pointers", &e->xchg.stage));
        for (int d = 0; d < ndev; d++)
            BB_CHECK(e->ops->host_alloc(e->handles[d], e->xchg.stage_bytes, &e->xchg.stage[d]));
    }
    BB_CHECK(bb_calloc(cells, 8, "send counts", &e->send_count));
    BB_CHECK(bb_calloc(cells, 8, "send offsets", &e->send_offset));
    BB_CHECK(bb_calloc(cells, 8, "message sizes", &e->bytes));
    BB_CHECK(bb_calloc(cells, 1, "wire formats", &e->as_bitmap));
    BB_CHECK(bb_calloc(cells, sizeof(void *), "message sources", &e->src));
    BB_CHECK(bb_calloc(cells, sizeof(void *), "message destinations", &e->recv));
    BB_CHECK(bb_calloc((size_t)ndev, 8, "frontier counts", &e->frontier_count));
    BB_CHECK(bb_calloc((size_t)ndev, 8, "frontier arcs", &e->frontier_arcs));
    BB_CHECK(bb_calloc((size_t)ndev, 8, "frontier counts", &e->level_frontier));
    return BOXBFS_OK;
}

/* A slice holds the columns of its rows only: they must be exactly the rows
 * of this process's devices. */
static boxbfs_status_t check_slice(boxbfs_engine_t e)
{
    const struct boxbfs_graph *g = e->graph;
    int64_t lo = (int64_t)e->part.lo[e->first], hi = (int64_t)e->part.lo[e->first + e->nlocal];
    if (!bb_graph_is_slice(g)) return BOXBFS_OK;
    if (e->team != bb_team_mpi_ptr)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "graph %s is an MPI rank's slice (rows [%lld, %lld) of %lld): it "
                            "runs with one device per MPI rank only (--exchange mpi, or nccl "
                            "under mpirun)", g->name, (long long)g->row_lo,
                            (long long)g->row_hi, (long long)g->n);
    if (lo != g->row_lo || hi != g->row_hi)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "graph %s is a slice holding rows [%lld, %lld), but device %d owns "
                            "rows [%lld, %lld) of the partition over %d devices: load the slice "
                            "with as many processes as the engine runs", g->name,
                            (long long)g->row_lo, (long long)g->row_hi, e->first, (long long)lo,
                            (long long)hi, e->ndev);
    return BOXBFS_OK;
}

/* Bottom-up levels need the frontier bitmaps, and on a directed graph the
 * in-arcs of each device's rows: the transpose, built here from the whole
 * graph and dropped once the devices hold their rows. A directed slice has
 * no way to them: bottom-up is refused, auto stays top-down. */
static boxbfs_status_t setup_bottom_up(boxbfs_engine_t e)
{
    const struct boxbfs_graph *g = e->graph;
    e->bottom_up = e->opts.direction != BOXBFS_SEARCH_TOP_DOWN;
    if (!e->bottom_up || !g->directed) return BOXBFS_OK;
    if (bb_graph_is_slice(g)) {
        if (e->opts.direction == BOXBFS_SEARCH_BOTTOM_UP)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "bottom-up levels on directed graph %s need the in-arcs of the "
                                "whole graph, which an MPI rank's slice does not hold: use "
                                "--direction top-down, or --whole-graph", g->name);
        BB_WARN(-1, "directed graph %s is loaded as slices: no in-arcs, so --direction auto "
                    "runs top-down only (--whole-graph allows bottom-up levels)", g->name);
        e->bottom_up = 0;
        return BOXBFS_OK;
    }
    return bb_graph_transpose_csr(g, &e->in_offsets, &e->in_columns);
}

/* Open this process's devices and links, and the transpose bottom-up needs. */
static boxbfs_status_t open_local(boxbfs_engine_t e)
{
    BB_CHECK(check_slice(e));
    BB_CHECK(open_devices(e));
    BB_CHECK(setup_links(e));
    return setup_bottom_up(e);
}

/* The atomic method's --wire list holds an outbox of n entries and an inbox
 * region of its range per source on every device, a layout over the memory
 * budget of a device's share [README "Memory plan"]. Where some device of
 * any process cannot hold it, every device takes the bitmap outbox of
 * --wire auto instead (about n/8 bytes each: the wire format is the same on
 * every device), with a warning; the report names the wire that ran. Every
 * process calls it (a collective). */
static boxbfs_status_t choose_wire(boxbfs_engine_t e)
{
    int64_t short_of = 0;
    if (e->grid || e->ndev < 2 || e->opts.contract != BOXBFS_CONTRACT_ATOMIC ||
        e->opts.wire != BOXBFS_WIRE_LIST)
        return BOXBFS_OK;
    for (int d = e->first; d < e->first + e->nlocal; d++)
        if (!bb_engine_list_fits(e, d)) short_of = 1;
    BB_CHECK(e->team->allreduce(e, &short_of, 1, 1));
    if (!short_of) return BOXBFS_OK;
    e->opts.wire = BOXBFS_WIRE_AUTO;
    if (e->first == 0)
        BB_WARN(-1, "--wire list needs an outbox of %lld entries and an inbox on every device, "
                    "more than some device has free%s: the outbox is a bitmap instead (--wire "
                    "auto)", (long long)e->graph->n,
                e->opts.device_memory_limit ? " under --memory-limit" : "");
    return BOXBFS_OK;
}

/* Where the search runs (boxbfs_search_on_t): on several devices at once
 * where they can meet in each other's memory, with the abort word they
 * poll; --search-on device where that cannot be says why. */
static boxbfs_status_t choose_search(boxbfs_engine_t e)
{
    int ok = 1, a = 0, b = 0;
    const char *why;
    if (e->ndev > 1 && e->nlocal == e->ndev && e->opts.exchange == BOXBFS_EXCHANGE_PEER)
        BB_CHECK(enable_peers(e, &ok, &a, &b));
    why = bb_search_peers_refusal(e, ok);
    if (e->opts.search_on == BOXBFS_SEARCH_ON_DEVICE) {
        if (e->ndev == 1 && (e->opts.contract != BOXBFS_CONTRACT_ATOMIC ||
                             e->opts.device_loop_arcs <= 0 || e->grid))
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "--search-on device needs --contract atomic, the device loop "
                                "on (--device-loop > 0) and the 1d partition");
        if (e->ndev > 1 && why)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "--search-on device: the search cannot run on these %d devices "
                                "at once: %s", e->ndev, why);
        if (e->ndev > 1 && !ok)
            return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                                "--search-on device: device %d has no peer access to device %d",
                                a, b);
    }
    e->search_peers = e->ndev > 1 && why == NULL && e->opts.search_on != BOXBFS_SEARCH_ON_HOST;
    for (int d = 0; e->search_peers && d < e->ndev; d++) {
        if (bb_engine_search_fits(e, d)) continue;
        if (e->opts.search_on == BOXBFS_SEARCH_ON_DEVICE)
            return bb_error_set(BOXBFS_ERR_DEVICE_MEMORY,
                                "--search-on device: device %d cannot hold the search across "
                                "devices (an inbox of vertices and parents per other device)%s; "
                                "try more devices or --search-on auto", d,
                                e->opts.device_memory_limit ? " under --memory-limit" : "");
        BB_WARN(-1, "device %d cannot hold the search across devices (an inbox of vertices and "
                    "parents per other device)%s: the host drives the levels", d,
                e->opts.device_memory_limit ? " under --memory-limit" : "");
        e->search_peers = 0;
    }
    if (e->ndev > 1 && e->nlocal == e->ndev) {   /* devices that may meet: their abort word */
        BB_CHECK(e->ops->host_alloc(e->handles[0], sizeof *e->abort_word,
                                    (void **)&e->abort_word));
        *e->abort_word = 0;
    }
    return BOXBFS_OK;
}

/* Open this process's devices, plan, check and set up each, and the
 * exchange. Every process agrees on the opening before the wire is chosen
 * (a collective that a failed process would never reach). */
static boxbfs_status_t setup_local(boxbfs_engine_t e)
{
    BB_CHECK(e->team->agree(e, open_local(e)));
    BB_CHECK(choose_search(e));
    BB_CHECK(choose_wire(e));
    for (int d = 0; d < e->ndev; d++) e->devs[d].parents = BOXBFS_PARENTS_KEEP;   /* 2d: kept */
    for (int d = e->first; d < e->first + e->nlocal; d++)
        BB_CHECK(e->grid ? bb_grid2d_setup_device(e, d) : bb_engine_setup_device(e, d));
    free(e->in_offsets);
    free(e->in_columns);
    free(e->skip_order);
    e->in_offsets = e->in_columns = NULL;
    e->skip_order = NULL;
    BB_CHECK(setup_exchange(e));
    return BOXBFS_OK;
}

/* One device per MPI rank (the MPI team): --exchange mpi, and --exchange
 * nccl when an MPI launcher started several processes. */
int boxbfs_one_device_per_process(const boxbfs_engine_options_t *o)
{
    if (o == NULL) return 0;
    return o->exchange == BOXBFS_EXCHANGE_MPI ||
           (o->exchange == BOXBFS_EXCHANGE_NCCL && boxbfs_mpi_launched_processes() > 1);
}

static boxbfs_status_t check_options(boxbfs_graph_t g, const boxbfs_engine_options_t *o)
{
    /* enum fields: a caller's struct may hold any int (unsigned: negatives fail too) */
    const struct { const char *what; unsigned value, max; } enums[] = {
        {"backend", (unsigned)o->backend, BOXBFS_BACKEND_CUDA},
        {"contraction method", (unsigned)o->contract, BOXBFS_CONTRACT_ATOMIC},
        {"visited layout", (unsigned)o->visited, BOXBFS_VISITED_BIT},
        {"wire format", (unsigned)o->wire, BOXBFS_WIRE_AUTO},
        {"exchange", (unsigned)o->exchange, BOXBFS_EXCHANGE_NCCL},
        {"expand method", (unsigned)o->expand, BOXBFS_EXPAND_MERGEPATH},
        {"parents mode", (unsigned)o->parents, BOXBFS_PARENTS_RECOMPUTE},
        {"search place", (unsigned)o->search_on, BOXBFS_SEARCH_ON_HOST},
    };
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
        if (enums[i].value > enums[i].max)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG, "%s %d out of range [0, %u]", enums[i].what,
                                (int)enums[i].value, enums[i].max);
    if (o->parents == BOXBFS_PARENTS_RECOMPUTE && o->partition == BOXBFS_PARTITION_2D)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--parents recompute runs with the 1d partition only (the 2d "
                            "engine keeps the parents of remote discoveries)");
    if (o->exchange == BOXBFS_EXCHANGE_MPI && bb_team_mpi_ptr == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--exchange mpi is not built in (rebuild with --with-mpi)");
    if (boxbfs_one_device_per_process(o) && bb_team_mpi_ptr == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "an MPI launcher started %d processes, but boxbfs was built without "
                            "MPI: --exchange nccl across processes needs a build --with-mpi (or "
                            "start one process: it drives every GPU)",
                            boxbfs_mpi_launched_processes());
    if (o->exchange == BOXBFS_EXCHANGE_NCCL && bb_nccl_ops_ptr == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--exchange nccl is not built in (configure found no CUDA or no "
                            "NCCL; rebuild with --with-cuda --with-nccl)");
    if (o->exchange == BOXBFS_EXCHANGE_NCCL && o->backend != BOXBFS_BACKEND_CUDA)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--exchange nccl runs the cuda backend only (use --backend cuda, "
                            "or --exchange peer|host on the cpu backend)");
    if ((o->devices < 1 && !boxbfs_one_device_per_process(o)) || o->devices < 0 ||
        o->devices > 1024)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device count %d out of range [1, 1024]",
                            o->devices);
    if (g->n >= (int64_t)UINT32_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "graph has %lld vertices; the engine supports fewer than 2^32",
                            (long long)g->n);
    if (backend_ops(o->backend) == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "the cuda backend is not built in (configure found no CUDA; "
                            "rebuild with --with-cuda)");
    if (o->expand_edges_per_thread < 1 || o->expand_edges_per_thread > 16 ||
        (o->expand_edges_per_thread & (o->expand_edges_per_thread - 1)))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "edges per thread %d: use 1, 2, 4, 8 or 16",
                            o->expand_edges_per_thread);
    if (o->expand_f0 < 1)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "hybrid expand threshold f0 %d must be >= 1",
                            o->expand_f0);
    if (o->order != BOXBFS_ORDER_GIVEN && o->order != BOXBFS_ORDER_TOPOLOGY)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device order %d: use given or topology",
                            (int)o->order);
    if (o->links == NULL && !o->links_measured && o->link_model.bandwidth_Bps <= 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "link model bandwidth must be positive");
    if (o->direction != BOXBFS_SEARCH_AUTO && o->direction != BOXBFS_SEARCH_TOP_DOWN &&
        o->direction != BOXBFS_SEARCH_BOTTOM_UP)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "search direction %d: use auto, top-down or bottom-up",
                            (int)o->direction);
    /* written so that NaN fails too */
    if (o->device_loop_arcs < 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "device loop arcs %lld must be >= 0",
                            (long long)o->device_loop_arcs);
    if (!(o->alpha > 0 && o->alpha < 1e300) || !(o->beta > 0 && o->beta < 1e300))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "direction switch alpha %g and beta %g must be finite and positive",
                            o->alpha, o->beta);
    return bb_grid2d_check(g, o);
}

boxbfs_status_t boxbfs_engine_create(boxbfs_graph_t graph, const boxbfs_engine_options_t *opts,
                                     boxbfs_engine_t *engine_p)
{
    boxbfs_engine_t e;
    boxbfs_status_t st;
    const bb_device_ops_t *ops;
    if (graph == NULL || opts == NULL || engine_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_create: NULL argument");
    BB_CHECK(check_options(graph, opts));
    BB_CHECK(bb_fault_wrap(backend_ops(opts->backend), &ops));   /* BOXBFS_FAULT (tests) */
    BB_CHECK(bb_calloc(1, sizeof *e, "the engine", &e));
    e->graph = graph;
    e->opts = *opts;
    e->opts.device_ids = NULL;   /* copied below when given */
    e->ops = ops;
    e->ndev = opts->devices;
    e->first = 0;
    e->nlocal = e->ndev;
    e->fail = BOXBFS_OK;
    pthread_mutex_init(&e->fail_lock, NULL);
    e->team = boxbfs_one_device_per_process(opts) ? bb_team_mpi_ptr : &bb_team_threads;
    if ((st = e->team->open(e)) != BOXBFS_OK) goto fail_barrier;   /* free closes the team */
    if (e->team != &bb_team_threads &&
        (opts->links_measured || opts->order == BOXBFS_ORDER_TOPOLOGY)) {
        /* the probe and the ring order need every device in this process */
        st = bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                          "one device per process (--exchange %s across processes) does not "
                          "combine with --link-model measured or --order topology",
                          boxbfs_exchange_name(opts->exchange));
        goto fail_barrier;
    }
    e->opts.devices = e->ndev;
    BB_CHECK_GOTO(bb_barrier_init(&e->barrier, e->nlocal), st, fail_barrier);
    BB_CHECK_GOTO(bb_traffic_init(&e->traffic, e->ndev), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *e->devs, "device records", &e->devs), st, fail);
    BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *e->handles, "device handles", &e->handles),
                  st, fail);
    if (opts->device_ids && e->nlocal == e->ndev) {   /* MPI: the rank picks its device */
        int *ids;
        BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *ids, "device ids", &ids), st, fail);
        memcpy(ids, opts->device_ids, (size_t)e->ndev * sizeof *ids);
        e->opts.device_ids = ids;
    }
    BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *e->order, "the device order", &e->order), st,
                  fail);
    for (int d = 0; d < e->ndev; d++) e->order[d] = opts->device_ids ? opts->device_ids[d] : d;
    if (opts->partition == BOXBFS_PARTITION_2D)
        BB_CHECK_GOTO(bb_grid2d_partition(e), st, fail);
    else
        BB_CHECK_GOTO(bb_partition_by_edges(graph->offsets, graph->n, e->ndev, &e->part), st,
                      fail);
    /* a device of another process may have failed: every process learns it */
    BB_CHECK_GOTO(e->team->agree(e, setup_local(e)), st, fail);
    /* one rank per device, rank = engine device index: after setup_links,
     * so --order topology's ring order is the rank order */
    if (opts->exchange == BOXBFS_EXCHANGE_NCCL)
        BB_CHECK_GOTO(e->team->agree(e, e->team->nccl_open(e)), st, fail);
    BB_CHECK_GOTO(e->team->describe(e), st, fail);
    *engine_p = e;
    return BOXBFS_OK;
fail:
    bb_barrier_destroy(&e->barrier);
fail_barrier:
    e->barrier.count = -1;   /* destroyed: free must not destroy it again */
    boxbfs_engine_free(e);
    return st;
}

void boxbfs_engine_free(boxbfs_engine_t e)
{
    if (e == NULL) return;
    /* communicators first: they use the devices' contexts and streams */
    if (e->xchg.nccl) bb_nccl_ops_ptr->close(e->xchg.nccl);
    bb_grid2d_free(e);
    if (e->abort_word) e->ops->host_free(e->handles[0], e->abort_word);
    for (int d = 0; e->devs && d < e->ndev; d++) {
        bb_engine_dev_t *D = &e->devs[d];
        if (D->search_cache) e->ops->kernels.search_free(D->search_cache);
        for (int i = D->nallocs - 1; i >= 0; i--) e->ops->free(D->dev, D->allocs[i]);
        if (e->xchg.stage && e->xchg.stage[d]) e->ops->host_free(D->dev, e->xchg.stage[d]);
        if (D->ctr) e->ops->host_free(D->dev, D->ctr);
        if (D->loop_log) e->ops->host_free(D->dev, D->loop_log);
        if (D->dev) e->ops->close(D->dev);
    }
    free(e->xchg.stage);
    free(e->devs);
    free(e->handles);
    free((void *)e->opts.device_ids);
    free(e->order);
    bb_linkmat_free(&e->linkmat);
    bb_partition_free(&e->part);
    if (e->traffic.link_bytes) bb_traffic_free(&e->traffic);
    if (e->barrier.count != -1) bb_barrier_destroy(&e->barrier);
    pthread_mutex_destroy(&e->fail_lock);
    free(e->send_count);
    free(e->send_offset);
    free(e->bytes);
    free(e->as_bitmap);
    free(e->src);
    free(e->recv);
    free(e->frontier_count);
    free(e->frontier_arcs);
    free(e->level_frontier);
    free(e->in_offsets);
    free(e->in_columns);
    free(e->skip_order);
    if (e->team) e->team->close(e);
    free(e);
}

const char *boxbfs_engine_device_name(boxbfs_engine_t e, int device)
{
    if (e == NULL || device < 0 || device >= e->ndev) return "";
    return e->devs[device].name;
}

size_t boxbfs_engine_memory_bytes(boxbfs_engine_t e, int device, size_t *visited_bytes_p)
{
    if (e == NULL || device < 0 || device >= e->ndev) return 0;
    if (visited_bytes_p) *visited_bytes_p = e->devs[device].visited_bytes;
    return e->devs[device].memory_bytes;
}

int boxbfs_engine_device_search(boxbfs_engine_t e)
{
    return e != NULL && bb_search_fits(e);
}

const char *boxbfs_engine_strategy(boxbfs_engine_t e)
{
    if (e == NULL) return "";
    if (e->grid) return "2d";
    if (!bb_search_fits(e)) return "host-driven levels";
    return e->ndev > 1 ? "device search across devices" : "device search";
}

int boxbfs_engine_prefix_skip(boxbfs_engine_t e)
{
    if (e == NULL || e->grid) return 0;
    for (int d = 0; d < e->ndev; d++)
        if (!e->devs[d].skips) return 0;
    return 1;
}

boxbfs_wire_t boxbfs_engine_wire(boxbfs_engine_t e)
{
    return e ? e->opts.wire : BOXBFS_WIRE_LIST;
}

boxbfs_parents_t boxbfs_engine_parents(boxbfs_engine_t e, int device)
{
    if (e == NULL || device < 0 || device >= e->ndev) return BOXBFS_PARENTS_AUTO;
    return (boxbfs_parents_t)e->devs[device].parents;
}

void bb_engine_raise_abort(boxbfs_engine_t e, int d)
{
    uint32_t none = 0;
    if (e->abort_word)   /* the first failure stays: it names the device that failed */
        __atomic_compare_exchange_n(e->abort_word, &none, (uint32_t)d + 1, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
}

void bb_engine_fail(boxbfs_engine_t e, boxbfs_status_t st)
{
    pthread_mutex_lock(&e->fail_lock);
    if (e->fail == BOXBFS_OK) {
        e->fail = st;
        snprintf(e->fail_message, sizeof e->fail_message, "%s", boxbfs_last_error());
    }
    pthread_mutex_unlock(&e->fail_lock);
    e->team->fail(e);
}

int boxbfs_engine_device_count(boxbfs_engine_t e) { return e ? e->ndev : 0; }

int boxbfs_engine_rank(boxbfs_engine_t e) { return e && e->nlocal < e->ndev ? e->first : 0; }

int boxbfs_engine_processes(boxbfs_engine_t e)
{
    if (e == NULL) return 0;
    return e->team != &bb_team_threads ? e->ndev : 1;
}
