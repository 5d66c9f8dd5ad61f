/* The link probe: for every ordered pair of opened devices and every message
 * size, the median time of a peer copy, of a copy staged through the source's
 * pinned host buffer, and of both directions at once, after one warm-up, timed
 * with the backend's timers (CUDA events on the copy's stream; on the cpu
 * backend the monotonic clock around a memcpy between two emulated devices,
 * so its figures are host memcpy speeds, and its "bidirectional" copies run
 * one after the other). Latency: the median time of an 8-byte peer copy.
 * Peer access is enabled both ways for every pair where the backend allows
 * it (cudaDeviceCanAccessPeer) before anything is timed, so that a "peer"
 * figure is a direct copy; where it is not possible the figure is the
 * driver's staged copy, and bb_probe_t.direct and a warning say so. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "topology/topology.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct {
    const bb_device_ops_t *ops;
    bb_device_t **devs;
    void **src, **dst, **stage;
} bufs_t;

static boxbfs_status_t time_once(const bufs_t *b, int s, int d, int mode, size_t bytes,
                                 double *t_p)
{
    const bb_device_ops_t *ops = b->ops;
    bb_device_t *S = b->devs[s], *D = b->devs[d];
    double t1 = 0, t2 = 0;
    switch (mode) {
    case BOXBFS_PROBE_PEER:
        BB_CHECK(ops->timer_record(S, 0));
        BB_CHECK(ops->peer_copy(D, b->dst[d], S, b->src[s], bytes));
        BB_CHECK(ops->timer_record(S, 1));
        BB_CHECK(ops->sync(S));
        BB_CHECK(ops->timer_elapsed(S, 0, 1, &t1));
        break;
    case BOXBFS_PROBE_HOST:
        BB_CHECK(ops->timer_record(S, 0));
        BB_CHECK(ops->copy_d2h(S, b->stage[s], b->src[s], bytes));
        BB_CHECK(ops->timer_record(S, 1));
        BB_CHECK(ops->sync(S));
        BB_CHECK(ops->timer_record(D, 0));
        BB_CHECK(ops->copy_h2d(D, b->dst[d], b->stage[s], bytes));
        BB_CHECK(ops->timer_record(D, 1));
        BB_CHECK(ops->sync(D));
        BB_CHECK(ops->timer_elapsed(S, 0, 1, &t1));
        BB_CHECK(ops->timer_elapsed(D, 0, 1, &t2));
        t1 += t2;
        break;
    default:   /* both directions at once, each on its source's stream */
        BB_CHECK(ops->timer_record(S, 2));
        BB_CHECK(ops->timer_record(D, 2));
        BB_CHECK(ops->peer_copy(D, b->dst[d], S, b->src[s], bytes));
        BB_CHECK(ops->peer_copy(S, b->dst[s], D, b->src[d], bytes));
        BB_CHECK(ops->timer_record(S, 3));
        BB_CHECK(ops->timer_record(D, 3));
        BB_CHECK(ops->sync(S));
        BB_CHECK(ops->sync(D));
        BB_CHECK(ops->timer_elapsed(S, 2, 3, &t1));
        BB_CHECK(ops->timer_elapsed(D, 2, 3, &t2));
        if (t2 > t1) t1 = t2;
        break;
    }
    *t_p = t1;
    return BOXBFS_OK;
}

static boxbfs_status_t time_median(const bufs_t *b, int s, int d, int mode, size_t bytes,
                                   int repeats, double *scratch, double *t_p)
{
    double t;
    BB_CHECK(time_once(b, s, d, mode, bytes, &t));   /* warm-up */
    for (int r = 0; r < repeats; r++) BB_CHECK(time_once(b, s, d, mode, bytes, &scratch[r]));
    *t_p = median(scratch, repeats);
    return BOXBFS_OK;
}

void bb_probe_free(bb_probe_t *p)
{
    free(p->sizes);
    free(p->times);
    free(p->lat);
    free(p->direct);
    memset(p, 0, sizeof *p);
}

boxbfs_status_t bb_probe_run(const bb_device_ops_t *ops, bb_device_t **devs, int ndev,
                             const size_t *sizes, int nsizes, int repeats, int modes_mask,
                             bb_probe_t *p)
{
    bufs_t b = {ops, devs, NULL, NULL, NULL};
    boxbfs_status_t st = BOXBFS_OK;
    size_t max = 8, n = (size_t)ndev;
    double *scratch = NULL;
    memset(p, 0, sizeof *p);
    if (ndev < 1 || nsizes < 1 || repeats < 1)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "probe: %d devices, %d sizes, %d repeats",
                            ndev, nsizes, repeats);
    for (int k = 0; k < nsizes; k++)
        if (sizes[k] > max) max = sizes[k];
    p->ndev = ndev;
    p->nsizes = nsizes;
    BB_CHECK_GOTO(bb_calloc((size_t)nsizes, sizeof(size_t), "probe sizes", &p->sizes), st, out);
    memcpy(p->sizes, sizes, (size_t)nsizes * sizeof(size_t));
    BB_CHECK_GOTO(bb_calloc(n * n * BOXBFS_PROBE_MODES * (size_t)nsizes, sizeof(double),
                            "probe times", &p->times), st, out);
    BB_CHECK_GOTO(bb_calloc(n * n, sizeof(double), "probe latencies", &p->lat), st, out);
    BB_CHECK_GOTO(bb_calloc(n * n, sizeof(int), "probe peer paths", &p->direct), st, out);
    for (int s = 0; s < ndev; s++)
        for (int d = 0; d < ndev; d++) {
            int ok = 0;
            if (s == d) continue;
            BB_CHECK_GOTO(ops->enable_peer(devs[s], devs[d], &ok), st, out);
            p->direct[(size_t)s * n + d] = ok;
            if (!ok)
                BB_WARN(s, "peer access %d -> %d is not possible: its peer-copy figures are "
                        "copies the driver stages through host memory", s, d);
        }
    BB_CHECK_GOTO(bb_calloc((size_t)repeats, sizeof(double), "probe samples", &scratch), st, out);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(void *), "probe buffers", &b.src), st, out);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(void *), "probe buffers", &b.dst), st, out);
    BB_CHECK_GOTO(bb_calloc(n, sizeof(void *), "probe buffers", &b.stage), st, out);
    for (int d = 0; d < ndev; d++) {
        BB_CHECK_GOTO(ops->alloc(devs[d], max, &b.src[d]), st, out);
        BB_CHECK_GOTO(ops->alloc(devs[d], max, &b.dst[d]), st, out);
        BB_CHECK_GOTO(ops->host_alloc(devs[d], max, &b.stage[d]), st, out);
        /* touch everything once: no first-touch or zero-page effects in the timings */
        memset(b.stage[d], 0x5a, max);
        BB_CHECK_GOTO(ops->copy_h2d(devs[d], b.src[d], b.stage[d], max), st, out);
        BB_CHECK_GOTO(ops->copy_h2d(devs[d], b.dst[d], b.stage[d], max), st, out);
        BB_CHECK_GOTO(ops->sync(devs[d]), st, out);
    }
    for (int s = 0; s < ndev; s++)
        for (int d = 0; d < ndev; d++) {
            if (s == d) continue;
            BB_CHECK_GOTO(time_median(&b, s, d, BOXBFS_PROBE_PEER, 8, repeats, scratch,
                                      &p->lat[(size_t)s * n + d]), st, out);
            for (int mode = 0; mode < BOXBFS_PROBE_MODES; mode++) {
                if (!(modes_mask & (1 << mode))) continue;
                for (int k = 0; k < nsizes; k++)
                    BB_CHECK_GOTO(time_median(&b, s, d, mode, sizes[k], repeats, scratch,
                                              &p->times[(((size_t)s * n + d) * BOXBFS_PROBE_MODES +
                                                         (size_t)mode) * (size_t)nsizes + (size_t)k]),
                                  st, out);
            }
        }
out:
    for (int d = 0; d < ndev; d++) {
        if (b.src && b.src[d]) ops->free(devs[d], b.src[d]);
        if (b.dst && b.dst[d]) ops->free(devs[d], b.dst[d]);
        if (b.stage && b.stage[d]) ops->host_free(devs[d], b.stage[d]);
    }
    free(b.src);
    free(b.dst);
    free(b.stage);
    free(scratch);
    if (st != BOXBFS_OK) bb_probe_free(p);
    return st;
}

boxbfs_status_t bb_probe_linkmat(const bb_probe_t *p, bb_linkmat_t *L)
{
    size_t n = (size_t)p->ndev, last = (size_t)p->nsizes - 1;
    BB_CHECK(bb_linkmat_alloc(L, p->ndev));
    snprintf(L->name, sizeof L->name, "measured");
    for (size_t s = 0; s < n; s++)
        for (size_t d = 0; d < n; d++) {
            double t;
            if (s == d) continue;
            t = p->times[((s * n + d) * BOXBFS_PROBE_MODES + BOXBFS_PROBE_PEER) * (size_t)p->nsizes +
                         last];
            /* a copy so fast the clock missed it: call it 1 ns */
            L->bw[s * n + d] = (double)p->sizes[last] / (t > 1e-9 ? t : 1e-9);
            L->lat[s * n + d] = p->lat[s * n + d];
        }
    return BOXBFS_OK;
}
