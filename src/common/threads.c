/* Fork-join over pthreads; every pthread_create is checked and a failed one
 * runs its share on the caller so that no work is lost. */
#include "config.h"

#include "common/threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/error.h"
#include "common/timer.h"

int bb_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

typedef struct {
    bb_thread_fn fn;
    void *arg;
    int tid, nthreads;
    boxbfs_status_t status;
    char message[1024];
} worker_t;

static void *worker_main(void *p)
{
    worker_t *w = p;
    w->status = w->fn(w->tid, w->nthreads, w->arg);
    if (w->status != BOXBFS_OK) {
        const char *m = boxbfs_last_error();
        size_t i = 0;
        for (; m[i] && i + 1 < sizeof w->message; i++) w->message[i] = m[i];
        w->message[i] = '\0';
    }
    return NULL;
}

boxbfs_status_t bb_parallel_run(int nthreads, bb_thread_fn fn, void *arg)
{
    worker_t *workers;
    pthread_t *threads;
    char *started;
    boxbfs_status_t st = BOXBFS_OK;
    if (nthreads < 1) nthreads = 1;
    if (nthreads == 1) return fn(0, 1, arg);
    workers = calloc((size_t)nthreads, sizeof *workers);
    threads = calloc((size_t)nthreads, sizeof *threads);
    started = calloc((size_t)nthreads, 1);
    if (!workers || !threads || !started) {
        free(workers); free(threads); free(started);
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot allocate %d thread records", nthreads);
    }
    for (int t = 0; t < nthreads; t++) {
        workers[t] = (worker_t){.fn = fn, .arg = arg, .tid = t, .nthreads = nthreads};
        if (t > 0) started[t] = pthread_create(&threads[t], NULL, worker_main, &workers[t]) == 0;
    }
    worker_main(&workers[0]);
    for (int t = 1; t < nthreads; t++) {
        if (started[t]) pthread_join(threads[t], NULL);
        else worker_main(&workers[t]);   /* could not start: do its share here */
    }
    for (int t = 0; t < nthreads; t++) {
        if (workers[t].status != BOXBFS_OK) {
            st = workers[t].status;
            bb_error_set(st, "%s", workers[t].message);
            break;
        }
    }
    free(workers); free(threads); free(started);
    return st;
}

void bb_split_range(int64_t count, int tid, int nthreads, int64_t *lo_p, int64_t *hi_p)
{
    int64_t base = count / nthreads, rem = count % nthreads;
    *lo_p = tid * base + (tid < rem ? tid : rem);
    *hi_p = *lo_p + base + (tid < rem ? 1 : 0);
}

boxbfs_status_t bb_barrier_init(bb_barrier_t *b, int count)
{
    if (pthread_mutex_init(&b->lock, NULL) != 0)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cannot create a mutex");
    if (pthread_cond_init(&b->cond, NULL) != 0) {
        pthread_mutex_destroy(&b->lock);
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cannot create a condition variable");
    }
    b->count = count;
    b->waiting = 0;
    b->sleepers = 0;
    b->spin = count > 1 && count <= bb_cpu_count();
    atomic_init(&b->aborted, 0);
    atomic_init(&b->generation, 0);
    return BOXBFS_OK;
}

void bb_barrier_destroy(bb_barrier_t *b)
{
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->lock);
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin until generation gen has passed or the barrier was aborted, for at
 * most BB_BARRIER_SPIN_S (the clock read every 64 turns). */
static void spin_while(bb_barrier_t *b, unsigned long gen)
{
    double until = bb_now_s() + BB_BARRIER_SPIN_S;
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&b->generation, memory_order_acquire) != gen ||
            atomic_load_explicit(&b->aborted, memory_order_relaxed))
            return;
        cpu_relax();
        if (i % 64 == 0 && bb_now_s() > until) return;
    }
}

int bb_barrier_wait(bb_barrier_t *b)
{
    int aborted;
    unsigned long gen;
    pthread_mutex_lock(&b->lock);
    if (atomic_load(&b->aborted)) {
        pthread_mutex_unlock(&b->lock);
        return 1;
    }
    gen = atomic_load(&b->generation);
    if (++b->waiting == b->count) {   /* the last to arrive lets everyone go */
        b->waiting = 0;
        atomic_store_explicit(&b->generation, gen + 1, memory_order_release);
        if (b->sleepers) pthread_cond_broadcast(&b->cond);
        pthread_mutex_unlock(&b->lock);
        return 0;
    }
    if (b->spin) {
        pthread_mutex_unlock(&b->lock);
        spin_while(b, gen);
        pthread_mutex_lock(&b->lock);
    }
    b->sleepers++;
    while (gen == atomic_load(&b->generation) && !atomic_load(&b->aborted))
        pthread_cond_wait(&b->cond, &b->lock);
    b->sleepers--;
    aborted = atomic_load(&b->aborted);
    pthread_mutex_unlock(&b->lock);
    return aborted;
}

void bb_barrier_abort(bb_barrier_t *b)
{
    pthread_mutex_lock(&b->lock);
    atomic_store(&b->aborted, 1);
    pthread_cond_broadcast(&b->cond);
    pthread_mutex_unlock(&b->lock);
}

int bb_barrier_aborted(bb_barrier_t *b) { return atomic_load(&b->aborted); }

void bb_barrier_reset(bb_barrier_t *b)
{
    pthread_mutex_lock(&b->lock);
    atomic_store(&b->aborted, 0);
    b->waiting = 0;
    pthread_mutex_unlock(&b->lock);
}
