/* Roots side by side (boxbfs bfs --side-by-side; docs/cli.md "Roots side
 * by side"). A search split over several devices pays a meeting of the
 * devices at every level: a road network's 1,000-1,600 levels of a few
 * hundred vertices each cost more in meetings than their work, and two GPUs
 * search it 1.8x slower than one (docs/performance.md). Such a graph's
 * roots run side by side instead: every device holds the whole graph in an
 * engine of its own and runs whole searches, the next root going to the
 * device that comes free first. A search then takes one device's time, and
 * the devices run as many searches at once as there are of them. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/timer.h"

/* auto: more levels than this in the warm-up search (Kronecker graphs have
 * 6-12, meshes a few hundred, road networks 1,000 and more) */
#define BB_SIDE_LEVELS 256

/* Why the devices of a cannot run the roots side by side, NULL where they can. */
static const char *refusal(const bb_bfs_args_t *a, const bb_bfs_report_t *r)
{
    const boxbfs_engine_options_t *o = &a->eo;
    if (o->devices < 2) return "it needs several devices";
    if (r->per_process) return "every process drives one device (--exchange mpi or nccl under mpirun)";
    if (o->partition == BOXBFS_PARTITION_2D) return "--partition 2d splits every search";
    if (o->backend == BOXBFS_BACKEND_CUDA && o->device_ids)   /* one GPU's constant memory */
        for (int d = 0; d < o->devices; d++)
            for (int e = 0; e < d; e++)
                if (o->device_ids[d] == o->device_ids[e])
                    return "--device-ids names a GPU twice (logical devices of one GPU share it)";
    return NULL;
}

/* The report's word where side by side took more devices than --devices
 * auto chose for a split search. */
static void widened(const bb_bfs_args_t *a, bb_bfs_report_t *r, int chosen)
{
    size_t at = strlen(r->devices_why);
    if (a->eo.devices > chosen && at > 0)
        snprintf(r->devices_why + at, sizeof r->devices_why - at,
                 "; roots side by side take all %d", a->eo.devices);
}

int bb_side_by_side_pick(bb_bfs_args_t *a, bb_bfs_report_t *r, int levels)
{
    const char *no;
    const int chosen = a->eo.devices;
    if (a->side_by_side == BB_SIDE_OFF) return 0;
    /* --devices auto counts the devices a split search pays on: searches side
     * by side pay on every device */
    if (a->devices_auto && a->devices_all > chosen &&
        (a->side_by_side == BB_SIDE_ON || levels > BB_SIDE_LEVELS))
        a->eo.devices = a->devices_all;
    no = refusal(a, r);
    if (no && a->side_by_side != BB_SIDE_ON) a->eo.devices = chosen;
    if (a->side_by_side == BB_SIDE_ON) {
        if (no) {
            bb_cli_error("--side-by-side on: %s", no);
            return -1;
        }
        snprintf(r->side_by_side, sizeof r->side_by_side, "--side-by-side on");
        widened(a, r, chosen);
        return 1;
    }
    /* auto: not where the options ask for a way of splitting searches */
    if (no || r->nroots < 2 || a->eo.exchange != BOXBFS_EXCHANGE_PEER || a->eo.throttle ||
        levels <= BB_SIDE_LEVELS) {
        a->eo.devices = chosen;
        return 0;
    }
    snprintf(r->side_by_side, sizeof r->side_by_side,
             "auto: the warm-up search ran %d levels (more than %d)", levels, BB_SIDE_LEVELS);
    widened(a, r, chosen);
    return 1;
}

typedef struct {
    const bb_bfs_args_t *a;
    bb_bfs_report_t *r;
    bb_outfile_t *output;
    boxbfs_engine_t *engines;
    bb_bfs_worker_t *workers;
    pthread_mutex_t lock;     /* what follows */
    pthread_cond_t ready;     /* every device warmed up (or failed): the searches start together */
    int warm, next, rc, done;
    bb_progress_t progress;
    double t0, t_end;
} side_t;

/* Records the first failure's exit code (the others stop taking roots). */
static void fail(side_t *S, int rc)
{
    pthread_mutex_lock(&S->lock);
    if (S->rc == 0) S->rc = rc;
    pthread_mutex_unlock(&S->lock);
}

typedef struct {
    side_t *S;
    int d;
} device_arg_t;

static void *device_thread(void *arg)
{
    side_t *S = ((device_arg_t *)arg)->S;
    const int d = ((device_arg_t *)arg)->d, ndev = S->a->eo.devices;
    const bb_bfs_report_t *r = S->r;
    boxbfs_status_t st = boxbfs_engine_run(S->engines[d], r->roots[0], NULL, NULL, NULL);
    if (st != BOXBFS_OK) fail(S, bb_cli_fail(st));   /* warm-up, not timed */
    pthread_mutex_lock(&S->lock);
    if (++S->warm == ndev) {
        S->t0 = bb_now_s();
        pthread_cond_broadcast(&S->ready);
    }
    while (S->warm < ndev) pthread_cond_wait(&S->ready, &S->lock);
    pthread_mutex_unlock(&S->lock);
    for (;;) {
        int i, rc;
        pthread_mutex_lock(&S->lock);
        i = S->rc ? r->nroots : S->next++;
        pthread_mutex_unlock(&S->lock);
        if (i >= r->nroots) break;
        rc = bb_bfs_root(S->a, S->r, S->engines[d], d, i, S->output, &S->workers[d]);
        if (rc) {
            fail(S, rc);
            break;
        }
        pthread_mutex_lock(&S->lock);
        bb_progress_update(&S->progress, ++S->done);
        pthread_mutex_unlock(&S->lock);
    }
    pthread_mutex_lock(&S->lock);
    if (bb_now_s() > S->t_end) S->t_end = bb_now_s();
    pthread_mutex_unlock(&S->lock);
    return NULL;
}

/* A thread per device, until every root ran (where one could not start, the
 * others take its roots). */
static void run_threads(side_t *S, int ndev)
{
    pthread_t *t = calloc((size_t)ndev, sizeof *t);
    device_arg_t *args = calloc((size_t)ndev, sizeof *args);
    int started = 0;
    if (!t || !args) {
        free(t);
        free(args);
        return;
    }
    for (; started < ndev; started++) {
        args[started] = (device_arg_t){S, started};
        if (pthread_create(&t[started], NULL, device_thread, &args[started]) != 0) break;
    }
    if (started < ndev) {   /* the ones that started must not wait for it */
        pthread_mutex_lock(&S->lock);
        S->warm += ndev - started;
        if (S->warm == ndev) S->t0 = bb_now_s();
        pthread_cond_broadcast(&S->ready);
        pthread_mutex_unlock(&S->lock);
    }
    for (int d = 0; d < started; d++) pthread_join(t[d], NULL);
    free(t);
    free(args);
}

/* One single-device engine per device of a's options into S->engines. */
static int make_engines(side_t *S, int ndev)
{
    const boxbfs_engine_options_t *o = &S->a->eo;
    for (int d = 0; d < ndev; d++) {
        boxbfs_engine_options_t one = *o;
        int id = o->device_ids ? o->device_ids[d] : d;
        boxbfs_status_t st;
        one.devices = 1;
        one.device_ids = &id;   /* read by boxbfs_engine_create only */
        if ((st = boxbfs_engine_create(S->r->graph, &one, &S->engines[d])) != BOXBFS_OK) {
            bb_cli_error("--side-by-side: device %d cannot hold the whole graph for a search of "
                         "its own (%s); --side-by-side off splits every search over the devices",
                         d, boxbfs_last_error());
            return st == BOXBFS_ERR_INVALID_ARG ? BB_EXIT_USAGE : BB_EXIT_RUNTIME;
        }
    }
    return 0;
}

int bb_side_by_side_run(const bb_bfs_args_t *a, bb_bfs_report_t *r, bb_outfile_t *output,
                        bb_bfs_worker_t *total)
{
    int ndev = a->eo.devices, rc;
    int64_t n = boxbfs_graph_vertices(r->graph);
    side_t S;
    memset(&S, 0, sizeof S);
    S.a = a;
    S.r = r;
    S.output = output;
    S.engines = calloc((size_t)ndev, sizeof *S.engines);
    S.workers = calloc((size_t)ndev, sizeof *S.workers);
    r->root_device = malloc((size_t)r->nroots * sizeof *r->root_device);
    if (!S.engines || !S.workers || !r->root_device) {
        free(S.engines);
        free(S.workers);
        bb_cli_error("out of memory");
        return BB_EXIT_RUNTIME;
    }
    S.workers[0].parent = total->parent;   /* device 0 fills the caller's arrays */
    S.workers[0].level = total->level;
    for (int d = 1; d < ndev; d++) {
        S.workers[d].parent = malloc((size_t)n * sizeof *S.workers[d].parent);
        S.workers[d].level = malloc((size_t)n * sizeof *S.workers[d].level);
    }
    boxbfs_engine_free(r->engine);   /* its memory on every device: the engines below need it */
    r->engine = NULL;
    rc = make_engines(&S, ndev);
    for (int d = 1; d < ndev && rc == 0; d++)
        if (!S.workers[d].parent || !S.workers[d].level) {
            bb_cli_error("cannot allocate the result arrays for %lld vertices", (long long)n);
            rc = BB_EXIT_RUNTIME;
        }
    if (rc == 0) {
        boxbfs_log(BOXBFS_LOG_INFO, "roots side by side on %d devices (%s)", ndev,
                   r->side_by_side);
        pthread_mutex_init(&S.lock, NULL);
        pthread_cond_init(&S.ready, NULL);
        bb_progress_start(&S.progress, "bfs", r->nroots);
        run_threads(&S, ndev);   /* where some did not start, the others take the roots */
        bb_progress_end(&S.progress);
        pthread_cond_destroy(&S.ready);
        pthread_mutex_destroy(&S.lock);
        rc = S.rc;
        if (rc == 0 && S.done < r->nroots) {   /* no thread started */
            bb_cli_error("--side-by-side: cannot start the device threads");
            rc = BB_EXIT_RUNTIME;
        }
        r->side_wall_s = S.t_end > S.t0 ? S.t_end - S.t0 : 0;
    }
    for (int d = 0; d < ndev; d++) {
        bb_bfs_worker_t *w = &S.workers[d];
        total->failed |= w->failed;
        total->output_failed |= w->output_failed;
        total->search_s += w->search_s;
        total->check_s += w->check_s;
        if (d == 0) continue;
        free(w->parent);
        free(w->level);
    }
    r->side_engines = S.engines;   /* the report's (the caller frees them) */
    r->engine = S.engines[0];
    free(S.workers);
    return rc;
}
