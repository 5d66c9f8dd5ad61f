/* The engine [DESIGN "Where a search runs"]: boxbfs_engine_create builds
 * it from the setup services (setup.c, device_setup.c) and chooses where its
 * searches run; boxbfs_engine_run plans one search and runs it with one
 * host thread per device of this process: the reset, then the strategy
 * that fits (the device search, device_search.c, on one device or on
 * several that meet in each other's memory; else host-driven levels,
 * host_levels.c, with the device loop for small levels; --partition 2d:
 * engine2d.c), the parent gather where one is needed (gather.c), and the
 * results. The strategies and services below never call back into this
 * file. */
#include "config.h"

#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/timer.h"
#include "kernels/fault.h"
#include "engine/engine2d.h"

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

/* Where the search runs (boxbfs_search_on_t): on several devices at once
 * where they can meet in each other's memory, with the abort word they
 * poll, unless auto finds their links slower than NVLink; --search-on device
 * where that cannot be says why; e->strategy_why says why the host drives
 * the levels. */
static boxbfs_status_t choose_search(boxbfs_engine_t e)
{
    int ok = 1, a = 0, b = 0, slow = 0;
    const char *why;
    if (e->ndev > 1 && e->nlocal == e->ndev && e->opts.exchange == BOXBFS_EXCHANGE_PEER)
        BB_CHECK(bb_engine_enable_peers(e, &ok, &a, &b));
    why = bb_search_peers_refusal(e, ok);
    if (why == NULL && e->opts.search_on == BOXBFS_SEARCH_ON_AUTO)
        BB_CHECK(bb_engine_slow_links(e, &slow, e->strategy_why, sizeof e->strategy_why));
    if (slow) why = e->strategy_why;
    else if (why && e->ndev > 1 && e->nlocal == e->ndev && !e->grid)
        snprintf(e->strategy_why, sizeof e->strategy_why, "%s", why);
    else if (e->opts.search_on == BOXBFS_SEARCH_ON_HOST && e->ndev > 1)
        snprintf(e->strategy_why, sizeof e->strategy_why, "--search-on host");
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
    if (e->search_peers) BB_CHECK(bb_hubs_choose(e));
    if (e->search_peers) BB_CHECK(bb_engine_count_heads(e));
    for (int d = 0; e->search_peers && d < e->ndev; d++) {
        if (bb_engine_search_fits(e, d)) continue;
        if (e->hubs) {   /* the hubs' rows go first, then every device again */
            BB_WARN(-1, "device %d cannot also hold the parts of the hubs' rows%s: no hub is "
                        "split", d, e->opts.device_memory_limit ? " under --memory-limit" : "");
            for (int o = 0; o < e->ndev; o++)
                bb_engine_dropped(e, o, "hub_gid, hub_level and the hubs' row parts (no hub "
                                        "split)");
            bb_hubs_free(e);
            d = -1;
            continue;
        }
        if (e->opts.search_on == BOXBFS_SEARCH_ON_DEVICE)
            return bb_error_set(BOXBFS_ERR_DEVICE_MEMORY,
                                "--search-on device: device %d cannot hold the search across "
                                "devices (an inbox of vertices and parents per other device)%s; "
                                "try more devices or --search-on auto", d,
                                e->opts.device_memory_limit ? " under --memory-limit" : "");
        BB_WARN(-1, "device %d cannot hold the search across devices (an inbox of vertices and "
                    "parents per other device)%s: the host drives the levels", d,
                e->opts.device_memory_limit ? " under --memory-limit" : "");
        snprintf(e->strategy_why, sizeof e->strategy_why, "device %d cannot hold its inboxes%s",
                 d, e->opts.device_memory_limit ? " under --memory-limit" : "");
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
    BB_CHECK(e->team->agree(e, bb_engine_open_local(e)));
    if (e->graph->on_devices) BB_CHECK(bb_engine_build_rows(e));
    BB_CHECK(choose_search(e));
    BB_CHECK(bb_engine_choose_wire(e));
    for (int d = 0; d < e->ndev; d++) e->devs[d].parents = BOXBFS_PARENTS_KEEP;   /* 2d: kept */
    for (int d = e->first; d < e->first + e->nlocal; d++)
        BB_CHECK(e->grid ? bb_grid2d_setup_device(e, d) : bb_engine_setup_device(e, d));
    free(e->in_offsets);
    free(e->in_columns);
    free(e->skip_order);
    e->in_offsets = e->in_columns = NULL;
    e->skip_order = NULL;
    BB_CHECK(bb_engine_setup_exchange(e));
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_engine_create(boxbfs_graph_t graph, const boxbfs_engine_options_t *opts,
                                     boxbfs_engine_t *engine_p)
{
    boxbfs_engine_t e;
    boxbfs_status_t st;
    const bb_device_ops_t *ops;
    if (graph == NULL || opts == NULL || engine_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_create: NULL argument");
    BB_CHECK(bb_engine_check_options(graph, opts));
    BB_CHECK(bb_grid2d_check(graph, opts));
    BB_CHECK(bb_fault_wrap(bb_engine_backend_ops(opts->backend), &ops));   /* BOXBFS_FAULT (tests) */
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
    if (e->opts.alpha == 0) e->opts.alpha = bb_engine_auto_alpha(e->ndev);
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
        e->ops->free(D->dev, D->check_level);
        e->ops->free(D->dev, D->check_parent);
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
    bb_hubs_free(e);
    free(e->heads);
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

int boxbfs_engine_device_array(boxbfs_engine_t e, int device, int i, const char **name_p,
                               size_t *bytes_p)
{
    if (e == NULL || device < 0 || device >= e->ndev || i < 0 || i >= e->devs[device].narrays)
        return 0;
    if (name_p) *name_p = e->devs[device].arrays[i].name;
    if (bytes_p) *bytes_p = e->devs[device].arrays[i].bytes;
    return 1;
}

const char *boxbfs_engine_device_dropped(boxbfs_engine_t e, int device)
{
    if (e == NULL || device < 0 || device >= e->ndev) return "";
    return e->devs[device].dropped;
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

const char *boxbfs_engine_strategy_why(boxbfs_engine_t e)
{
    return e && !e->search_peers ? e->strategy_why : "";
}

int boxbfs_engine_prefix_skip(boxbfs_engine_t e)
{
    if (e == NULL) return 0;
    for (int d = 0; d < e->ndev; d++)
        if (!e->devs[d].skips) return 0;
    return 1;
}

int64_t boxbfs_engine_hubs(boxbfs_engine_t e, int64_t *degree_p)
{
    if (degree_p) *degree_p = e ? e->hub_degree : 0;
    return e ? e->hubs : 0;
}

double boxbfs_engine_alpha(boxbfs_engine_t e)
{
    return e ? e->opts.alpha : 0;
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

int boxbfs_engine_arc_bits(boxbfs_engine_t e, int device)
{
    if (e == NULL || device < e->first || device >= e->first + e->nlocal || e->grid) return 0;
    return e->devs[device].k.arcs64 ? 64 : 32;
}

int boxbfs_engine_device_count(boxbfs_engine_t e) { return e ? e->ndev : 0; }

int boxbfs_engine_rank(boxbfs_engine_t e) { return e && e->nlocal < e->ndev ? e->first : 0; }

int boxbfs_engine_processes(boxbfs_engine_t e)
{
    if (e == NULL) return 0;
    return e->team != &bb_team_threads ? e->ndev : 1;
}

typedef struct {
    boxbfs_engine_t e;
} run_arg_t;

static boxbfs_status_t copy_results(boxbfs_engine_t e, int d)
{
    bb_engine_dev_t *D = &e->devs[d];
    uint64_t nloc = D->k.hi - D->k.lo;
    if (e->parent_out)
        BB_CHECK(e->ops->copy_d2h(D->dev, e->parent_out + D->k.lo, D->k.pred, nloc * 8));
    if (e->level_out)
        BB_CHECK(e->ops->copy_d2h(D->dev, e->level_out + D->k.lo, D->k.level, nloc * 4));
    return e->ops->sync(D->dev);
}

/* When the search ended: where every device ran the device search to its
 * end, when the last of them saw it end (their level rows are booked after
 * that: the report's table, not the search); else now. */
static double search_end(const struct boxbfs_engine *e)
{
    double end = 0;
    for (int i = 0; i < e->nlocal; i++) {
        double t = e->devs[e->first + i].t_searched;
        if (t == 0) return bb_now_s();
        if (t > end) end = t;
    }
    return end;
}

/* Wait for every device; 1 if the search was aborted. */
#define SYNC_ALL(e) (e)->team->barrier(e)

/* Device thread tid's part of one search: the reset and the links woken
 * (untimed), the strategy, the parent gather where parents were left with
 * their finders, the results. A failure raises the abort word and the
 * barrier's, so every other device stops waiting. */
static boxbfs_status_t device_main(int tid, int nlocal, void *arg)
{
    boxbfs_engine_t e = ((run_arg_t *)arg)->e;
    int d = e->first + tid;
    bb_engine_dev_t *D = &e->devs[d];
    boxbfs_status_t st = BOXBFS_OK;
    (void)nlocal;
    D->loop_runs = -1;
    D->t_searched = 0;
    D->span_s = 0;
    D->outbox_dirty = 1;   /* not cleared since allocated, or the gather's */
    memset(&D->sent_levels, 0, sizeof D->sent_levels);
    BB_CHECK_GOTO(bb_engine_mail_words(e, d), st, out);   /* done before any device meets */
    BB_CHECK_GOTO(e->ops->kernels.reset(&D->k, e->ops->stream(D->dev), (uint64_t)e->root), st, out);
    BB_CHECK_GOTO(bb_engine_read_counters(e, d), st, out);
    e->frontier_count[d] = D->ctr[BB_CTR_NEXT];
    e->frontier_arcs[d] = D->ctr[BB_CTR_NEXT_ARCS];
    D->loop_tag = e->searches << 32;   /* no mailbox holds a tag of this search yet */
    if (e->search_peers) BB_CHECK_GOTO(bb_search_wake(e, d), st, out);
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->t_start = e->t_level = bb_now_s();
    /* the device search to the end (or, where the backend could not set it
     * up, nothing: e->done stays unset), else the host drives the levels */
    if (bb_search_fits(e)) BB_CHECK_GOTO(bb_search_run(e, d), st, out);
    if (!e->done && !bb_barrier_aborted(&e->barrier))
        BB_CHECK_GOTO(bb_host_levels_run(e, d), st, out);
    if (bb_barrier_aborted(&e->barrier)) return BOXBFS_OK;
    if (e->ndev > 1 && !e->search_peers) BB_CHECK_GOTO(bb_engine_gather(e, d), st, out);
    if (SYNC_ALL(e)) return BOXBFS_OK;
    if (d == 0) e->report.time_s = search_end(e) - e->t_start;
    BB_CHECK_GOTO(copy_results(e, d), st, out);
    BB_CHECK_GOTO(e->team->finish(e, d), st, out);
out:
    if (st != BOXBFS_OK) {
        bb_engine_raise_abort(e, d);
        bb_engine_fail(e, d, st);
    }
    return BOXBFS_OK;
}

static void fill_report(boxbfs_engine_t e)
{
    boxbfs_search_report_t *r = &e->report;
    bb_traffic_t *t = &e->traffic;
    r->device_span_s = 0;
    for (int i = 0; i < e->nlocal; i++)
        if (e->devs[e->first + i].span_s > r->device_span_s)
            r->device_span_s = e->devs[e->first + i].span_s;
    r->root = e->root;
    r->levels = t->nlevels;
    r->total_bytes = bb_traffic_total_bytes(t);
    r->total_messages = bb_traffic_total_messages(t);
    memcpy(r->phase_bytes, t->phase_bytes, sizeof r->phase_bytes);
    memcpy(r->phase_messages, t->phase_messages, sizeof r->phase_messages);
    r->link_bytes = t->link_bytes;
    r->link_messages = t->link_messages;
    r->nlevels = t->nlevels;
    r->level_reports = t->levels;
    r->level_link_bytes = t->level_link_bytes;
    r->level_devices = t->level_devices;
    r->modeled_exchange_s = 0;
    for (int l = 0; l < t->nlevels; l++) r->modeled_exchange_s += t->levels[l].modeled_exchange_s;
    r->modeled_exchange_s += e->gather_modeled_s;
}

boxbfs_status_t boxbfs_engine_run(boxbfs_engine_t e, int64_t root, int64_t *parent,
                                  int32_t *level, const boxbfs_search_report_t **report_p)
{
    run_arg_t arg = {e};
    boxbfs_status_t st;
    int64_t *own_parent = NULL;
    int32_t *own_level = NULL;
    if (e == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_engine_run: NULL engine");
    if (root < 0 || root >= e->graph->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "root %lld out of range [0, %lld)",
                            (long long)root, (long long)e->graph->n);
    /* the reached count needs the levels: use a scratch array when not asked */
    if (level == NULL)
        BB_CHECK(bb_malloc((size_t)e->graph->n * 4, "levels", &own_level));
    e->root = root;
    e->searches++;
    e->parent_out = parent ? parent : own_parent;
    e->level_out = level ? level : own_level;
    e->done = e->opts.max_depth == 0;
    /* level 0: the root alone; nothing explored before it */
    e->total_frontier = 1;
    e->prev_total_frontier = 0;
    e->total_arcs = (uint64_t)(e->graph->offsets[root + 1] - e->graph->offsets[root]);
    e->unexplored = (uint64_t)e->graph->arcs;
    e->prev_dir = BOXBFS_SEARCH_TOP_DOWN;
    e->dir = bb_engine_choose_direction(e);
    e->fail = BOXBFS_OK;
    e->fail_dev = -1;
    e->gather_modeled_s = 0;
    memset(&e->report, 0, sizeof e->report);
    bb_barrier_reset(&e->barrier);
    if (e->abort_word) __atomic_store_n(e->abort_word, 0, __ATOMIC_RELEASE);
    bb_traffic_reset(&e->traffic);
    BB_CHECK_GOTO(bb_traffic_level(&e->traffic, 0), st, out);
    e->traffic.levels[0].direction = e->dir;   /* the row stays as is with --max-depth 0 */
    /* --partition 2d: its own level loop (engine2d.c) */
    BB_CHECK_GOTO(bb_parallel_run(e->nlocal, e->grid ? bb_grid2d_main : device_main, &arg), st, out);
    if (e->fail != BOXBFS_OK) {
        st = bb_error_set(e->fail, "%s", e->fail_message);
        goto out;
    }
    fill_report(e);
    {   /* this process's rows (another rank's levels are rank 0's only), summed */
        int64_t lo = (int64_t)e->part.lo[e->first], hi = (int64_t)e->part.lo[e->first + e->nlocal];
        e->report.reached = 0;
        for (int64_t v = lo; v < hi; v++) e->report.reached += e->level_out[v] >= 0;
        BB_CHECK_GOTO(e->team->allreduce(e, &e->report.reached, 1, 0), st, out);
    }
    if (report_p) *report_p = &e->report;
out:
    free(own_parent);
    free(own_level);
    e->parent_out = NULL;
    e->level_out = NULL;
    return st;
}
