/* The MPI team (--exchange mpi, and --exchange nccl when an MPI launcher
 * started several processes): one device per rank of a duplicate of
 * MPI_COMM_WORLD, the rank's device is the engine's device of that number.
 * A device's row of the round and its level books reach every rank by
 * MPI_Allgather (this is also how receivers learn their message sizes: the
 * `sizes` phase); payloads go point to point (peer/exchange_mpi.c, or NCCL
 * from GPU memory: peer/exchange_nccl.c); after the
 * search the traffic counters are summed on rank 0 (MPI_Reduce) and the
 * levels and parents gathered there (MPI_Gatherv); boxbfs_engine_check_tree
 * allgathers the levels (MPI_Allgatherv), exchanges the few parents that a
 * rank's check needs from others (MPI_Alltoallv) and combines the checks. */
#include "config.h"

#include "engine/engine.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/mpi_init.h"
#include "kernels/fault.h"

typedef struct {
    MPI_Comm comm;
    int rank, size;
    uint64_t *mine;      /* 4 x ndev: this rank's row, packed */
    uint64_t *rows;      /* size x (4 x ndev): allgathered rows */
    uint64_t *books;     /* size x BOOKS */
    int *vcounts;        /* 4 x size: counts and displacements of the v-collectives */
    int64_t *peer_counts;   /* size: records each rank sends this one */
} mpi_team_t;

enum { BOOKS = 7 };      /* level_frontier, frontier_count, frontier_arcs, 4 phase times */

static boxbfs_status_t mpi_open(boxbfs_engine_t e)
{
    mpi_team_t *t;
    if (e->opts.backend != BOXBFS_BACKEND_CPU && e->opts.exchange != BOXBFS_EXCHANGE_NCCL)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--exchange mpi moves host memory: it runs the cpu backend only (use "
                            "--backend cpu; GPUs in several processes use --exchange nccl)");
    BB_CHECK(bb_mpi_init());
    BB_CHECK(bb_calloc(1, sizeof *t, "the MPI team", &t));
    MPI_Comm_dup(MPI_COMM_WORLD, &t->comm);
    MPI_Comm_rank(t->comm, &t->rank);
    MPI_Comm_size(t->comm, &t->size);
    bb_fault_set_rank(t->rank);   /* BOXBFS_FAULT=rank:R */
    {   /* which of this host's processes this is: it picks the host's GPU */
        MPI_Comm host;
        MPI_Comm_split_type(t->comm, MPI_COMM_TYPE_SHARED, t->rank, MPI_INFO_NULL, &host);
        MPI_Comm_rank(host, &e->host_rank);
        MPI_Comm_free(&host);
    }
    e->team_state = t;
    if (e->opts.devices != 0 && e->opts.devices != t->size)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "--exchange %s across processes runs one device per process: %d "
                            "devices asked for, but %d processes started (mpirun -np %d, or "
                            "leave --devices out)", boxbfs_exchange_name(e->opts.exchange),
                            e->opts.devices, t->size, e->opts.devices);
    if (t->size > 1024)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "%d processes: at most 1024 devices", t->size);
    e->ndev = t->size;
    e->first = t->rank;
    e->nlocal = 1;
    BB_CHECK(bb_calloc(4 * (size_t)t->size, 8, "published row", &t->mine));
    BB_CHECK(bb_calloc((size_t)t->size * 4 * (size_t)t->size, 8, "published rows", &t->rows));
    BB_CHECK(bb_calloc((size_t)t->size * BOOKS, 8, "published books", &t->books));
    BB_CHECK(bb_calloc(4 * (size_t)t->size, sizeof *t->vcounts, "collective counts", &t->vcounts));
    BB_CHECK(bb_calloc((size_t)t->size, 8, "record counts", &t->peer_counts));
    return BOXBFS_OK;
}

static void mpi_close(boxbfs_engine_t e)
{
    mpi_team_t *t = e->team_state;
    int finalized = 0;
    if (t == NULL) return;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&t->comm);
    free(t->mine);
    free(t->rows);
    free(t->books);
    free(t->vcounts);
    free(t->peer_counts);
    free(t);
    e->team_state = NULL;
}

static boxbfs_status_t mpi_agree(boxbfs_engine_t e, boxbfs_status_t st)
{
    mpi_team_t *t = e->team_state;
    int mine[2] = {(int)st, st == BOXBFS_OK ? INT_MAX : t->rank}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, t->comm);
    if (st != BOXBFS_OK || all[0] == BOXBFS_OK) return st;
    return bb_error_set((boxbfs_status_t)all[0],
                        "device %d (rank %d) failed while setting up (its message is on its "
                        "stderr)", all[1], all[1]);
}

/* Device names, memory, parents mode and visited-prefix skip of every rank,
 * for rank 0's report. */
static boxbfs_status_t mpi_describe(boxbfs_engine_t e)
{
    mpi_team_t *t = e->team_state;
    size_t namelen = sizeof e->devs[0].name;
    char *names;
    uint64_t mine[4] = {e->devs[t->rank].memory_bytes, e->devs[t->rank].visited_bytes,
                        (uint64_t)e->devs[t->rank].parents, (uint64_t)e->devs[t->rank].skips};
    BB_CHECK(bb_calloc((size_t)t->size, namelen, "device names", &names));
    MPI_Allgather(e->devs[t->rank].name, (int)namelen, MPI_CHAR, names, (int)namelen, MPI_CHAR,
                  t->comm);
    /* (rows holds 4 x size x size entries: room for 4 per rank) */
    MPI_Allgather(mine, 4, MPI_UINT64_T, t->rows, 4, MPI_UINT64_T, t->comm);
    for (int d = 0; d < t->size; d++) {
        if (d != t->rank)
            snprintf(e->devs[d].name, namelen, "rank %d: %.100s", d, names + (size_t)d * namelen);
        e->devs[d].memory_bytes = t->rows[4 * d];
        e->devs[d].visited_bytes = t->rows[4 * d + 1];
        e->devs[d].parents = (int)t->rows[4 * d + 2];
        e->devs[d].skips = (int)t->rows[4 * d + 3];
    }
    if (t->size > 1) {   /* name the local device by its rank as well */
        char own[128];
        snprintf(own, sizeof own, "rank %d: %.100s", t->rank, e->devs[t->rank].name);
        snprintf(e->devs[t->rank].name, namelen, "%s", own);
    }
    free(names);
    e->xchg.comm = &t->comm;
    return BOXBFS_OK;
}

static int mpi_barrier(boxbfs_engine_t e)
{
    MPI_Barrier(((mpi_team_t *)e->team_state)->comm);
    return 0;
}

static int mpi_publish_rows(boxbfs_engine_t e, int self)
{
    mpi_team_t *t = e->team_state;
    size_t n = (size_t)e->ndev, row = (size_t)self * n;
    uint64_t *mine = t->mine;
    for (size_t o = 0; o < n; o++) {
        mine[o] = e->send_count[row + o];
        mine[n + o] = e->send_offset[row + o];
        mine[2 * n + o] = e->bytes[row + o];
        mine[3 * n + o] = e->as_bitmap[row + o];
    }
    MPI_Allgather(mine, (int)(4 * n), MPI_UINT64_T, t->rows, (int)(4 * n), MPI_UINT64_T, t->comm);
    for (size_t s = 0; s < n; s++) {
        const uint64_t *r = t->rows + s * 4 * n;
        for (size_t o = 0; o < n; o++) {
            e->send_count[s * n + o] = r[o];
            e->send_offset[s * n + o] = r[n + o];
            e->bytes[s * n + o] = r[2 * n + o];
            e->as_bitmap[s * n + o] = (uint8_t)r[3 * n + o];
        }
    }
    return 0;
}

static int mpi_publish_books(boxbfs_engine_t e, int self)
{
    mpi_team_t *t = e->team_state;
    bb_engine_dev_t *D = &e->devs[self];
    uint64_t mine[BOOKS];
    double times[4] = {D->expand_s, D->contract_s, D->exchange_s, D->update_s};
    mine[0] = e->level_frontier[self];
    mine[1] = e->frontier_count[self];
    mine[2] = e->frontier_arcs[self];
    memcpy(mine + 3, times, sizeof times);
    MPI_Allgather(mine, BOOKS, MPI_UINT64_T, t->books, BOOKS, MPI_UINT64_T, t->comm);
    for (int s = 0; s < e->ndev; s++) {
        const uint64_t *b = t->books + (size_t)s * BOOKS;
        e->level_frontier[s] = b[0];
        e->frontier_count[s] = b[1];
        e->frontier_arcs[s] = b[2];
        memcpy(times, b + 3, sizeof times);
        e->devs[s].expand_s = times[0];
        e->devs[s].contract_s = times[1];
        e->devs[s].exchange_s = times[2];
        e->devs[s].update_s = times[3];
    }
    return 0;
}

static boxbfs_status_t mpi_exchange(boxbfs_engine_t e, const bb_exchange_round_t *r, int self)
{
    /* --exchange nccl across processes: NCCL moves the payloads, as in one process */
    if (e->opts.exchange == BOXBFS_EXCHANGE_NCCL) return e->xchg.run(&e->xchg, r, self);
    return bb_exchange_mpi(&e->xchg, r, self);
}

/* Traffic summed on rank 0 (each rank counted what it sent; rank 0 also kept
 * the books), then levels and parents gathered into rank 0's arrays. */
static boxbfs_status_t mpi_finish(boxbfs_engine_t e, int self)
{
    mpi_team_t *t = e->team_state;
    bb_traffic_t *tr = &e->traffic;
    size_t cells = (size_t)e->ndev * (size_t)e->ndev, len, k = 0;
    int root = t->rank == 0, *counts = NULL, *displs = NULL;
    int64_t *sums;
    boxbfs_status_t st = BOXBFS_OK;
    len = 2 * cells + 2 * BOXBFS_PHASE_COUNT + (2 + cells) * (size_t)tr->nlevels;
    BB_CHECK(bb_malloc(len * 8, "traffic sums", &sums));
    memcpy(sums, tr->link_bytes, cells * 8);
    memcpy(sums + cells, tr->link_messages, cells * 8);
    k = 2 * cells;
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) {
        sums[k++] = tr->phase_bytes[p];
        sums[k++] = tr->phase_messages[p];
    }
    for (int l = 0; l < tr->nlevels; l++) {
        sums[k++] = tr->levels[l].bytes;
        sums[k++] = tr->levels[l].messages;
    }
    memcpy(sums + k, tr->level_link_bytes, (size_t)tr->nlevels * cells * 8);
    MPI_Reduce(root ? MPI_IN_PLACE : sums, sums, (int)len, MPI_INT64_T, MPI_SUM, 0, t->comm);
    if (root) {
        memcpy(tr->link_bytes, sums, cells * 8);
        memcpy(tr->link_messages, sums + cells, cells * 8);
        k = 2 * cells;
        for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) {
            tr->phase_bytes[p] = sums[k++];
            tr->phase_messages[p] = sums[k++];
        }
        for (int l = 0; l < tr->nlevels; l++) {
            tr->levels[l].bytes = sums[k++];
            tr->levels[l].messages = sums[k++];
        }
        memcpy(tr->level_link_bytes, sums + k, (size_t)tr->nlevels * cells * 8);
    }
    free(sums);
    BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *counts, "gather counts", &counts), st, out);
    BB_CHECK_GOTO(bb_calloc((size_t)e->ndev, sizeof *displs, "gather offsets", &displs), st, out);
    for (int d = 0; d < e->ndev; d++) {
        uint64_t lo = e->part.lo[d], hi = e->part.lo[d + 1];
        if (hi > INT_MAX)
            BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, out,
                         "--exchange mpi gathers at most 2^31 vertices to rank 0");
        counts[d] = (int)(hi - lo);
        displs[d] = (int)lo;
    }
    if (e->level_out)
        MPI_Gatherv(root ? MPI_IN_PLACE : e->level_out + displs[self], counts[self], MPI_INT32_T,
                    e->level_out, counts, displs, MPI_INT32_T, 0, t->comm);
    if (e->parent_out)
        MPI_Gatherv(root ? MPI_IN_PLACE : e->parent_out + displs[self], counts[self], MPI_INT64_T,
                    e->parent_out, counts, displs, MPI_INT64_T, 0, t->comm);
out:
    free(counts);
    free(displs);
    return st;
}

/* The others wait in collectives that this rank will not join: say why and
 * end the job (mpirun reports the exit status). */
static void mpi_fail(boxbfs_engine_t e)
{
    mpi_team_t *t = e->team_state;
    fprintf(stderr, "boxbfs: rank %d: %s (%s); aborting the MPI job\n", t->rank,
            e->fail_message, boxbfs_status_string(e->fail));
    fflush(stderr);
    bb_abort_hook_run();   /* no partial output files */
    MPI_Abort(t->comm, 3);
}

/* One NCCL rank per process: rank 0 makes the unique id and broadcasts it
 * with its status (a failure there must not leave the others waiting in
 * ncclCommInitRank), then every rank joins on its own GPU. Called after the
 * setup was agreed, so every rank gets here. */
static boxbfs_status_t mpi_nccl_open(boxbfs_engine_t e)
{
    mpi_team_t *t = e->team_state;
    unsigned char msg[BB_NCCL_ID_BYTES + 1] = {0};
    boxbfs_status_t st = BOXBFS_OK;
    if (t->rank == 0) {
        st = bb_nccl_ops_ptr->unique_id(msg);
        msg[BB_NCCL_ID_BYTES] = st == BOXBFS_OK;
    }
    MPI_Bcast(msg, (int)sizeof msg, MPI_UNSIGNED_CHAR, 0, t->comm);
    if (st != BOXBFS_OK) return st;
    if (!msg[BB_NCCL_ID_BYTES])
        return bb_error_set(BOXBFS_ERR_DEVICE, "rank 0 could not make the NCCL unique id (its "
                                               "message is on its stderr)");
    return bb_nccl_ops_ptr->open_rank(msg, t->size, t->rank, e->order[t->rank], &e->xchg.nccl);
}

/* The lowest failing rank's status and message, everywhere. */
static boxbfs_status_t mpi_first_error(boxbfs_engine_t e, boxbfs_status_t st)
{
    mpi_team_t *t = e->team_state;
    boxbfs_status_t status;
    char message[1024];
    if (bb_mpi_first_failure(t->comm, st, &status, message, sizeof message) < 0) return BOXBFS_OK;
    return bb_error_set(status, "%s", message);
}

/* Every rank's rows of the levels to every rank, in place. The partition is
 * the same everywhere, so every rank refuses a graph too large alike. */
static boxbfs_status_t mpi_allgather_levels(boxbfs_engine_t e, int32_t *level)
{
    mpi_team_t *t = e->team_state;
    int *count = t->vcounts, *displ = t->vcounts + t->size;
    if (e->part.lo[t->size] > INT_MAX)
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "--exchange mpi checks trees of at most 2^31 - 1 vertices");
    for (int d = 0; d < t->size; d++) {
        count[d] = (int)(e->part.lo[d + 1] - e->part.lo[d]);
        displ[d] = (int)e->part.lo[d];
    }
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, level, count, displ, MPI_INT32_T, t->comm);
    return BOXBFS_OK;
}

/* The record counts by MPI_Alltoall, the room for those received agreed on
 * (a rank that cannot make it must not leave the others in the exchange),
 * then the records by MPI_Alltoallv. */
static boxbfs_status_t mpi_exchange_records(boxbfs_engine_t e, const int64_t *send,
                                            const int64_t *counts, int width, int64_t **recv_p,
                                            int64_t *nrecv_p)
{
    mpi_team_t *t = e->team_state;
    int *scount = t->vcounts, *sdispl = scount + t->size, *rcount = sdispl + t->size,
        *rdispl = rcount + t->size;
    int64_t sent = 0, got = 0, *recv = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    MPI_Datatype record;
    MPI_Alltoall(counts, 1, MPI_INT64_T, t->peer_counts, 1, MPI_INT64_T, t->comm);
    for (int r = 0; r < t->size; r++) {
        scount[r] = (int)counts[r];
        sdispl[r] = (int)sent;
        rcount[r] = (int)t->peer_counts[r];
        rdispl[r] = (int)got;
        sent += counts[r];
        got += t->peer_counts[r];
    }
    if (sent > INT_MAX || got > INT_MAX)
        st = bb_error_set(BOXBFS_ERR_UNSUPPORTED, "rank %d: %lld records to send and %lld to "
                          "receive: MPI counts hold at most 2^31 - 1", t->rank, (long long)sent,
                          (long long)got);
    else
        st = bb_malloc((size_t)(got > 0 ? got : 1) * (size_t)width * 8, "records received",
                       &recv);
    st = mpi_first_error(e, st);
    if (st != BOXBFS_OK) {
        free(recv);
        return st;
    }
    MPI_Type_contiguous(width, MPI_INT64_T, &record);
    MPI_Type_commit(&record);
    MPI_Alltoallv(send, scount, sdispl, record, recv, rcount, rdispl, record, t->comm);
    MPI_Type_free(&record);
    *recv_p = recv;
    *nrecv_p = got;
    return BOXBFS_OK;
}

static boxbfs_status_t mpi_allreduce(boxbfs_engine_t e, int64_t *values, int count, int max)
{
    mpi_team_t *t = e->team_state;
    MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_INT64_T, max ? MPI_MAX : MPI_SUM, t->comm);
    return BOXBFS_OK;
}

static const bb_team_ops_t team_mpi = {
    .name = "mpi",
    .open = mpi_open,
    .close = mpi_close,
    .agree = mpi_agree,
    .describe = mpi_describe,
    .barrier = mpi_barrier,
    .publish_rows = mpi_publish_rows,
    .publish_books = mpi_publish_books,
    .exchange = mpi_exchange,
    .finish = mpi_finish,
    .fail = mpi_fail,
    .nccl_open = mpi_nccl_open,
    .allgather_levels = mpi_allgather_levels,
    .exchange_records = mpi_exchange_records,
    .allreduce = mpi_allreduce,
    .first_error = mpi_first_error,
};

const bb_team_ops_t *const bb_team_mpi_ptr = &team_mpi;
