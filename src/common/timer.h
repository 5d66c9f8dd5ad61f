/* Wall-clock seconds from a monotonic clock (host-side timing), and a wait
 * until such a time (--throttle's pacing). */
#ifndef BB_TIMER_H
#define BB_TIMER_H

#include <errno.h>
#include <time.h>

static inline double bb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Return at the monotonic time t (seconds): sleep the bulk, spin the last 200 us. */
static inline void bb_wait_until(double t)
{
    for (;;) {
        double left = t - bb_now_s();
        if (left <= 0) return;
        if (left > 200e-6) {
            double nap = left - 150e-6;
            struct timespec ts = {(time_t)nap, (long)((nap - (double)(time_t)nap) * 1e9)};
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
        }
    }
}

#endif /* BB_TIMER_H */
