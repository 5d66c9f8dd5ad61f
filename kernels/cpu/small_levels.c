/* The one-device loop of small levels on the host: the cuda backend runs
 * them in one kernel launch (kernels/cuda/small_levels.cu) to save the host
 * round trips of every level; here the same levels in a plain loop, with the
 * same stopping rule, so both backends report the same level rows. */
#include "config.h"

#include "common/timer.h"
#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_small_levels(const bb_kstate_t *k, void *stream, const bb_loop_params_t *p)
{
    uint32_t *cur = k->frontier, *nxt = k->next_frontier;
    uint64_t count = p->from_counters ? k->counters[BB_CTR_NEXT] : p->count;
    uint64_t arcs = p->from_counters ? k->counters[BB_CTR_NEXT_ARCS] : p->arcs;
    uint64_t prev = p->prev_count, unexplored = p->unexplored;
    int32_t level = p->level;
    uint32_t runs = 0;
    (void)stream;
    while (!bb_loop_stops(p, level, count, arcs, prev, unexplored, runs)) {
        double t0 = bb_now_s();
        uint64_t next = 0, next_arcs = 0;
        for (uint64_t i = 0; i < count; i++) {
            uint32_t u = cur[i];
            for (int64_t e = k->offsets[u]; e < k->offsets[u + 1]; e++) {
                uint32_t v = k->columns[e];   /* one device: local = global ids */
                if (k->level[v] != -1) continue;
                k->level[v] = level + 1;
                k->pred[v] = (int64_t)u;
                if (k->visited) bb_cpu_visit(k, v);
                nxt[next++] = v;
                next_arcs += bb_cpu_degree(k, v);
            }
        }
        k->level_log[(size_t)runs * BB_LOG_FIELDS + 0] = count;
        k->level_log[(size_t)runs * BB_LOG_FIELDS + 1] = arcs;
        k->level_log[(size_t)runs * BB_LOG_FIELDS + 2] = (uint64_t)((bb_now_s() - t0) * 1e9);
        k->level_log[(size_t)runs * BB_LOG_FIELDS + 3] = 0;
        unexplored = bb_unexplored_after(unexplored, arcs);
        prev = count;
        count = next;
        arcs = next_arcs;
        {
            uint32_t *t = cur;
            cur = nxt;
            nxt = t;
        }
        level++;
        runs++;
    }
    k->counters[BB_CTR_EXPANDED] = runs;
    k->counters[BB_CTR_NEXT] = count;
    k->counters[BB_CTR_NEXT_ARCS] = arcs;
    return BOXBFS_OK;
}
