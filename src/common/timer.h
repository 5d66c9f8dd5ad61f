/* Wall-clock seconds from a monotonic clock (host-side timing). */
#ifndef BB_TIMER_H
#define BB_TIMER_H

#include <time.h>

static inline double bb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif /* BB_TIMER_H */
