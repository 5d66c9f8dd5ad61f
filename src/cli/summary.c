/* Statistics over per-root results as the Graph500 reference reports them:
 * harmonic mean (for TEPS: n / sum(1/x) over the positive values), minimum,
 * quartiles by linear interpolation between order statistics at p * (n - 1),
 * maximum, arithmetic mean and sample standard deviation. */
#include "config.h"

#include "cli/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Order statistic at fraction p of a sorted array, interpolated linearly. */
static double quantile(const double *sorted, int n, double p)
{
    double pos = p * (double)(n - 1);
    int lo = (int)floor(pos);
    double frac = pos - (double)lo;
    if (lo >= n - 1) return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void bb_summarize(const double *values, int n, bb_summary_t *s)
{
    double stack_copy[256];
    double *sorted = stack_copy;
    double sum = 0.0, inverse_sum = 0.0, squares = 0.0;
    int positive = 0;

    if (s == NULL) return;
    if (values == NULL || n < 1) {
        s->harmonic_mean = s->min = s->q1 = s->median = s->q3 = s->max = NAN;
        s->mean = s->stddev = NAN;
        return;
    }
    for (int i = 0; i < n; i++) {
        sum += values[i];
        if (values[i] > 0.0) {
            inverse_sum += 1.0 / values[i];
            positive++;
        }
    }
    s->mean = sum / n;
    for (int i = 0; i < n; i++) squares += (values[i] - s->mean) * (values[i] - s->mean);
    s->stddev = n > 1 ? sqrt(squares / (n - 1)) : 0.0;
    /* No positive value (every search took no time or found nothing): 0. */
    s->harmonic_mean = positive > 0 ? positive / inverse_sum : 0.0;

    if ((size_t)n > sizeof stack_copy / sizeof stack_copy[0]) {
        sorted = malloc((size_t)n * sizeof *sorted);
        if (sorted == NULL) {   /* no order statistics without a copy */
            s->min = s->q1 = s->median = s->q3 = s->max = NAN;
            return;
        }
    }
    memcpy(sorted, values, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    s->min = sorted[0];
    s->q1 = quantile(sorted, n, 0.25);
    s->median = quantile(sorted, n, 0.5);
    s->q3 = quantile(sorted, n, 0.75);
    s->max = sorted[n - 1];
    if (sorted != stack_copy) free(sorted);
}

void bb_busy_spread(const double *busy_s, int n, double *spread_s_p, double *fraction_p)
{
    double lo = busy_s[0], hi = busy_s[0];
    for (int i = 1; i < n; i++) {
        if (busy_s[i] < lo) lo = busy_s[i];
        if (busy_s[i] > hi) hi = busy_s[i];
    }
    *spread_s_p = hi - lo;
    *fraction_p = hi > 0 ? (hi - lo) / hi : 0;
}
