/* Per-link traffic accounting [DESIGN "Traffic accounting"]: every byte that
 * leaves a device is counted where the copy is issued, per (source,
 * destination) link, per level and per phase, with message counts. Counts are
 * properties of the algorithm: the cpu and cuda backends report the same. */
#ifndef BB_TRAFFIC_H
#define BB_TRAFFIC_H

#include <pthread.h>
#include <stdint.h>

#include "boxbfs.h"

typedef struct {
    int ndev;
    int64_t *link_bytes, *link_messages;     /* ndev x ndev, row = source */
    int64_t phase_bytes[BOXBFS_PHASE_COUNT], phase_messages[BOXBFS_PHASE_COUNT];
    boxbfs_level_report_t *levels;           /* nlevels used, cap allocated */
    int64_t *level_link_bytes;               /* cap x ndev x ndev: bytes per level and link */
    boxbfs_level_device_t *level_devices;    /* cap x ndev: each device's part of a level */
    int nlevels, cap;
    pthread_mutex_t lock;
} bb_traffic_t;

boxbfs_status_t bb_traffic_init(bb_traffic_t *t, int ndev);
void bb_traffic_free(bb_traffic_t *t);
/* Forget everything counted (before a search). */
void bb_traffic_reset(bb_traffic_t *t);
/* Make level reports 0..level exist (zeroed, numbered). */
boxbfs_status_t bb_traffic_level(bb_traffic_t *t, int level);
/* Count bytes and messages on src -> dst in a phase; level < 0 counts no level.
 * Thread-safe. A zero-byte message is not a message: nothing is counted. */
void bb_traffic_add(bb_traffic_t *t, boxbfs_phase_t phase, int level, int src, int dst,
                    int64_t bytes, int64_t messages);
int64_t bb_traffic_total_bytes(const bb_traffic_t *t);
int64_t bb_traffic_total_messages(const bb_traffic_t *t);

/* Modeled time of one left-right exchange round [003 §5.2] under a link
 * model: steps j = 1..ndev-1 run one after the other; in a step, pairs
 * (i, i+j) run concurrently on their own links; within a pair the i -> i+j
 * copy precedes the i+j -> i copy. A copy takes latency + bytes / bandwidth;
 * an empty one is not issued. bytes is ndev x ndev, row = source. */
double bb_link_model_leftright_s(const boxbfs_link_model_t *m, int ndev, const uint64_t *bytes);

/* "25e9", "25G", "25GB/s", "20Gb/s" -> bytes/s; "5e-6", "5us", "1ms" -> s.
 * 0 on success, -1 when malformed, -2 when the figure is out of range
 * (peer/link_model.c): a bandwidth must be finite and at least
 * BB_LINK_MIN_BANDWIDTH_BPS, a latency finite, positive and at most
 * BB_LINK_MAX_LATENCY_S, so that every modeled time (latency + bytes /
 * bandwidth, which --throttle sleeps for) is finite. */
#define BB_LINK_MIN_BANDWIDTH_BPS 1.0
#define BB_LINK_MAX_LATENCY_S 3600.0
#define BB_LINK_BANDWIDTH_RANGE "a bandwidth must be finite and at least 1 B/s"
#define BB_LINK_LATENCY_RANGE "a latency must be finite, positive and at most 3600 s"
int bb_parse_bandwidth(const char *s, double *bps_p);
int bb_parse_latency(const char *s, double *sec_p);

/* Per-pair link figures for ndev devices (engine order), resolved from a link
 * description (topology/links.c) or from one boxbfs_link_model_t.
 * bw/lat: ndev x ndev, row = source (bytes/s, s). pool: per device, the
 * bandwidth of a shared slot that every copy through it at the same time
 * divides (0: dedicated). via_slot[s * ndev + d]: the copy s -> d goes
 * through the slots of s and d (a slot rule), so their pools apply; a copy
 * on a `link` rule is dedicated. */
typedef struct {
    int ndev;
    double *bw, *lat, *pool;
    uint8_t *via_slot;
    char name[64];
} bb_linkmat_t;

boxbfs_status_t bb_linkmat_alloc(bb_linkmat_t *L, int ndev);
void bb_linkmat_free(bb_linkmat_t *L);
/* Every pair on one figure (the single-figure models), dedicated. */
boxbfs_status_t bb_linkmat_uniform(bb_linkmat_t *L, int ndev, const boxbfs_link_model_t *m);
/* Reorder: new device i is old device perm[i]. */
boxbfs_status_t bb_linkmat_permute(bb_linkmat_t *L, const int *perm);
/* Seconds the copy s -> d (non-empty) takes in its step of the left-right
 * round whose sizes are bytes (ndev x ndev): latency + bytes / bandwidth,
 * where a shared slot's pool is divided by the non-empty copies through that
 * slot in the same half-step (j = |d - s|; the copies i -> i + j run
 * together, then the copies i + j -> i), and the copy gets the smallest of
 * its link's bandwidth and its slots' shares. 0 for an empty copy. */
double bb_linkmat_copy_s(const bb_linkmat_t *L, const uint64_t *bytes, int s, int d);
/* bb_link_model_leftright_s with per-pair figures and shared slots: steps in
 * sequence, pairs of a step concurrently, within a pair the i -> i + j copy
 * then the i + j -> i copy, each taking bb_linkmat_copy_s. */
double bb_linkmat_leftright_s(const bb_linkmat_t *L, const uint64_t *bytes);

#endif /* BB_TRAFFIC_H */
