/* Host threads: a fork-join helper for data-parallel loops (generator, CSR
 * builder) and the CPU count used for default thread counts. */
#ifndef BB_THREADS_H
#define BB_THREADS_H

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

#endif /* BB_THREADS_H */
