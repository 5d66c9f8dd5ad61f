/* The thread team: every device of the search is driven by a host thread of
 * this process (bb_parallel_run); the round's matrices and the level books
 * are shared memory, so publishing a row is a barrier, and payloads move by
 * the exchange chosen at setup (e->xchg.run): the left-right schedule of peer
 * or host-staged copies [003 §5.2], or NCCL point-to-point (--exchange nccl). */
#include "config.h"

#include "engine/engine.h"

#include <limits.h>
#include <stdlib.h>

static boxbfs_status_t threads_open(boxbfs_engine_t e)
{
    e->first = 0;
    e->nlocal = e->ndev;
    return BOXBFS_OK;
}

static void threads_close(boxbfs_engine_t e) { (void)e; }

static boxbfs_status_t threads_agree(boxbfs_engine_t e, boxbfs_status_t st)
{
    (void)e;
    return st;
}

static boxbfs_status_t threads_describe(boxbfs_engine_t e)
{
    (void)e;
    return BOXBFS_OK;
}

static int threads_barrier(boxbfs_engine_t e) { return bb_barrier_wait(&e->barrier); }

static int threads_publish(boxbfs_engine_t e, int self)
{
    (void)self;
    return bb_barrier_wait(&e->barrier);
}

static boxbfs_status_t threads_exchange(boxbfs_engine_t e, const bb_exchange_round_t *r, int self)
{
    return e->xchg.run(&e->xchg, r, self);
}

static boxbfs_status_t threads_finish(boxbfs_engine_t e, int self)
{
    (void)e;
    (void)self;
    return BOXBFS_OK;
}

static void threads_fail(boxbfs_engine_t e) { bb_barrier_abort(&e->barrier); }

/* One clique over every GPU of the process, in the ring order (e->order
 * holds the physical ids after setup_links): rank = engine device index. */
static boxbfs_status_t threads_nccl_open(boxbfs_engine_t e)
{
    return bb_nccl_ops_ptr->open(e->order, e->ndev, &e->xchg.nccl);
}

int boxbfs_mpi_launched_processes(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end;
        long size;
        if (v == NULL || *v == '\0') continue;
        size = strtol(v, &end, 10);
        if (*end == '\0' && size > 0 && size <= INT_MAX) return (int)size;
    }
    return 0;
}

/* One process: every collective is already complete. */
static boxbfs_status_t threads_allreduce(boxbfs_engine_t e, int64_t *values, int count, int max)
{
    (void)e;
    (void)values;
    (void)count;
    (void)max;
    return BOXBFS_OK;
}

const bb_team_ops_t bb_team_threads = {
    .name = "threads",
    .open = threads_open,
    .close = threads_close,
    .agree = threads_agree,
    .describe = threads_describe,
    .barrier = threads_barrier,
    .publish_rows = threads_publish,
    .publish_books = threads_publish,
    .exchange = threads_exchange,
    .finish = threads_finish,
    .fail = threads_fail,
    .nccl_open = threads_nccl_open,
    .allreduce = threads_allreduce,
    .first_error = threads_agree,
};
