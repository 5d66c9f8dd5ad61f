/* Graph500 Kronecker generator [Graph500 spec, kronecker_generator.m]:
 * 2^scale vertices, edgefactor * 2^scale edges, initiator A,B,C,D =
 * 0.57,0.19,0.19,0.05, one quadrant choice per bit (noise-free, as the
 * reference's default SPK_NOISE_LEVEL 0), then vertex ids scrambled by a
 * seeded bijection of [0, 2^scale) (the spec's edge-order shuffle is left out:
 * the CSR does not depend on it). Edge k depends only on (seed, k), so the
 * output is identical for every thread count and machine. */
#include "config.h"

#include "graph/graph.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/threads.h"
#include "graph/kron_edge.h"

#define KRON_MAX_SCALE 40

typedef struct {
    bb_kron_keys_t keys;
    int64_t *src, *dst;
    int64_t first, m;                  /* edges first .. first + m - 1 into src/dst[0 .. m) */
} kron_job_t;

static boxbfs_status_t generate_range(int tid, int nthreads, void *arg)
{
    const kron_job_t *job = arg;
    int64_t lo, hi;
    bb_split_range(job->m, tid, nthreads, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        uint64_t u, v;
        bb_kron_edge(&job->keys, (uint64_t)(job->first + i), &u, &v);
        job->src[i] = (int64_t)u;
        job->dst[i] = (int64_t)v;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_kron_sizes(int scale, int edgefactor, int64_t *n_p, int64_t *m_p)
{
    int64_t n;
    if (scale < 1 || scale > KRON_MAX_SCALE)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "kron: scale %d outside [1, %d]", scale,
                            KRON_MAX_SCALE);
    n = INT64_C(1) << scale;
    /* arcs (2m for undirected graphs) must fit in int64 */
    if (edgefactor < 1 || (int64_t)edgefactor > (INT64_MAX / 4) / n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "kron: edge factor %d outside [1, %lld] at scale %d", edgefactor,
                            (long long)((INT64_MAX / 4) / n), scale);
    *n_p = n;
    *m_p = (int64_t)edgefactor * n;
    return BOXBFS_OK;
}

boxbfs_status_t bb_kron_generate_range(int scale, int edgefactor, uint64_t seed, int threads,
                                       int64_t first, int64_t count, bb_edges_t *edges)
{
    kron_job_t job;
    int64_t n, m;
    if (edges == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "kron: edge list is NULL");
    BB_CHECK(bb_kron_sizes(scale, edgefactor, &n, &m));
    if (first < 0 || count < 0 || first > m - count || count > edges->capacity)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "kron: edges [%lld, %lld) are not a range of [0, %lld) that fits "
                            "the list's %lld", (long long)first, (long long)(first + count),
                            (long long)m, (long long)edges->capacity);
    if (threads <= 0) threads = bb_cpu_count();
    if (count < 65536) threads = 1;   /* not worth a thread */
    bb_kron_keys(&job.keys, scale, seed);
    job.first = first;
    job.m = count;
    job.src = edges->src;
    job.dst = edges->dst;
    BB_CHECK(bb_parallel_run(threads, generate_range, &job));
    edges->n = n;
    edges->count = count;
    return BOXBFS_OK;
}

boxbfs_status_t bb_kron_generate(int scale, int edgefactor, uint64_t seed, int threads,
                                 bb_edges_t *edges)
{
    int64_t n, m;
    boxbfs_status_t st;
    if (edges == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "kron: edge list is NULL");
    memset(edges, 0, sizeof *edges);
    BB_CHECK(bb_kron_sizes(scale, edgefactor, &n, &m));
    BB_CHECK(bb_edges_init(edges, m));
    st = bb_kron_generate_range(scale, edgefactor, seed, threads, 0, m, edges);
    if (st != BOXBFS_OK) bb_edges_free(edges);
    return st;
}

/* Parse a decimal unsigned integer field that ends at ':' or the end of the
 * string. Returns 0 on success with *end_p past the digits. */
static int parse_field(const char *p, uint64_t *value_p, const char **end_p)
{
    char *end;
    unsigned long long v;
    if (*p < '0' || *p > '9') return -1;   /* no sign, no blanks */
    errno = 0;
    v = strtoull(p, &end, 10);
    if (errno == ERANGE) return -1;
    if (*end != '\0' && *end != ':') return -1;
    *value_p = (uint64_t)v;
    *end_p = end;
    return 0;
}

boxbfs_status_t bb_kron_parse(const char *spec, int *scale_p, int *edgefactor_p, uint64_t *seed_p)
{
    const char *p, *end;
    uint64_t scale, edgefactor = 16, seed = 1;
    if (spec == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "generator spec is NULL");
    if (strncmp(spec, "kron:", 5) != 0)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "bad generator spec \"%s\": expected kron:SCALE[:EDGEFACTOR[:SEED]]",
                            spec);
    p = spec + 5;
    if (parse_field(p, &scale, &end) != 0 || scale < 1 || scale > KRON_MAX_SCALE)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "bad generator spec \"%s\": SCALE must be an integer in [1, %d]", spec,
                            KRON_MAX_SCALE);
    p = end;
    if (*p == ':') {
        p++;
        if (parse_field(p, &edgefactor, &end) != 0 || edgefactor < 1 ||
            edgefactor > (uint64_t)((INT64_MAX / 4) >> scale) || edgefactor > INT32_MAX)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                                "bad generator spec \"%s\": EDGEFACTOR must be an integer in "
                                "[1, %lld] at scale %d",
                                spec, (long long)((INT64_MAX / 4) >> scale) < INT32_MAX
                                          ? (long long)((INT64_MAX / 4) >> scale)
                                          : (long long)INT32_MAX,
                                (int)scale);
        p = end;
        if (*p == ':') {
            p++;
            if (parse_field(p, &seed, &end) != 0)
                return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                                    "bad generator spec \"%s\": SEED must be an unsigned 64-bit "
                                    "decimal integer",
                                    spec);
            p = end;
        }
    }
    if (*p != '\0')   /* a ':' after the seed */
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "bad generator spec \"%s\": unexpected \"%s\" after the last field",
                            spec, p);
    if (scale_p) *scale_p = (int)scale;
    if (edgefactor_p) *edgefactor_p = (int)edgefactor;
    if (seed_p) *seed_p = seed;
    return BOXBFS_OK;
}
