/* Bad arguments at the public multi-source BFS, shortest-path counts and
 * betweenness entry points (issue 17): NULL handles and arrays, empty and
 * duplicate source lists, ids out of range, zero or odd group sizes, enum
 * values and device counts out of range. Each returns an error with a
 * message, outputs untouched; then the same calls with good arguments give
 * the right figures (a 3^41-path ladder for the uint64 overflow). Linked
 * against libboxbfs.so: public symbols only. */
#include <math.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

/* 0 - 1 - 2 - 3 path plus 1 - 4: small enough to know every figure */
static const int64_t (*const small_edges)[2] = (const int64_t[][2]){{0, 1}, {1, 2}, {2, 3}, {1, 4}};

static void msbfs(void)
{
    boxbfs_graph_t g = check_graph(5, 4, small_edges, 0);
    boxbfs_msbfs_options_t o;
    boxbfs_msbfs_result_t r = (boxbfs_msbfs_result_t)0x1;
    const boxbfs_msbfs_report_t *rep;
    const int64_t src[] = {0, 3}, dup[] = {0, 3, 0}, out[] = {0, 5}, neg[] = {-1};
    const uint8_t keep[] = {1, 0};
    int64_t order[2] = {-7, -7}, idx[] = {0}, bad_idx[] = {1}, far_idx[] = {2};
    int verdict[1] = {-1};

    boxbfs_msbfs_options_init(NULL);   /* nothing to do, no crash */
    boxbfs_msbfs_options_init(&o);
    CHECK(o.group_size == 128 && o.groupby == 1 && o.max_depth < 0 && o.alpha > 0);
    CHECK_FAILS(boxbfs_msbfs_run(NULL, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_run(g, NULL, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 0, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);    /* empty */
    CHECK_FAILS(boxbfs_msbfs_run(g, src, -2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_run(g, dup, 3, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);    /* twice */
    CHECK(strstr(boxbfs_last_error(), "twice") != NULL);
    CHECK_FAILS(boxbfs_msbfs_run(g, out, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "out of range") != NULL);
    CHECK_FAILS(boxbfs_msbfs_run(g, neg, 1, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    o.group_size = 0;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    o.group_size = 96;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    o.devices = 0;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    o.devices = 65;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    o.backend = (boxbfs_backend_t)9;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    o.alpha = NAN;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    o.alpha = 0;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    o.groupby_p = 0;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    o.groupby_q = -1;
    CHECK_FAILS(boxbfs_msbfs_run(g, src, 2, &o, NULL, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK(r == (boxbfs_msbfs_result_t)0x1);   /* written only on success */
    CHECK_FAILS(boxbfs_msbfs_group_order(g, src, 2, &o, order), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_options_init(&o);
    CHECK_FAILS(boxbfs_msbfs_group_order(g, src, 2, &o, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_group_order(g, dup, 3, &o, order), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_group_order(NULL, src, 2, &o, order), BOXBFS_ERR_INVALID_ARG);
    CHECK(order[0] == -7);

    /* NULL result: accessors answer NULL, validate fails */
    CHECK(boxbfs_msbfs_report(NULL) == NULL);
    CHECK(boxbfs_msbfs_depths(NULL, 0) == NULL);
    CHECK_FAILS(boxbfs_msbfs_validate(g, NULL, idx, 1, verdict), BOXBFS_ERR_INVALID_ARG);
    boxbfs_msbfs_free(NULL);

    /* a real run: depths kept for source 0 only; opts NULL are the defaults */
    CHECK_OK(boxbfs_msbfs_group_order(g, src, 2, NULL, order));
    CHECK((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0));
    CHECK_OK(boxbfs_msbfs_run(g, src, 2, NULL, keep, &r));
    rep = boxbfs_msbfs_report(r);
    CHECK(rep != NULL && rep->nsources == 2 && rep->ngroups == 1 && rep->ndevices == 1);
    if (rep) {
        /* from 0: depths 0 1 2 3 2; from 3: 3 2 1 0 3 */
        CHECK(rep->sources[0].source == 0 && rep->sources[0].reached == 5);
        CHECK(rep->sources[0].eccentricity == 3 && rep->sources[0].sum_depth == 8);
        CHECK(fabs(rep->sources[0].closeness - 4.0 / 8.0) < 1e-12);
        CHECK(rep->sources[1].source == 3 && rep->sources[1].sum_depth == 9);
        CHECK(rep->input_edges == 8 && rep->groups[0].size == 2);
    }
    CHECK(boxbfs_msbfs_depths(r, 0) != NULL && boxbfs_msbfs_depths(r, 0)[3] == 3);
    CHECK(boxbfs_msbfs_depths(r, 1) == NULL);    /* not kept */
    CHECK(boxbfs_msbfs_depths(r, 2) == NULL);    /* out of range */
    CHECK(boxbfs_msbfs_depths(r, -1) == NULL);
    CHECK_FAILS(boxbfs_msbfs_validate(NULL, r, idx, 1, verdict), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_validate(g, r, NULL, 1, verdict), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_validate(g, r, idx, 0, verdict), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_validate(g, r, bad_idx, 1, verdict), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_msbfs_validate(g, r, far_idx, 1, verdict), BOXBFS_ERR_INVALID_ARG);
    CHECK(verdict[0] == -1);
    CHECK_OK(boxbfs_msbfs_validate(g, r, idx, 1, verdict));
    CHECK(verdict[0] == 1);
    {   /* another graph's size */
        boxbfs_graph_t h = check_graph(3, 2, small_edges, 0);
        CHECK_FAILS(boxbfs_msbfs_validate(h, r, idx, 1, NULL), BOXBFS_ERR_INVALID_ARG);
        boxbfs_graph_free(h);
    }
    boxbfs_msbfs_free(r);

    /* k-hop: max depth 1 from 0 reaches 0, 1 */
    boxbfs_msbfs_options_init(&o);
    o.max_depth = 1;
    o.group_size = 32;
    CHECK_OK(boxbfs_msbfs_run(g, src, 1, &o, keep, &r));
    rep = boxbfs_msbfs_report(r);
    CHECK(rep && rep->sources[0].reached == 2 && boxbfs_msbfs_depths(r, 0)[2] == -1);
    CHECK_OK(boxbfs_msbfs_validate(g, r, idx, 1, NULL));
    boxbfs_msbfs_free(r);
    boxbfs_graph_free(g);
}

/* A ladder of 41 rungs of three parallel paths: 3^k shortest paths from 0
 * to the k-th joint; 3^41 > 2^64 wraps a uint64 (to an odd number: never 0,
 * which the pull step would take for "unreached"). */
static boxbfs_graph_t ladder(int64_t *last_p)
{
    enum { RUNGS = 41, WIDTH = 3 };
    int64_t src[2 * WIDTH * RUNGS], dst[2 * WIDTH * RUNGS], m = 0, joint = 0, n = 1;
    boxbfs_graph_t g = NULL;
    for (int k = 0; k < RUNGS; k++) {
        int64_t next = n + WIDTH;
        for (int w = 0; w < WIDTH; w++) {
            src[m] = joint; dst[m++] = n + w;
            src[m] = n + w; dst[m++] = next;
        }
        joint = next;
        n += WIDTH + 1;
    }
    CHECK_OK(boxbfs_graph_from_edges(n, m, src, dst, 0, &g));
    *last_p = joint;
    return g;
}

static void sigma(void)
{
    boxbfs_graph_t g = check_graph(5, 4, small_edges, 0), big;
    boxbfs_sigma_options_t o;
    boxbfs_sigma_t s = (boxbfs_sigma_t)0x1;
    const boxbfs_sigma_report_t *rep;
    int32_t level[256];
    uint64_t counts[256];
    double counts_d[256];
    int64_t last;

    boxbfs_sigma_options_init(NULL);
    boxbfs_sigma_options_init(&o);
    CHECK(o.devices == 1 && o.algorithm == BOXBFS_SIGMA_FRONTIER && o.switch_density > 0);
    CHECK_FAILS(boxbfs_sigma_create(NULL, &o, &s), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_sigma_create(g, &o, NULL), BOXBFS_ERR_INVALID_ARG);
    o.devices = 0;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    o.devices = 65;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.algorithm = (boxbfs_sigma_algorithm_t)5;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.spmv = (boxbfs_spmv_t)-1;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.direction = (boxbfs_search_direction_t)3;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.backend = (boxbfs_backend_t)2;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.switch_density = 0;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.algorithm = BOXBFS_SIGMA_SPMV;   /* spmv runs on one device */
    o.devices = 2;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_options_init(&o);
    o.direction = BOXBFS_SEARCH_BOTTOM_UP;   /* bottom-up on one device only */
    o.devices = 2;
    CHECK_FAILS(boxbfs_sigma_create(g, &o, &s), BOXBFS_ERR_INVALID_ARG);
    CHECK(s == (boxbfs_sigma_t)0x1);
    CHECK_FAILS(boxbfs_sigma_run(NULL, 0, level, counts, NULL, &rep), BOXBFS_ERR_INVALID_ARG);
    boxbfs_sigma_free(NULL);
    CHECK(boxbfs_sigma_algorithm_name((boxbfs_sigma_algorithm_t)9) != NULL);
    CHECK(boxbfs_spmv_name((boxbfs_spmv_t)9) != NULL);
    CHECK(strcmp(boxbfs_spmv_name(BOXBFS_SPMV_COOC), "cooc") == 0);

    boxbfs_sigma_options_init(&o);
    o.devices = 2;
    CHECK_OK(boxbfs_sigma_create(g, &o, &s));
    CHECK_FAILS(boxbfs_sigma_run(s, 5, level, counts, NULL, &rep), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_sigma_run(s, -1, level, counts, NULL, &rep), BOXBFS_ERR_INVALID_ARG);
    CHECK_OK(boxbfs_sigma_run(s, 0, NULL, NULL, NULL, NULL));   /* every output optional */
    CHECK_OK(boxbfs_sigma_run(s, 0, level, counts, counts_d, &rep));
    CHECK(level[3] == 3 && counts[3] == 1 && counts_d[4] == 1 && rep->reached == 5 && !rep->overflow);
    CHECK(rep->devices == 2 && rep->link_bytes != NULL);
    CHECK_FAILS(boxbfs_sigma_validate(NULL, 0, level, counts), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_sigma_validate(g, 0, NULL, counts), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_sigma_validate(g, 0, level, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_sigma_validate(g, 7, level, counts), BOXBFS_ERR_INVALID_ARG);
    CHECK_OK(boxbfs_sigma_validate(g, 0, level, counts));
    counts[2] = 2;
    CHECK_FAILS(boxbfs_sigma_validate(g, 0, level, counts), BOXBFS_ERR_VALIDATION);
    boxbfs_sigma_free(s);

    /* 3^41 paths: the uint64 count wraps, the double one holds it */
    big = ladder(&last);
    CHECK(boxbfs_graph_vertices(big) <= 256);
    for (int devices = 1; devices <= 3; devices++) {   /* one device, pairs over links */
        boxbfs_sigma_options_init(&o);
        o.devices = devices;
        CHECK_OK(boxbfs_sigma_create(big, &o, &s));
        CHECK_OK(boxbfs_sigma_run(s, 0, level, counts, counts_d, &rep));
        CHECK(rep->overflow == 1 && level[last] == 82 && rep->reached == boxbfs_graph_vertices(big));
        CHECK(fabs(counts_d[last] / pow(3, 41) - 1) < 1e-12);
        CHECK(fabs(counts_d[last - 4] / pow(3, 40) - 1) < 1e-12);
        CHECK(counts[4] == 3 && counts_d[4] == 3);
        CHECK_OK(boxbfs_sigma_validate(big, 0, level, counts));   /* counts past 2^64 not compared */
        boxbfs_sigma_free(s);
    }
    boxbfs_graph_free(big);
    boxbfs_graph_free(g);
}

static void bc(void)
{
    boxbfs_graph_t g = check_graph(5, 4, small_edges, 0);
    boxbfs_bc_options_t o;
    boxbfs_bc_result_t r = (boxbfs_bc_result_t)0x1;
    const int64_t src[] = {0, 3}, dup[] = {2, 2}, out[] = {9}, neg[] = {-3};
    const double *v;
    double diff = -1;

    boxbfs_bc_options_init(NULL);
    boxbfs_bc_options_init(&o);
    CHECK(o.devices == 1 && o.normalized == 0);
    CHECK_FAILS(boxbfs_bc_run(NULL, src, 2, &o, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bc_run(g, src, 2, &o, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bc_run(g, NULL, 3, &o, &r), BOXBFS_ERR_INVALID_ARG);   /* NULL with a count */
    CHECK_FAILS(boxbfs_bc_run(g, src, 0, &o, &r), BOXBFS_ERR_INVALID_ARG);    /* empty list */
    CHECK_FAILS(boxbfs_bc_run(g, src, -1, &o, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bc_run(g, dup, 2, &o, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bc_run(g, out, 1, &o, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bc_run(g, neg, 1, &o, &r), BOXBFS_ERR_INVALID_ARG);
    o.devices = 0;
    CHECK_FAILS(boxbfs_bc_run(g, src, 2, &o, &r), BOXBFS_ERR_INVALID_ARG);
    o.devices = 1;
    o.backend = (boxbfs_backend_t)-1;
    CHECK_FAILS(boxbfs_bc_run(g, src, 2, &o, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK(r == (boxbfs_bc_result_t)0x1);
    CHECK(boxbfs_bc_values(NULL) == NULL);
    CHECK(boxbfs_bc_report(NULL) == NULL);
    CHECK(boxbfs_bc_device_name(NULL, 0) != NULL);
    CHECK_FAILS(boxbfs_bc_validate(g, NULL, &diff), BOXBFS_ERR_INVALID_ARG);
    boxbfs_bc_free(NULL);

    /* exact, raw: undirected sums halved. Vertex 1 lies on the paths 0-2,
     * 0-3, 0-4, 4-2, 4-3 (5); vertex 2 on 0-3, 1-3, 4-3 (3) */
    boxbfs_bc_options_init(&o);
    o.devices = 2;
    CHECK_OK(boxbfs_bc_run(g, NULL, 0, &o, &r));
    v = boxbfs_bc_values(r);
    CHECK(v && v[0] == 0 && v[1] == 5 && v[2] == 3 && v[3] == 0 && v[4] == 0);
    CHECK(boxbfs_bc_report(r)->nsources == 5 && boxbfs_bc_report(r)->devices == 2);
    CHECK(boxbfs_bc_device_name(r, 1)[0] != '\0' && boxbfs_bc_device_name(r, 2)[0] == '\0');
    CHECK(boxbfs_bc_device_name(r, -1) != NULL);
    CHECK_FAILS(boxbfs_bc_validate(NULL, r, &diff), BOXBFS_ERR_INVALID_ARG);
    CHECK_OK(boxbfs_bc_validate(g, r, &diff));
    CHECK(diff >= 0 && diff <= 1e-9);
    boxbfs_bc_free(r);
    /* normalized: / (n-1)(n-2) = 12 */
    o.normalized = 1;
    CHECK_OK(boxbfs_bc_run(g, NULL, 0, &o, &r));
    v = boxbfs_bc_values(r);
    CHECK(v && fabs(v[1] - 10.0 / 12.0) < 1e-12);
    boxbfs_bc_free(r);
    /* a sample of 2 sources of 5: raw halved, times 5/2 */
    o.normalized = 0;
    CHECK_OK(boxbfs_bc_run(g, src, 2, &o, &r));
    v = boxbfs_bc_values(r);
    /* from 0: 1 gets 3 (2, 3, 4 behind it), 2 gets 1; from 3: 2 gets 3, 1 gets 2 */
    CHECK(v && fabs(v[1] - 5 * 0.5 * 2.5) < 1e-12 && fabs(v[2] - 4 * 0.5 * 2.5) < 1e-12);
    CHECK_OK(boxbfs_bc_validate(g, r, NULL));
    boxbfs_bc_free(r);
    boxbfs_graph_free(g);
}

static void logging(void)
{
    boxbfs_log(BOXBFS_LOG_DEBUG, "not shown unless BOXBFS_LOG=debug: %d", 1);
    boxbfs_log((boxbfs_log_level_t)9, "out of range: nothing");
    boxbfs_log(BOXBFS_LOG_ERROR, NULL);   /* nothing, no crash */
    boxbfs_abort_hook_set(NULL);
}

int main(void)
{
    msbfs();
    sigma();
    bc();
    logging();
    CHECK_DONE();
}
