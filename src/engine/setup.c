/* Engine setup, the services engine.c builds an engine with: the options
 * checked, the devices of this process opened, their links (measured, a
 * description or one model) and ring order, peer access, the transpose
 * bottom-up levels need, the wire that fits, the exchange; and the failure
 * of a device thread recorded for every other one (the barrier, the abort
 * word). No leak on any error path: boxbfs_engine_free undoes what ran. */
#include "config.h"

#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "topology/topology.h"

const bb_device_ops_t *bb_engine_backend_ops(boxbfs_backend_t backend)
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
    e->links_described = e->opts.links_measured || e->opts.links;
    if (e->links_described) {
        snprintf(e->opts.link_model.name, sizeof e->opts.link_model.name, "%s", e->linkmat.name);
        if (n > 1) {
            e->opts.link_model.bandwidth_Bps = e->linkmat.bw[1];
            e->opts.link_model.latency_s = e->linkmat.lat[1];
        }
    }
    e->opts.links = NULL;   /* borrowed: not kept */
    return BOXBFS_OK;
}

/* Peer access between every pair of this process's devices (enabled where
 * possible): *ok_p = 0 and the first pair without it in *a_p, *b_p where
 * some pair has none. BOXBFS_DISABLE_PEER=1 pretends none has (tests). */
boxbfs_status_t bb_engine_enable_peers(boxbfs_engine_t e, int *ok_p, int *a_p, int *b_p)
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

boxbfs_status_t bb_engine_setup_exchange(boxbfs_engine_t e)
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
        BB_CHECK(bb_engine_enable_peers(e, &ok, &a, &b));
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
    if (g->on_devices && e->team != bb_team_mpi_ptr) return BOXBFS_OK;
    if (g->on_devices)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "graph %s is built on the devices of one process: it does not run "
                            "with one device per process", g->name);
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
boxbfs_status_t bb_engine_open_local(boxbfs_engine_t e)
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
boxbfs_status_t bb_engine_choose_wire(boxbfs_engine_t e)
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

/* One device per MPI rank (the MPI team): --exchange mpi, and --exchange
 * nccl when an MPI launcher started several processes. */
int boxbfs_one_device_per_process(const boxbfs_engine_options_t *o)
{
    if (o == NULL) return 0;
    return o->exchange == BOXBFS_EXCHANGE_MPI ||
           (o->exchange == BOXBFS_EXCHANGE_NCCL && boxbfs_mpi_launched_processes() > 1);
}

boxbfs_status_t bb_engine_check_options(boxbfs_graph_t g, const boxbfs_engine_options_t *o)
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
    if (bb_engine_backend_ops(o->backend) == NULL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "the cuda backend is not built in (configure found no CUDA; "
                            "rebuild with --with-cuda)");
    if (o->expand_edges_per_thread < 0 || o->expand_edges_per_thread > 16 ||
        (o->expand_edges_per_thread & (o->expand_edges_per_thread - 1)))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "edges per thread %d: use 1, 2, 4, 8 or 16 (0: auto)",
                            o->expand_edges_per_thread);
    if (o->expand_f0 < 1)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "hybrid expand threshold f0 %d must be >= 1",
                            o->expand_f0);
    if (o->arcs64_from < 1 || o->arcs64_from > (INT64_C(1) << 32))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "64-bit arcs from %lld arcs a device: use 1 .. 2^32 (4294967296)",
                            (long long)o->arcs64_from);
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
    if (!(o->alpha >= 0 && o->alpha < 1e300) || !(o->beta > 0 && o->beta < 1e300))
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "direction switch alpha %g and beta %g must be finite and positive "
                            "(alpha 0: the engine's own)",
                            o->alpha, o->beta);
    return BOXBFS_OK;
}

void bb_engine_raise_abort(boxbfs_engine_t e, int d)
{
    uint32_t none = 0;
    if (e->abort_word)   /* the first failure stays: it names the device that failed */
        __atomic_compare_exchange_n(e->abort_word, &none, (uint32_t)d + 1, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
}

void bb_engine_fail(boxbfs_engine_t e, int d, boxbfs_status_t st)
{
    const int first =
        e->abort_word ? (int)__atomic_load_n(e->abort_word, __ATOMIC_ACQUIRE) - 1 : -1;
    pthread_mutex_lock(&e->fail_lock);
    if (e->fail == BOXBFS_OK || (d >= 0 && d == first && e->fail_dev != first)) {
        e->fail = st;
        e->fail_dev = d;
        snprintf(e->fail_message, sizeof e->fail_message, "%s", boxbfs_last_error());
    }
    pthread_mutex_unlock(&e->fail_lock);
    e->team->fail(e);
}
