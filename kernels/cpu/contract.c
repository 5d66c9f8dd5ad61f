/* Frontier contraction on the host: sort-unique [003 §4] and valid-flag
 * [003 §5.1]. LSD radix sort of (gid, parent lid) pairs over only the bits
 * the vertex range needs, then flag first-of-run (and, for valid-flag, not
 * visited on this device), exclusive scan, compaction into owner-local ids.
 * The sorted output is grouped by owner (block partition), so each owner's
 * segment is found by binary search. */
#include "config.h"

#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

static int bits_for(uint64_t n)
{
    int b = 0;
    while (b < 64 && (n - 1) >> b) b++;
    return b < 1 ? 1 : b;
}

/* Sort count pairs; returns whether the result ended in the alt buffers. */
static int radix_sort_pairs(const bb_kstate_t *k, uint64_t count)
{
    uint32_t *key = k->nbr, *val = k->nbr_parent, *key2 = k->alt, *val2 = k->alt_parent;
    int bits = bits_for(k->n), swapped = 0;
    for (int shift = 0; shift < bits; shift += 8) {
        uint64_t hist[257];
        memset(hist, 0, sizeof hist);
        for (uint64_t i = 0; i < count; i++) hist[((key[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++) hist[d + 1] += hist[d];
        for (uint64_t i = 0; i < count; i++) {
            uint64_t pos = hist[(key[i] >> shift) & 0xff]++;
            key2[pos] = key[i];
            val2[pos] = val[i];
        }
        uint32_t *t = key; key = key2; key2 = t;
        t = val; val = val2; val2 = t;
        swapped = !swapped;
    }
    return swapped;
}

boxbfs_status_t bb_cpu_contract(const bb_kstate_t *k, void *stream, uint64_t count)
{
    int valid_flag = k->contract == BOXBFS_CONTRACT_VALID_FLAG;
    int in_alt;
    const uint32_t *key, *val;
    uint64_t out = 0, own;
    (void)stream;
    in_alt = radix_sort_pairs(k, count);
    key = in_alt ? k->alt : k->nbr;
    val = in_alt ? k->alt_parent : k->nbr_parent;
    /* flag and exclusive scan, written as in the kernels: flags[i] = offset */
    for (uint64_t i = 0; i < count; i++) {
        uint32_t v = key[i];
        int first = i == 0 || key[i - 1] != v;
        int valid = first && (!valid_flag || !bb_cpu_is_visited(k, v));
        k->flags[i] = (uint32_t)out;
        out += (uint64_t)valid;
    }
    k->flags[count] = (uint32_t)out;
    /* owner segments: the sorted keys are grouped by owner (block partition);
     * the first key >= range_lo[o] (binary search) indexes the scan, which
     * gives the segment's offset in the compacted list */
    for (int o = 0; o <= k->ndev; o++) {
        uint64_t lo = 0, hi = count, bound = o == k->ndev ? k->n : k->range_lo[o];
        while (lo < hi) {
            uint64_t mid = (lo + hi) / 2;
            if (key[mid] < bound) lo = mid + 1; else hi = mid;
        }
        if (o < k->ndev) k->counters[BB_CTR_SEND_OFFSET(k->ndev, o)] = k->flags[lo];
        if (o > 0)
            k->counters[BB_CTR_SEND_COUNT(o - 1)] =
                k->flags[lo] - k->counters[BB_CTR_SEND_OFFSET(k->ndev, o - 1)];
    }
    /* compact into owner-local ids; the own segment's parents go to
     * outbox_parent from 0 (it holds that segment only: hi - lo entries),
     * remote vertices' to remote_parent */
    own = k->counters[BB_CTR_SEND_OFFSET(k->ndev, k->self)];
    for (uint64_t i = 0; i < count; i++) {
        if (k->flags[i + 1] == k->flags[i]) continue;
        uint32_t v = key[i];
        int o = bb_cpu_owner(k, v);
        k->outbox[k->flags[i]] = (uint32_t)(v - k->range_lo[o]);
        if (o == k->self) k->outbox_parent[k->flags[i] - own] = val[i];
        if (valid_flag) bb_cpu_visit(k, v);
        if (o != k->self && k->remote_parent) {
            uint32_t *rp = k->remote_parent + bb_remote_slot(v, k->lo, k->hi);
            if (*rp == BB_UNSET32) *rp = val[i];
        }
    }
    return BOXBFS_OK;
}
