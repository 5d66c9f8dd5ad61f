/* Host threads: a fork-join helper for data-parallel loops (generator, CSR
 * builder) and the CPU count used for default thread counts. */
#ifndef BB_THREADS_H
#define BB_THREADS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "boxbfs.h"

int bb_cpu_count(void);

/* Run fn(tid, nthreads, arg) on nthreads threads (tid 0 on the caller) and
 * join them. Returns the first non-OK status of fn (by tid), or NO_MEMORY /
 * INTERNAL when a thread cannot be created (the others still finish). */
typedef boxbfs_status_t (*bb_thread_fn)(int tid, int nthreads, void *arg);
boxbfs_status_t bb_parallel_run(int nthreads, bb_thread_fn fn, void *arg);

/* The slice [*lo_p, *hi_p) of [0, count) that thread tid of nthreads takes. */
void bb_split_range(int64_t count, int tid, int nthreads, int64_t *lo_p, int64_t *hi_p);

/* A barrier that a failing thread can abort: after bb_barrier_abort() every
 * wait returns at once with 1, so no thread hangs on a dead partner. A
 * waiter spins for up to BB_BARRIER_SPIN_S before it sleeps, where every
 * thread has a core of its own: the device threads meet several times per
 * BFS level, and a futex wake-up costs tens of microseconds. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int count, waiting, sleepers, spin;
    atomic_int aborted;
    atomic_ulong generation;
} bb_barrier_t;

#define BB_BARRIER_SPIN_S 200e-6

boxbfs_status_t bb_barrier_init(bb_barrier_t *b, int count);
void bb_barrier_destroy(bb_barrier_t *b);
/* Returns 0 when all count threads arrived, 1 if the barrier was aborted. */
int bb_barrier_wait(bb_barrier_t *b);
void bb_barrier_abort(bb_barrier_t *b);
/* 1 once the barrier was aborted (a thread polling a device can stop). */
int bb_barrier_aborted(bb_barrier_t *b);
/* Clear the abort flag (between searches, with no thread waiting). */
void bb_barrier_reset(bb_barrier_t *b);

#endif /* BB_THREADS_H */
