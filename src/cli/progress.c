/* Progress lines on stderr for long CLI work ("label  i/n  42%  ETA 3s"),
 * drawn only when stderr is a terminal, at most ten times a second, and
 * erased by bb_progress_end so the terminal is left as it was. With total
 * <= 0 the amount of work is unknown: the line shows the elapsed time, which
 * a ticker thread redraws during one long call (bb_progress_tick_start). */
#include "config.h"

#include "cli/cli.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "common/timer.h"

#define MIN_INTERVAL_S 0.1

void bb_progress_start(bb_progress_t *p, const char *label, int64_t total)
{
    p->label = label != NULL ? label : "";
    p->total = total;
    p->t0 = bb_now_s();
    p->last = 0.0;   /* 0: nothing drawn yet */
    p->enabled = isatty(STDERR_FILENO);
}

static void format_seconds(char *buf, size_t size, double s)
{
    if (s < 0.0) s = 0.0;
    if (s < 60.0) snprintf(buf, size, "%.0fs", s);
    else if (s < 3600.0) snprintf(buf, size, "%dm%02ds", (int)(s / 60.0), (int)s % 60);
    else snprintf(buf, size, "%dh%02dm", (int)(s / 3600.0), (int)(s / 60.0) % 60);
}

void bb_progress_update(bb_progress_t *p, int64_t done)
{
    double now, elapsed;
    char time_text[32];

    if (p == NULL || !p->enabled) return;
    now = bb_now_s();
    /* Throttle, but always draw the first update and the last one. */
    if (p->last > 0.0 && now - p->last < MIN_INTERVAL_S && (p->total <= 0 || done < p->total))
        return;
    p->last = now;
    elapsed = now - p->t0;
    if (p->total > 0) {
        if (done < 0) done = 0;
        if (done > p->total) done = p->total;
        if (done > 0) {
            format_seconds(time_text, sizeof time_text,
                           elapsed * (double)(p->total - done) / (double)done);
        } else {
            snprintf(time_text, sizeof time_text, "?");
        }
        /* \r returns to the line start, \033[K erases what a longer line left. */
        fprintf(stderr, "\r%s  %" PRId64 "/%" PRId64 "  %3.0f%%  ETA %s\033[K", p->label, done,
                p->total, 100.0 * (double)done / (double)p->total, time_text);
    } else {
        format_seconds(time_text, sizeof time_text, elapsed);
        if (done > 0) fprintf(stderr, "\r%s  %" PRId64 "  %s\033[K", p->label, done, time_text);
        else fprintf(stderr, "\r%s ...  %s\033[K", p->label, time_text);
    }
    fflush(stderr);
}

void bb_progress_end(bb_progress_t *p)
{
    if (p == NULL || !p->enabled || p->last == 0.0) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->last = 0.0;
}

typedef struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
} ticker_t;

static void *tick_main(void *arg)
{
    bb_progress_tick_t *t = arg;
    ticker_t *k = t->sync;
    pthread_mutex_lock(&k->lock);
    while (!k->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 500000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&k->cond, &k->lock, &until);
        if (!k->stop) bb_progress_update(t->p, 0);
    }
    pthread_mutex_unlock(&k->lock);
    return NULL;
}

void bb_progress_tick_start(bb_progress_tick_t *t, bb_progress_t *p)
{
    ticker_t *k;
    t->p = p;
    t->running = 0;
    t->sync = NULL;
    if (!p->enabled || (k = calloc(1, sizeof *k)) == NULL) return;
    pthread_mutex_init(&k->lock, NULL);
    pthread_cond_init(&k->cond, NULL);
    t->sync = k;
    if (pthread_create(&k->thread, NULL, tick_main, t) != 0) {   /* no ticking: not an error */
        pthread_mutex_destroy(&k->lock);
        pthread_cond_destroy(&k->cond);
        free(k);
        t->sync = NULL;
        return;
    }
    t->running = 1;
}

void bb_progress_tick_stop(bb_progress_tick_t *t)
{
    ticker_t *k = t->sync;
    if (!t->running) return;
    pthread_mutex_lock(&k->lock);
    k->stop = 1;
    pthread_cond_signal(&k->cond);
    pthread_mutex_unlock(&k->lock);
    pthread_join(k->thread, NULL);
    pthread_mutex_destroy(&k->lock);
    pthread_cond_destroy(&k->cond);
    free(k);
    t->sync = NULL;
    t->running = 0;
}
