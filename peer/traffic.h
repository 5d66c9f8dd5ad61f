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

#endif /* BB_TRAFFIC_H */
