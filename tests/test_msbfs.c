/* Multi-source BFS driver (src/msbfs/) on the cpu backend:
 * - the GroupBy order (groups.c): three classes (out-degree >= p; a hub of
 *   out-degree > q; the rest) in that order, each by the hub's out-degree,
 *   highest first, a hub's sources side by side; checked against the rules
 *   computed here from the graph, on kron:12 and a hand graph;
 * - an instance that can reach nothing more leaves the bottom-up
 *   early-termination mask: a group with one source in a two-vertex
 *   component touches about the arcs of the same group with that source in
 *   the giant component (before, every bottom-up level scanned all in-arcs
 *   of the giant component), and its depths pass the reference check;
 * - on several devices every group runs once, on a device in range, and the
 *   devices' figures add up to the groups'. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

typedef struct {
    int cls;
    int64_t hub, hub_degree;
} rule_t;

/* The rules of one source, from the CSR. */
static rule_t rules_of(boxbfs_graph_t g, int64_t s, int64_t p, int64_t q)
{
    const int64_t *off = boxbfs_graph_offsets(g), *col = boxbfs_graph_columns(g);
    rule_t r = {2, -1, 0};
    int64_t deg = off[s + 1] - off[s];
    for (int64_t e = off[s]; e < off[s + 1]; e++) {
        int64_t w = col[e], d = off[w + 1] - off[w];
        if (r.hub < 0 || d > r.hub_degree || (d == r.hub_degree && w < r.hub)) {
            r.hub = w;
            r.hub_degree = d;
        }
    }
    r.cls = deg >= p ? 0 : r.hub >= 0 && r.hub_degree > q ? 1 : 2;
    return r;
}

/* order is a permutation in which classes never go back, hub out-degrees
 * never grow within a class, and a hub's sources of one class are adjacent. */
static void check_order(boxbfs_graph_t g, const int64_t *src, int64_t k, const int64_t *order,
                        int64_t p, int64_t q)
{
    char *seen = calloc((size_t)k, 1);
    CHECK(seen != NULL);
    if (seen == NULL) return;
    for (int64_t i = 0; i < k; i++) {
        CHECK(order[i] >= 0 && order[i] < k && !seen[order[i]]);
        if (order[i] >= 0 && order[i] < k) seen[order[i]] = 1;
    }
    for (int64_t i = 1; i < k; i++) {
        rule_t a = rules_of(g, src[order[i - 1]], p, q), b = rules_of(g, src[order[i]], p, q);
        CHECK(a.cls <= b.cls);
        if (a.cls == b.cls) CHECK(a.hub_degree >= b.hub_degree);
        if (a.cls == b.cls && a.hub_degree == b.hub_degree) CHECK(a.hub <= b.hub);
    }
    free(seen);
}

static void group_order(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_msbfs_options_t o;
    int64_t src[300], order[300];
    /* hand graph: hub 0 (degree 5), hub 1 (degree 4), 2 far from both */
    static const int64_t e[][2] = {{0, 10}, {0, 11}, {0, 12}, {0, 13}, {0, 14}, {1, 20},
                                   {1, 21}, {1, 22}, {1, 23}, {2, 3}, {3, 4}, {10, 5},
                                   {20, 6}, {11, 7}, {7, 8}, {8, 9}};
    int64_t hand_src[] = {2, 20, 10, 0, 21, 11, 5};
    boxbfs_msbfs_options_init(&o);
    o.groupby_p = 3;
    o.groupby_q = 3;
    g = check_graph(24, (int64_t)(sizeof e / sizeof e[0]), e, 0);
    if (g) {
        CHECK_OK(boxbfs_msbfs_group_order(g, hand_src, 7, &o, order));
        check_order(g, hand_src, 7, order, 3, 3);
        /* 0 (degree 5 >= p) first; 10 and 11 (hub 0 of degree 5), then 20 and 21 (hub 1
         * of degree 4); 2 (hub 3 of degree 2) and 5 (hub 10 of degree 2) last */
        CHECK(order[0] == 3);
        CHECK((order[1] == 2 && order[2] == 5) || (order[1] == 5 && order[2] == 2));
        CHECK((order[3] == 1 && order[4] == 4) || (order[3] == 4 && order[4] == 1));
        CHECK(order[5] == 0 && order[6] == 6);   /* hub 3 before hub 10 at the same degree */
        boxbfs_graph_free(g);
    }
    g = NULL;
    CHECK_OK(boxbfs_graph_load("kron:12", NULL, &g));
    if (g == NULL) return;
    {
        const int64_t *off = boxbfs_graph_offsets(g);
        int64_t k = 0;
        for (int64_t v = 0; v < boxbfs_graph_vertices(g) && k < 300; v += 13)
            if (off[v + 1] > off[v]) src[k++] = v;
        o.groupby_p = 32;
        o.groupby_q = 16;
        CHECK_OK(boxbfs_msbfs_group_order(g, src, k, &o, order));
        check_order(g, src, k, order, 32, 16);
        o.groupby = 0;   /* the given order */
        CHECK_OK(boxbfs_msbfs_group_order(g, src, k, &o, order));
        for (int64_t i = 0; i < k; i++) CHECK(order[i] == i);
    }
    boxbfs_graph_free(g);
}

/* One group of 32 sources of kron:12 plus a two-vertex component: arcs
 * touched with its last source in the pair, and with it in the giant
 * component (validated). */
static int64_t group_arcs(boxbfs_graph_t g, const int64_t *src)
{
    boxbfs_msbfs_options_t o;
    boxbfs_msbfs_result_t r = NULL;
    int64_t idx[32], arcs = -1;
    uint8_t keep[32];
    boxbfs_msbfs_options_init(&o);
    o.group_size = 32;
    o.groupby = 0;
    for (int i = 0; i < 32; i++) {
        idx[i] = i;
        keep[i] = 1;
    }
    CHECK_OK(boxbfs_msbfs_run(g, src, 32, &o, keep, &r));
    if (r == NULL) return -1;
    CHECK_OK(boxbfs_msbfs_validate(g, r, idx, 32, NULL));
    arcs = boxbfs_msbfs_report(r)->groups[0].arcs_touched;
    boxbfs_msbfs_free(r);
    return arcs;
}

static void finished_instances(void)
{
    boxbfs_graph_t kron = NULL, g = NULL;
    int64_t n, m, *s = NULL, *d = NULL, src[32];
    CHECK_OK(boxbfs_graph_load("kron:12", NULL, &kron));
    if (kron == NULL) return;
    {   /* kron:12's edges once each, and a pair n -- n + 1 */
        const int64_t *off = boxbfs_graph_offsets(kron), *col = boxbfs_graph_columns(kron);
        n = boxbfs_graph_vertices(kron);
        s = malloc((size_t)boxbfs_graph_arcs(kron) * 8 + 8);
        d = malloc((size_t)boxbfs_graph_arcs(kron) * 8 + 8);
        m = 0;
        for (int64_t v = 0; s && d && v < n; v++)
            for (int64_t e = off[v]; e < off[v + 1]; e++)
                if (col[e] > v) {
                    s[m] = v;
                    d[m++] = col[e];
                }
        if (s && d) {
            s[m] = n;
            d[m++] = n + 1;
            CHECK_OK(boxbfs_graph_from_edges(n + 2, m, s, d, 0, &g));
        }
    }
    if (g) {
        const int64_t *off = boxbfs_graph_offsets(g);
        int64_t k = 0, with_pair, without;
        int32_t *level = malloc((size_t)(n + 2) * 4);
        int64_t *parent = malloc((size_t)(n + 2) * 8);
        CHECK(level && parent);
        /* sources in the giant component: reached from the highest-degree vertex */
        int64_t hub = 0;
        for (int64_t v = 0; v < n; v++)
            if (off[v + 1] - off[v] > off[hub + 1] - off[hub]) hub = v;
        if (level && parent) CHECK_OK(boxbfs_bfs_reference(g, hub, parent, level));
        for (int64_t v = 0; level && parent && v < n && k < 32; v += 7)
            if (level[v] > 0) src[k++] = v;
        CHECK(k == 32);
        if (k == 32) {
            without = group_arcs(g, src);
            src[31] = n;   /* the pair */
            with_pair = group_arcs(g, src);
            fprintf(stderr, "arcs touched: %lld with a source in a pair, %lld without\n",
                    (long long)with_pair, (long long)without);
            CHECK(without > 0 && with_pair > 0);
            CHECK(with_pair <= without + without / 4);
        }
        free(level);
        free(parent);
    }
    free(s);
    free(d);
    boxbfs_graph_free(g);
    boxbfs_graph_free(kron);
}

static void devices(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_msbfs_options_t o;
    boxbfs_msbfs_result_t r = NULL;
    int64_t src[256], k = 0;
    CHECK_OK(boxbfs_graph_load("kron:12", NULL, &g));
    if (g == NULL) return;
    {
        const int64_t *off = boxbfs_graph_offsets(g);
        for (int64_t v = 1; v < boxbfs_graph_vertices(g) && k < 256; v += 11)
            if (off[v + 1] > off[v]) src[k++] = v;
    }
    boxbfs_msbfs_options_init(&o);
    o.devices = 3;
    o.group_size = 32;
    CHECK_OK(boxbfs_msbfs_run(g, src, k, &o, NULL, &r));
    if (r) {
        const boxbfs_msbfs_report_t *rep = boxbfs_msbfs_report(r);
        int groups = 0;
        double busy = 0, group_time = 0;
        CHECK(rep->ngroups == (k + 31) / 32 && rep->ndevices == 3);
        for (int i = 0; i < rep->ngroups; i++) {
            CHECK(rep->groups[i].device >= 0 && rep->groups[i].device < 3);
            CHECK(rep->groups[i].size > 0);
            group_time += rep->groups[i].time_s;
        }
        for (int d = 0; d < 3; d++) {
            groups += rep->devices[d].groups;
            busy += rep->devices[d].busy_s;
        }
        CHECK(groups == rep->ngroups);
        CHECK(busy == group_time || (busy - group_time < 1e-9 && group_time - busy < 1e-9));
        /* the run's time covers the busiest device's groups and no setup */
        for (int d = 0; d < 3; d++) CHECK(rep->total_s >= rep->devices[d].busy_s * 0.999);
    }
    boxbfs_msbfs_free(r);
    boxbfs_graph_free(g);
}

int main(void)
{
    group_order();
    finished_instances();
    devices();
    CHECK_DONE();
}
