/* --exchange nccl [003 §5.2, moved by NCCL instead of the left-right copies]:
 * one communicator per GPU of this process, from ncclCommInitAll (one
 * process, every GPU) or ncclCommInitRank (one GPU per MPI rank), and one
 * all-to-all round of point-to-point messages per call, issued by each
 * device's own host thread inside its own ncclGroupStart/ncclGroupEnd.
 * NCCL supports one thread per rank: the group calls of the ranks of one
 * ncclCommInitAll clique must be issued concurrently (one thread issuing
 * them one after the other would deadlock in the first ncclGroupEnd), and
 * the engine's device threads do exactly that, one rank each. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccl.h>

#include "kernels/cuda/cuda_check.h"

extern "C" {
#include "kernels/nccl.h"
}

static_assert(sizeof(ncclUniqueId) == BB_NCCL_ID_BYTES, "BB_NCCL_ID_BYTES is NCCL's id size");

struct bb_nccl {
    int n;               /* ranks of the communicator, over all processes */
    int first, nlocal;   /* this process holds ranks first .. first + nlocal - 1 */
    int *ordinals;       /* local rank r runs on GPU ordinals[r] */
    ncclComm_t *comms;   /* local rank r's communicator; NULL once aborted */
    int keep;            /* from ncclCommInitAll: closing keeps it for the next open */
};

/* The last closed clique of ncclCommInitAll, healthy, for the next open over
 * the same GPUs: NCCL's start (half a second alone; seconds while other
 * processes' kernels hold the GPU, its channels' synchronous copies waiting
 * for their turn) is paid once per process, not once per engine. Its NCCL
 * buffers stay on the GPUs until an open over other GPUs or the process's
 * exit, which destroys it (an atexit handler registered after the CUDA
 * runtime started, so it runs before the runtime's own). */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;
static bb_nccl_t *kept;

/* Record what failed with NCCL's message and return DEVICE. */
static boxbfs_status_t nccl_fail(ncclResult_t res, const char *what, const char *file, int line)
{
    const char *rel = strstr(file, "kernels/");
    return bb_error_set(BOXBFS_ERR_DEVICE, "%s failed at %s:%d: %s (NCCL_DEBUG=WARN tells more)",
                        what, rel ? rel : file, line, ncclGetErrorString(res));
}

#define BB_NCCL_CHECK(call)                                                     \
    do {                                                                        \
        ncclResult_t bb_nccl_res_ = (call);                                     \
        if (bb_nccl_res_ != ncclSuccess)                                        \
            return nccl_fail(bb_nccl_res_, #call, __FILE__, __LINE__);          \
    } while (0)

#define BB_NCCL_CHECK_GOTO(call, st, label)                                     \
    do {                                                                        \
        ncclResult_t bb_nccl_res_ = (call);                                     \
        if (bb_nccl_res_ != ncclSuccess) {                                      \
            (st) = nccl_fail(bb_nccl_res_, #call, __FILE__, __LINE__);          \
            goto label;                                                         \
        }                                                                       \
    } while (0)

static void nccl_destroy(bb_nccl_t *c)
{
    if (c == NULL) return;
    /* one thread destroys the whole clique in turn (NCCL's single-process
     * example does the same); nothing is in flight between searches */
    for (int r = 0; c->comms && r < c->nlocal; r++)
        if (c->comms[r]) (void)ncclCommDestroy(c->comms[r]);
    (void)cudaGetLastError();
    free(c->comms);
    free(c->ordinals);
    free(c);
}

/* Every rank alive, no asynchronous error: the clique can serve again. */
static int nccl_healthy(const bb_nccl_t *c)
{
    for (int r = 0; r < c->nlocal; r++) {
        ncclResult_t async = ncclSuccess;
        if (c->comms[r] == NULL || ncclCommGetAsyncError(c->comms[r], &async) != ncclSuccess ||
            async != ncclSuccess)
            return 0;
    }
    return 1;
}

/* The kept clique, no longer kept (NULL: none). */
static bb_nccl_t *kept_take(void)
{
    bb_nccl_t *c;
    pthread_mutex_lock(&kept_lock);
    c = kept;
    kept = NULL;
    pthread_mutex_unlock(&kept_lock);
    return c;
}

static void nccl_destroy_kept(void) { nccl_destroy(kept_take()); }

static void nccl_destroy_kept_at_exit(void) { (void)atexit(nccl_destroy_kept); }

/* A healthy clique of ncclCommInitAll is kept (the one kept before it
 * destroyed); any other is destroyed. */
static void nccl_close(bb_nccl_t *c)
{
    bb_nccl_t *old = c;
    if (c && c->keep && nccl_healthy(c)) {
        (void)pthread_once(&kept_once, nccl_destroy_kept_at_exit);
        pthread_mutex_lock(&kept_lock);
        old = kept;
        kept = c;
        pthread_mutex_unlock(&kept_lock);
    }
    nccl_destroy(old);
}

/* The kept clique when it spans exactly these ordinals (it is no longer
 * kept), else NULL (one over other GPUs is destroyed). */
static bb_nccl_t *nccl_take_kept(const int *ordinals, int n)
{
    bb_nccl_t *c = kept_take();
    if (c && c->n == n && memcmp(c->ordinals, ordinals, (size_t)n * sizeof *ordinals) == 0)
        return c;
    nccl_destroy(c);
    return NULL;
}

/* NVLink SHARP (NVLS) must stay off on the GPU machines this runs on (an
 * explicit setting in the environment wins); before NCCL's first call. */
static boxbfs_status_t nvls_off(void)
{
    if (setenv("NCCL_NVLS_ENABLE", "0", 0) != 0)
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "setenv NCCL_NVLS_ENABLE failed");
    return BOXBFS_OK;
}

/* The record of ranks first .. first + nlocal - 1 of n, before any
 * communicator exists. */
static boxbfs_status_t nccl_alloc(int n, int first, int nlocal, const int *ordinals,
                                  bb_nccl_t **c_p)
{
    bb_nccl_t *c;
    boxbfs_status_t st = BOXBFS_OK;
    BB_CHECK(nvls_off());
    BB_CHECK(bb_calloc(1, sizeof *c, "the NCCL communicators", &c));
    c->n = n;
    c->first = first;
    c->nlocal = nlocal;
    BB_CHECK_GOTO(bb_calloc((size_t)nlocal, sizeof *c->ordinals, "NCCL ranks", &c->ordinals), st,
                  fail);
    BB_CHECK_GOTO(bb_calloc((size_t)nlocal, sizeof *c->comms, "NCCL communicators", &c->comms),
                  st, fail);
    memcpy(c->ordinals, ordinals, (size_t)nlocal * sizeof *ordinals);
    *c_p = c;
    return BOXBFS_OK;
fail:
    nccl_close(c);
    return st;
}

static boxbfs_status_t nccl_open(const int *ordinals, int n, bb_nccl_t **nccl_p)
{
    bb_nccl_t *c = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    ncclResult_t res;
    char list[256] = "";
    size_t used = 0;
    for (int r = 0; r < n; r++) {
        for (int q = 0; q < r; q++)
            if (ordinals[q] == ordinals[r])
                return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                                    "--exchange nccl: GPU %d is given twice (devices %d and %d); "
                                    "NCCL runs one rank per GPU", ordinals[r], q, r);
        if (used < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", r ? "," : "",
                                     ordinals[r]);
    }
    if ((c = nccl_take_kept(ordinals, n)) != NULL) {
        *nccl_p = c;
        return BOXBFS_OK;
    }
    BB_CHECK(nccl_alloc(n, 0, n, ordinals, &c));
    res = ncclCommInitAll(c->comms, n, c->ordinals);
    if (res != ncclSuccess) {
        memset(c->comms, 0, (size_t)n * sizeof *c->comms);   /* none was created */
        (void)cudaGetLastError();
        BB_FAIL_GOTO(st, BOXBFS_ERR_DEVICE, fail,
                     "ncclCommInitAll over %d GPU%s (ordinals %s) failed: %s (NCCL_DEBUG=WARN "
                     "tells more)", n, n == 1 ? "" : "s", list, ncclGetErrorString(res));
    }
    c->keep = 1;
    *nccl_p = c;
    return BOXBFS_OK;
fail:
    nccl_close(c);
    return st;
}

static boxbfs_status_t nccl_unique_id(unsigned char id[BB_NCCL_ID_BYTES])
{
    ncclUniqueId uid;
    BB_CHECK(nvls_off());
    BB_NCCL_CHECK(ncclGetUniqueId(&uid));
    memcpy(id, &uid, sizeof uid);
    return BOXBFS_OK;
}

static boxbfs_status_t nccl_open_rank(const unsigned char id[BB_NCCL_ID_BYTES], int nranks,
                                      int rank, int ordinal, bb_nccl_t **nccl_p)
{
    bb_nccl_t *c = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    ncclUniqueId uid;
    ncclResult_t res;
    memcpy(&uid, id, sizeof uid);
    BB_CHECK(nccl_alloc(nranks, rank, 1, &ordinal, &c));
    BB_CUDA_CHECK_GOTO(cudaSetDevice(ordinal), st, fail);
    res = ncclCommInitRank(&c->comms[0], nranks, uid, rank);
    if (res != ncclSuccess) {
        c->comms[0] = NULL;
        (void)cudaGetLastError();
        BB_FAIL_GOTO(st, BOXBFS_ERR_DEVICE, fail,
                     "ncclCommInitRank (rank %d of %d, GPU %d) failed: %s (NCCL_DEBUG=WARN "
                     "tells more)", rank, nranks, ordinal, ncclGetErrorString(res));
    }
    *nccl_p = c;
    return BOXBFS_OK;
fail:
    nccl_close(c);
    return st;
}

/* Wait for the round on stream; abort this rank's communicator when another
 * device failed (its partners' messages will never come) or NCCL reports an
 * asynchronous error. */
static boxbfs_status_t wait_round(bb_nccl_t *c, int self, cudaStream_t stream,
                                  int (*aborted)(void *), void *arg)
{
    int me = self - c->first;
    for (;;) {
        ncclResult_t async = ncclSuccess;
        cudaError_t q = cudaStreamQuery(stream);
        if (q == cudaSuccess) return BOXBFS_OK;
        if (q != cudaErrorNotReady) BB_CUDA_CHECK(q);
        BB_NCCL_CHECK(ncclCommGetAsyncError(c->comms[me], &async));
        if (async != ncclSuccess && async != ncclInProgress) {
            (void)ncclCommAbort(c->comms[me]);
            c->comms[me] = NULL;
            return nccl_fail(async, "an NCCL round (asynchronous error)", __FILE__, __LINE__);
        }
        if (aborted && aborted(arg)) {
            (void)ncclCommAbort(c->comms[me]);
            c->comms[me] = NULL;
            (void)cudaGetLastError();
            return bb_error_set(BOXBFS_ERR_DEVICE,
                                "device %d: NCCL round aborted because another device failed",
                                self);
        }
        sched_yield();
    }
}

/* Sizes first, not a fixed bound: every rank already holds the whole bytes
 * matrix (the engine published the rows before the round: the `sizes`
 * phase), so each message is exactly as long as its payload and an empty one
 * is not sent at all. A fixed-size bound (send every pair's worst case, the
 * owner's whole range) would move up to N - 1 full ranges per device per
 * level and make the NCCL bytes differ from the peer exchange's. */
static boxbfs_status_t nccl_round(bb_nccl_t *c, int self, void *stream_v, const void *const *src,
                                  void *const *recv, const uint64_t *bytes,
                                  int (*aborted)(void *), void *arg)
{
    cudaStream_t stream = (cudaStream_t)stream_v;
    size_t n = (size_t)c->n, me = (size_t)self;
    int local = self - c->first, ops = 0;
    ncclComm_t comm;
    boxbfs_status_t st = BOXBFS_OK;
    if (local < 0 || local >= c->nlocal)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "NCCL rank %d is not one of this process's", self);
    comm = c->comms[local];
    if (comm == NULL)
        return bb_error_set(BOXBFS_ERR_DEVICE,
                            "device %d: its NCCL communicator was aborted by an earlier failure",
                            self);
    for (size_t p = 0; p < n; p++)
        if (p != me && (bytes[me * n + p] || bytes[p * n + me])) ops++;
    if (ops == 0) return BOXBFS_OK;   /* nothing to or from this device this round */
    BB_CUDA_CHECK(cudaSetDevice(c->ordinals[local]));
    BB_NCCL_CHECK(ncclGroupStart());
    for (size_t p = 0; p < n; p++) {
        uint64_t out = bytes[me * n + p], in = bytes[p * n + me];
        if (p == me) continue;
        if (out)
            BB_NCCL_CHECK_GOTO(ncclSend(src[me * n + p], (size_t)out, ncclUint8, (int)p, comm,
                                        stream), st, out_group);
        if (in)
            BB_NCCL_CHECK_GOTO(ncclRecv(recv[me * n + p], (size_t)in, ncclUint8, (int)p, comm,
                                        stream), st, out_group);
    }
out_group:
    /* the group is always closed, also after a failed enqueue */
    {
        ncclResult_t res = ncclGroupEnd();
        if (st != BOXBFS_OK) return st;
        if (res != ncclSuccess) return nccl_fail(res, "ncclGroupEnd()", __FILE__, __LINE__);
    }
    return wait_round(c, self, stream, aborted, arg);
}

static const bb_nccl_ops_t bb_nccl_ops = {
    .open = nccl_open,
    .unique_id = nccl_unique_id,
    .open_rank = nccl_open_rank,
    .close = nccl_close,
    .round = nccl_round,
};

const bb_nccl_ops_t *const bb_nccl_ops_ptr = &bb_nccl_ops;
