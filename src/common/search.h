/* Binary search over ascending int64 arrays (CSR offsets, sorted rows,
 * sorted external ids): one lower bound for every caller. */
#ifndef BB_SEARCH_H
#define BB_SEARCH_H

#include <stdint.h>

/* First index i in [lo, hi) with a[i] >= key, or hi when there is none. */
static inline int64_t bb_lower_bound_i64(const int64_t *a, int64_t lo, int64_t hi, int64_t key)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

#endif /* BB_SEARCH_H */
