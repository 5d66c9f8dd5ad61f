/* Shortest-path counts and betweenness (issue #14): the reference on small
 * hand-checked graphs; the driver (cpu backend, 1-4 emulated devices, every
 * direction, every spmv variant) against the reference on kron graphs,
 * undirected and directed; bytes of (vertex, count) pairs on the links;
 * betweenness over devices against the reference (exact for all sources);
 * the overflow flag and its double fallback; options that do not combine. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "centrality/centrality.h"
#include "check.h"
#include "engine/partition.h"
#include "graph/graph.h"

static boxbfs_graph_t small_graph(int directed, int64_t n, int64_t m, const int64_t *src,
                                  const int64_t *dst)
{
    boxbfs_graph_t g = NULL;
    CHECK_OK(boxbfs_graph_from_edges(n, m, src, dst, directed, &g));
    return g;
}

/* A hand-checked 6-vertex graph: 0-1, 0-2, 1-3, 2-3, 3-4, 3-5, 4-5. */
static void hand_checked(void)
{
    const int64_t src[] = {0, 0, 1, 2, 3, 3, 4}, dst[] = {1, 2, 3, 3, 4, 5, 5};
    const uint64_t want_sigma[] = {1, 1, 1, 2, 2, 2};
    const int32_t want_level[] = {0, 1, 1, 2, 3, 3};
    const double want_bc[] = {0.5, 1.5, 1.5, 6.5, 0, 0};
    int64_t all[6] = {0, 1, 2, 3, 4, 5};
    boxbfs_graph_t g = small_graph(0, 6, 7, src, dst);
    int32_t level[6];
    uint64_t sigma[6];
    double sd[6], bc[6];
    int overflow = -1;
    CHECK_OK(bb_ref_sigma(g, 0, level, sigma, sd, &overflow));
    CHECK(overflow == 0);
    for (int v = 0; v < 6; v++) {
        CHECK(level[v] == want_level[v]);
        CHECK(sigma[v] == want_sigma[v]);
        CHECK(sd[v] == (double)want_sigma[v]);
    }
    CHECK_OK(bb_sigma_double_from_levels(g, 0, level, sd));
    for (int v = 0; v < 6; v++) CHECK(sd[v] == (double)want_sigma[v]);
    CHECK_OK(bb_ref_brandes(g, all, 6, bc));
    bb_bc_scale(bc, 6, 0, 0, 6);
    for (int v = 0; v < 6; v++) CHECK(fabs(bc[v] - want_bc[v]) < 1e-12);
    boxbfs_graph_free(g);

    /* a directed path 0 -> 1 -> 2 and a shortcut 0 -> 2: vertex 1 is on no
     * shortest path to 2; directed 3-cycle 0 -> 1 -> 2 -> 0: each vertex
     * carries exactly one pair */
    {
        const int64_t s2[] = {0, 1, 2}, d2[] = {1, 2, 0};
        double b[3];
        int64_t three[3] = {0, 1, 2};
        g = small_graph(1, 3, 3, s2, d2);
        CHECK_OK(bb_ref_brandes(g, three, 3, b));
        for (int v = 0; v < 3; v++) CHECK(fabs(b[v] - 1.0) < 1e-12);
        bb_bc_scale(b, 3, 1, 1, 3);   /* normalized: / (n-1)(n-2) = 2 */
        for (int v = 0; v < 3; v++) CHECK(fabs(b[v] - 0.5) < 1e-12);
        boxbfs_graph_free(g);
    }
}

/* The driver's counts against the reference, and the pair bytes. */
static void sigma_against_reference(boxbfs_graph_t g, int devices, bb_sigma_algorithm_t alg,
                                    bb_spmv_t spmv, boxbfs_search_direction_t dir)
{
    bb_centrality_options_t o;
    bb_centrality_t *c = NULL;
    bb_sigma_report_t rep;
    int64_t n = g->n, root = 0;
    int32_t *level = malloc((size_t)n * 4), *rl = malloc((size_t)n * 4);
    uint64_t *sigma = malloc((size_t)n * 8), *rs = malloc((size_t)n * 8);
    int same = 1;
    while (g->offsets[root + 1] == g->offsets[root]) root++;
    memset(&o, 0, sizeof o);
    o.backend = BOXBFS_BACKEND_CPU;
    o.devices = devices;
    o.algorithm = alg;
    o.spmv = spmv;
    o.direction = dir;
    o.switch_density = 0.10;
    CHECK_OK(bb_centrality_create(g, &o, &c));
    if (c == NULL) goto out;
    CHECK_OK(bb_centrality_sigma(c, root, level, sigma, &rep));
    CHECK_OK(bb_ref_sigma(g, root, rl, rs, NULL, NULL));
    for (int64_t v = 0; v < n; v++) same &= level[v] == rl[v] && sigma[v] == rs[v];
    if (!same)
        fprintf(stderr, "devices %d %s %s %s: counts differ\n", devices,
                bb_sigma_algorithm_name(alg), bb_spmv_name(spmv),
                boxbfs_search_direction_name(dir));
    CHECK(same);
    CHECK(rep.overflow == 0);
    CHECK(rep.reached > 1);
    if (devices == 1) {
        CHECK(bb_traffic_total_bytes(rep.traffic) == 0);
    } else {
        /* every arc from a frontier vertex to another device's vertex is one
         * 12-byte pair at the level of its tail */
        int64_t cross = 0;
        bb_partition_t part;
        CHECK_OK(bb_partition_by_edges(g->offsets, n, devices, &part));
        for (int64_t u = 0; u < n; u++)
            for (int64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
                if (rl[u] >= 0 &&
                    bb_partition_owner(&part, (uint64_t)u) !=
                        bb_partition_owner(&part, (uint64_t)g->columns[e]))
                    cross++;
        CHECK(rep.traffic->phase_bytes[BOXBFS_PHASE_FRONTIER] == 12 * cross);
        CHECK(rep.traffic->link_bytes[1] > 0);   /* 0 -> 1 carried something */
        bb_partition_free(&part);
    }
out:
    bb_centrality_free(c);
    free(level);
    free(rl);
    free(sigma);
    free(rs);
}

static void bc_against_reference(boxbfs_graph_t g, int devices, int64_t nsources)
{
    bb_centrality_options_t o;
    bb_centrality_t *c = NULL;
    int64_t n = g->n, *src = malloc((size_t)nsources * 8), *edges = calloc((size_t)nsources, 8);
    double *bc = malloc((size_t)n * 8), *ref = malloc((size_t)n * 8);
    double *t = calloc((size_t)nsources, 8), worst = 0;
    for (int64_t i = 0; i < nsources; i++) src[i] = (i * 7919) % n;
    memset(&o, 0, sizeof o);
    o.backend = BOXBFS_BACKEND_CPU;
    o.devices = devices;
    o.direction = BOXBFS_SEARCH_AUTO;
    o.whole_graph = 1;
    CHECK_OK(bb_centrality_create(g, &o, &c));
    if (c) {
        double busy[8] = {0}, sum_t = 0, sum_busy = 0;
        int32_t *dev = malloc((size_t)nsources * 4);
        bb_bc_times_t times = {0, busy, dev};
        CHECK(devices <= 8 && dev != NULL);
        if (dev) memset(dev, 0xff, (size_t)nsources * 4);
        CHECK_OK(bb_centrality_bc(c, src, nsources, bc, t, edges, dev ? &times : NULL));
        /* every source ran on some device, and the devices' busy times are its times */
        for (int64_t i = 0; dev && i < nsources; i++) {
            CHECK(dev[i] >= 0 && dev[i] < devices);
            sum_t += t[i];
        }
        for (int d = 0; dev && d < devices; d++) sum_busy += busy[d];
        CHECK(!dev || fabs(sum_busy - sum_t) <= 1e-9 * (sum_t > 1 ? sum_t : 1));
        CHECK(!dev || (times.total_s > 0 && times.total_s >= 0.5 * sum_busy / devices));
        free(dev);
        CHECK_OK(bb_ref_brandes(g, src, nsources, ref));
        for (int64_t v = 0; v < n; v++) {
            double d = fabs(bc[v] - ref[v]) / (fabs(ref[v]) > 1 ? fabs(ref[v]) : 1);
            if (d > worst) worst = d;
        }
        CHECK(worst < 1e-9);
        CHECK(edges[0] > 0 || g->offsets[src[0] + 1] == g->offsets[src[0]]);
    }
    bb_centrality_free(c);
    free(src);
    free(edges);
    free(bc);
    free(ref);
    free(t);
}

static boxbfs_graph_t kron(int scale, int directed)
{
    boxbfs_graph_t g = NULL;
    boxbfs_load_options_t lo;
    char spec[32];
    memset(&lo, 0, sizeof lo);
    lo.direction = directed ? BOXBFS_DIRECTION_DIRECTED : BOXBFS_DIRECTION_UNDIRECTED;
    snprintf(spec, sizeof spec, "kron:%d", scale);
    CHECK_OK(boxbfs_graph_load(spec, &lo, &g));
    return g;
}

/* A graph whose counts pass 2^64: a chain of 70 diamonds doubles the count
 * at every diamond (2^70 paths to the end; the 64th diamond's end has 2^64,
 * 0 in 64 bits, and must stay reached in every direction). The spmv forms,
 * which mark reached vertices by a nonzero count, refuse such a search. */
static void overflow(void)
{
    enum { D = 70 };
    int64_t src[4 * D], dst[4 * D], n = 3 * D + 1, m = 0;
    int32_t *ref_level = malloc((size_t)n * 4);
    int32_t *level = malloc((size_t)n * 4);
    uint64_t *sigma = malloc((size_t)n * 8);
    double *sd = malloc((size_t)n * 8);
    int of = 0;
    bb_centrality_options_t o;
    bb_centrality_t *c = NULL;
    bb_sigma_report_t rep;
    boxbfs_graph_t g;
    for (int64_t i = 0; i < D; i++) {
        int64_t a = 3 * i, b = a + 1, bb = a + 2, z = a + 3;
        src[m] = a; dst[m++] = b;
        src[m] = a; dst[m++] = bb;
        src[m] = b; dst[m++] = z;
        src[m] = bb; dst[m++] = z;
    }
    g = small_graph(0, n, m, src, dst);
    CHECK_OK(bb_ref_sigma(g, 0, ref_level, sigma, sd, &of));
    CHECK(of == 1);
    CHECK(sd[n - 1] == ldexp(1.0, D));
    CHECK(sigma[3 * 64] == 0 && ref_level[3 * 64] == 2 * 64);
    for (int dir = BOXBFS_SEARCH_AUTO; dir <= BOXBFS_SEARCH_BOTTOM_UP; dir++) {
        memset(&o, 0, sizeof o);
        o.backend = BOXBFS_BACKEND_CPU;
        o.devices = dir == BOXBFS_SEARCH_BOTTOM_UP ? 1 : 2;   /* pull: one device */
        o.direction = (boxbfs_search_direction_t)dir;
        CHECK_OK(bb_centrality_create(g, &o, &c));
        if (c) {
            CHECK_OK(bb_centrality_sigma(c, 0, level, sigma, &rep));
            CHECK(rep.overflow == 1);
            CHECK(rep.reached == n);
            CHECK(memcmp(level, ref_level, (size_t)n * 4) == 0);
            CHECK_OK(bb_sigma_double_from_levels(g, 0, level, sd));
            CHECK(sd[n - 1] == ldexp(1.0, D));
            CHECK(sd[3 * 10] == ldexp(1.0, 10));
        }
        bb_centrality_free(c);
        c = NULL;
    }
    memset(&o, 0, sizeof o);
    o.backend = BOXBFS_BACKEND_CPU;
    o.devices = 1;
    o.algorithm = BB_SIGMA_SPMV;
    CHECK_OK(bb_centrality_create(g, &o, &c));
    if (c) CHECK_FAILS(bb_centrality_sigma(c, 0, level, sigma, &rep), BOXBFS_ERR_UNSUPPORTED);
    bb_centrality_free(c);
    boxbfs_graph_free(g);
    free(ref_level);
    free(level);
    free(sigma);
    free(sd);
}

static void bad_options(void)
{
    boxbfs_graph_t g = kron(6, 0);
    bb_centrality_options_t o;
    bb_centrality_t *c = NULL;
    memset(&o, 0, sizeof o);
    o.backend = BOXBFS_BACKEND_CPU;
    o.devices = 2;
    o.algorithm = BB_SIGMA_SPMV;
    CHECK(bb_centrality_create(g, &o, &c) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "one device") != NULL);
    o.algorithm = BB_SIGMA_FRONTIER;
    o.direction = BOXBFS_SEARCH_BOTTOM_UP;
    CHECK(bb_centrality_create(g, &o, &c) == BOXBFS_ERR_INVALID_ARG);
    o.direction = BOXBFS_SEARCH_AUTO;
    o.devices = 0;
    CHECK(bb_centrality_create(g, &o, &c) == BOXBFS_ERR_INVALID_ARG);
    o.devices = 1;
    CHECK_OK(bb_centrality_create(g, &o, &c));
    CHECK(bb_centrality_sigma(c, g->n, NULL, NULL, NULL) == BOXBFS_ERR_INVALID_ARG);
    bb_centrality_free(c);
    boxbfs_graph_free(g);
}

int main(void)
{
    static const boxbfs_search_direction_t dirs[] = {BOXBFS_SEARCH_AUTO, BOXBFS_SEARCH_TOP_DOWN,
                                                     BOXBFS_SEARCH_BOTTOM_UP};
    hand_checked();
    for (int directed = 0; directed <= 1; directed++) {
        boxbfs_graph_t g = kron(11, directed);
        if (g == NULL) continue;
        for (int d = 1; d <= 4; d++)
            sigma_against_reference(g, d, BB_SIGMA_FRONTIER, BB_SPMV_CSC_SCALAR,
                                    d == 1 ? BOXBFS_SEARCH_AUTO : BOXBFS_SEARCH_TOP_DOWN);
        for (int i = 0; i < 3; i++) {
            sigma_against_reference(g, 1, BB_SIGMA_FRONTIER, BB_SPMV_CSC_SCALAR, dirs[i]);
            for (int v = 0; v < 3; v++)
                sigma_against_reference(g, 1, BB_SIGMA_SPMV, (bb_spmv_t)v, dirs[i]);
        }
        boxbfs_graph_free(g);
        g = kron(8, directed);
        if (g == NULL) continue;
        for (int d = 1; d <= 4; d++) bc_against_reference(g, d, d == 3 ? g->n : 20);
        boxbfs_graph_free(g);
    }
    overflow();
    bad_options();
    CHECK_DONE();
}
