/* The 2D-partitioned BFS kernels on the host (kernels/grid2d.h): the same
 * steps as kernels/cuda/grid2d.cu, one pass each, so that the sets of
 * vertices each device sends, and thus every byte count, are the same. */
#include "config.h"

#include <string.h>

#include "kernels/grid2d.h"
#include "kernels/kernels.h"

#define BIT(v) (1u << ((v) & 31))

static boxbfs_status_t g2_reset(const bb_g2state_t *k, void *stream, uint64_t root)
{
    uint64_t row_ids = (uint64_t)k->cols * k->bs, b = root / k->bs;
    (void)stream;
    for (uint64_t i = 0; i < k->bs; i++) {
        k->level[i] = -1;
        k->pred[i] = -1;
    }
    memset(k->visited, 0, (row_ids / 32) * 4);
    memset(k->counters, 0, BB_G2_CTR_COUNT(k->cols) * 8);
    if (k->prefix) k->prefix[0] = k->prefix[1] = 0;
    if ((int)(b % (uint64_t)k->rows) == k->row) {   /* the root is in this grid row */
        uint64_t rl = (b / (uint64_t)k->rows) * k->bs + root % k->bs;
        k->visited[rl >> 5] |= BIT(rl);
    }
    if (root >= k->lo && root < k->lo + k->nloc) {
        uint64_t off = root - k->lo;
        k->level[off] = 0;
        k->pred[off] = (int64_t)root;
        k->frontier[0] = (uint32_t)off;
        k->counters[BB_G2_CTR_NEXT] = 1;
    }
    return BOXBFS_OK;
}

/* The count ids of a bitmap of the block, in order, + offset at out. */
static void bits_to_list(const bb_g2state_t *k, const uint32_t *bits, uint64_t count,
                         uint32_t offset, uint32_t *out)
{
    for (uint64_t w = 0, t = 0; w < k->bs / 32 && t < count; w++)
        for (uint32_t b = bits[w]; b; b &= b - 1)
            out[t++] = (uint32_t)(w * 32 + (uint64_t)__builtin_ctz(b)) + offset;
}

static boxbfs_status_t g2_append(const bb_g2state_t *k, void *stream, const uint32_t *msg,
                                 int bitmap, uint64_t count, uint32_t offset, uint64_t base)
{
    uint32_t *out = k->colfront + base;
    (void)stream;
    if (!bitmap) {
        for (uint64_t t = 0; t < count; t++) out[t] = msg[t] + offset;
        return BOXBFS_OK;
    }
    bits_to_list(k, msg, count, offset, out);
    return BOXBFS_OK;
}

static boxbfs_status_t g2_expand(const bb_g2state_t *k, void *stream, uint64_t count,
                                 int32_t next_level)
{
    uint64_t *bucket = k->counters + BB_G2_CTR_BUCKET, arcs = 0;
    uint64_t col_first = (uint64_t)k->col * k->rows * k->bs;   /* gid of column-local id 0 */
    const uint32_t prefix = k->prefix ? k->prefix[1] : 0;
    (void)stream;
    for (uint64_t t = 0; t < count; t++) {
        uint32_t u = k->colfront[t];
        int64_t a = k->offsets[u], end = k->offsets[u + 1];
        if (prefix) a = bb_row_past_prefix(k->columns, k->rank, a, end, prefix);
        arcs += (uint64_t)(end - a);
        for (; a < end; a++) {
            uint32_t v = k->columns[a];
            uint64_t o = v / k->bs, off = v - o * k->bs;
            if (k->visited[v >> 5] & BIT(v)) continue;
            k->visited[v >> 5] |= BIT(v);
            if ((int)o == k->col) {   /* own: updated at once [004 Algorithm 3] */
                k->level[off] = next_level;
                k->pred[off] = (int64_t)(col_first + u);
                k->next_frontier[k->counters[BB_G2_CTR_NEXT]++] = (uint32_t)off;
                if (k->degree) k->counters[BB_G2_CTR_NEXT_ARCS] += k->degree[off];
                continue;
            }
            uint32_t *pair = k->outbox + o * k->seg + 2 * bucket[o]++;
            pair[0] = (uint32_t)off;
            pair[1] = u;
        }
    }
    k->counters[BB_G2_CTR_ARCS] += arcs;
    return BOXBFS_OK;
}

static boxbfs_status_t g2_update(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                                 uint64_t count, int src_col, int32_t next_level)
{
    uint64_t base = (uint64_t)src_col * k->rows * k->bs;   /* gid of its column-local id 0 */
    (void)stream;
    for (uint64_t t = 0; t < count; t++) {
        uint32_t off = pairs[2 * t];
        uint64_t rl = (uint64_t)k->col * k->bs + off;
        if (off >= k->nloc || k->level[off] >= 0) continue;
        k->level[off] = next_level;
        k->pred[off] = (int64_t)(base + pairs[2 * t + 1]);
        k->visited[rl >> 5] |= BIT(rl);
        k->next_frontier[k->counters[BB_G2_CTR_NEXT]++] = off;
        if (k->degree) k->counters[BB_G2_CTR_NEXT_ARCS] += k->degree[off];
    }
    return BOXBFS_OK;
}

static boxbfs_status_t g2_mark(const bb_g2state_t *k, void *stream, const uint32_t *msg,
                               int bitmap, uint64_t count, int r)
{
    uint32_t *block = k->colbits + (uint64_t)r * (k->bs / 32);
    (void)stream;
    if (bitmap) {
        memcpy(block, msg, k->bs / 8);
        return BOXBFS_OK;
    }
    memset(block, 0, k->bs / 8);
    for (uint64_t t = 0; t < count; t++) block[msg[t] >> 5] |= BIT(msg[t]);
    return BOXBFS_OK;
}

/* The first arc of row-local v from the column's frontier: its source. */
static int first_parent(const bb_g2state_t *k, uint64_t v, uint32_t *parent)
{
    for (int64_t a = k->toffsets[v]; a < k->toffsets[v + 1]; a++) {
        uint32_t u = k->tcolumns[a];
        if (k->colbits[u >> 5] & BIT(u)) {
            *parent = u;
            return 1;
        }
    }
    return 0;
}

static boxbfs_status_t g2_bottom_up(const bb_g2state_t *k, void *stream, const uint32_t *done_in,
                                    uint32_t *done_out, int s, int32_t next_level)
{
    uint64_t *bucket = k->counters + BB_G2_CTR_BUCKET, first = (uint64_t)s * k->bs;
    uint64_t col_first = (uint64_t)k->col * k->rows * k->bs;
    uint32_t *visited = k->visited + first / 32;
    (void)stream;
    for (uint64_t w = 0; w < k->bs / 32; w++) {
        uint32_t in = done_in[w], found = 0;
        for (uint32_t open = ~in; open; open &= open - 1) {
            uint32_t off = (uint32_t)(w * 32 + (uint64_t)__builtin_ctz(open)), u;
            if (!first_parent(k, first + off, &u)) continue;
            found |= BIT(off);
            if (s == k->col) {
                k->level[off] = next_level;
                k->pred[off] = (int64_t)(col_first + u);
                k->counters[BB_G2_CTR_NEXT]++;
                k->counters[BB_G2_CTR_NEXT_ARCS] += k->degree[off];
            } else {
                uint32_t *pair = k->outbox + (uint64_t)s * k->seg + 2 * bucket[s]++;
                pair[0] = off;
                pair[1] = u;
            }
        }
        done_out[w] = in | found;
        visited[w] |= in | found;
        if (s == k->col) k->frontier_bits[w] = found;
    }
    return BOXBFS_OK;
}

static boxbfs_status_t g2_settle(const bb_g2state_t *k, void *stream, const uint32_t *pairs,
                                 uint64_t count, int src_col, int32_t next_level)
{
    uint64_t base = (uint64_t)src_col * k->rows * k->bs;
    (void)stream;
    for (uint64_t t = 0; t < count; t++) {
        uint32_t off = pairs[2 * t];
        uint64_t rl = (uint64_t)k->col * k->bs + off;
        k->level[off] = next_level;
        k->pred[off] = (int64_t)(base + pairs[2 * t + 1]);
        k->visited[rl >> 5] |= BIT(rl);
        k->frontier_bits[off >> 5] |= BIT(off);
        k->counters[BB_G2_CTR_NEXT]++;
        k->counters[BB_G2_CTR_NEXT_ARCS] += k->degree[off];
    }
    return BOXBFS_OK;
}

static boxbfs_status_t g2_unpack(const bb_g2state_t *k, void *stream, const uint32_t *bits,
                                 uint64_t count, uint32_t *out)
{
    (void)stream;
    bits_to_list(k, bits, count, 0, out);
    return BOXBFS_OK;
}

static boxbfs_status_t g2_raise_prefix(const bb_g2state_t *k, void *stream)
{
    const uint64_t ids = (uint64_t)k->cols * k->bs;
    uint64_t r = k->prefix[1];
    (void)stream;
    k->prefix[0] = (uint32_t)r;
    while (r < ids && (k->visited[k->by_rank[r] >> 5] & BIT(k->by_rank[r]))) r++;
    k->prefix[1] = (uint32_t)r;
    return BOXBFS_OK;
}

const bb_grid2d_ops_t bb_cpu_grid2d_ops = {
    .reset = g2_reset,
    .append = g2_append,
    .expand = g2_expand,
    .update = g2_update,
    .mark = g2_mark,
    .bottom_up = g2_bottom_up,
    .settle = g2_settle,
    .unpack = g2_unpack,
    .raise_prefix = g2_raise_prefix,
    .levels = bb_cpu_g2_levels,
};
