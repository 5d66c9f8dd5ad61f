/* The devices' Kronecker rows (kernels.h kron_rows) against the host's
 * (bb_kron_rows): the same offsets, columns and edge credits for ranges of
 * rows of several graphs, the first call's bound at least the rows' arcs, a
 * room below it refused; on the cpu backend, and on the cuda backend where a
 * GPU is (its rows are the ones that can differ). And the engine's check of
 * a tree on such a graph (engine/device_build.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "engine/engine.h"
#include "graph/graph.h"

/* Rows [lo, hi) of kron:scale:ef:seed on device dev of ops against bb_kron_rows. */
static void compare(const bb_device_ops_t *ops, bb_device_t *dev, int scale, int ef,
                    uint64_t seed, int64_t lo, int64_t hi)
{
    const bb_kron_job_t job = {scale, ef, seed};
    const int64_t nloc = hi - lo;
    bb_rows_t want;
    bb_kstate_t k;
    uint64_t bound = 0, arcs = 0;
    int64_t *off = NULL, *credit = NULL;
    uint32_t *cols = NULL;
    void *d_off = NULL, *d_cols = NULL;
    memset(&k, 0, sizeof k);
    k.lo = (uint64_t)lo;
    k.hi = (uint64_t)hi;
    k.n = (uint64_t)1 << scale;
    CHECK_OK(bb_kron_rows(scale, ef, seed, 0, 1, lo, hi, &want));
    const uint64_t exact = (uint64_t)want.offsets[nloc];
    CHECK_OK(ops->alloc(dev, (size_t)(nloc + 1) * 8, &d_off));
    k.offsets = d_off;
    CHECK_OK(ops->kernels.kron_rows(&k, ops->stream(dev), &job, 0, NULL, &bound));
    CHECK(bound >= exact);
    if (exact > 1)   /* a room below the rows' arcs: refused, nothing written */
        CHECK(ops->kernels.kron_rows(&k, ops->stream(dev), &job, 1, NULL, &arcs) ==
              BOXBFS_ERR_INTERNAL);
    if (bound == 0) bound = 1;
    CHECK_OK(ops->alloc(dev, (size_t)bound * 4, &d_cols));
    k.columns = d_cols;
    credit = calloc((size_t)nloc + 1, sizeof *credit);
    off = calloc((size_t)nloc + 1, sizeof *off);
    cols = calloc((size_t)bound, sizeof *cols);
    CHECK(credit && off && cols);
    CHECK_OK(ops->kernels.kron_rows(&k, ops->stream(dev), &job, bound, credit, &arcs));
    CHECK_OK(ops->copy_d2h(dev, off, d_off, (size_t)(nloc + 1) * 8));
    CHECK_OK(ops->copy_d2h(dev, cols, d_cols, (size_t)bound * 4));
    CHECK_OK(ops->sync(dev));
    CHECK(arcs == exact);
    int rows_ok = 1, cols_ok = 1, credit_ok = 1;
    for (int64_t r = 0; r <= nloc; r++) rows_ok &= off[r] == want.offsets[r];
    for (uint64_t i = 0; i < exact && i < bound; i++) cols_ok &= cols[i] == (uint32_t)want.columns[i];
    for (int64_t r = 0; r < nloc; r++) credit_ok &= credit[r] == want.edge_credit[r];
    if (!(rows_ok && cols_ok && credit_ok))
        fprintf(stderr, "kron:%d:%d:%llu rows [%lld, %lld): offsets %s, columns %s, credits %s\n",
                scale, ef, (unsigned long long)seed, (long long)lo, (long long)hi,
                rows_ok ? "ok" : "DIFFER", cols_ok ? "ok" : "DIFFER", credit_ok ? "ok" : "DIFFER");
    CHECK(rows_ok && cols_ok && credit_ok);
    ops->free(dev, d_off);
    ops->free(dev, d_cols);
    free(off);
    free(cols);
    free(credit);
    bb_rows_free(&want);
}

static void backend(boxbfs_backend_t b)
{
    const bb_device_ops_t *ops = bb_engine_backend_ops(b);
    bb_device_t *dev = NULL;
    char name[128];
    int count = 0;
    if (ops == NULL || ops->count(&count) != BOXBFS_OK ||
        (count < 1 && b == BOXBFS_BACKEND_CUDA)) {   /* the cpu backend's: any number */
        printf("skip %s: no device\n", boxbfs_backend_name(b));
        return;
    }
    CHECK_OK(ops->open(0, &dev, name, sizeof name));
    compare(ops, dev, 10, 16, 1, 0, 1024);     /* a whole graph */
    compare(ops, dev, 12, 16, 1, 0, 1344);     /* ranges of the engine's 32-aligned kind */
    compare(ops, dev, 12, 16, 1, 1344, 4096);
    compare(ops, dev, 12, 8, 7, 100, 101);     /* one row, another edge factor and seed */
    compare(ops, dev, 12, 8, 7, 2048, 2048);   /* none */
    compare(ops, dev, 14, 16, 3, 5000, 12000);
    ops->close(dev);
    printf("ok   %s: kron_rows as bb_kron_rows\n", boxbfs_backend_name(b));
}

/* Is v in the (sorted) row of u of a graph built here? */
static int adjacent(boxbfs_graph_t g, int64_t u, int64_t v)
{
    const int64_t *off = boxbfs_graph_offsets(g), *col = boxbfs_graph_columns(g);
    for (int64_t j = off[u]; j < off[u + 1]; j++)
        if (col[j] == v) return 1;
    return 0;
}

/* A tree on a graph built on two devices (cpu; cuda: two logical devices of
 * GPU 0, where there is one): its engine validates it, the
 * rows on the devices (check_rows) and, with BOXBFS_VALIDATE_ROWS=host, on
 * the host, read back in bands (of 2^26 arcs; of 1000, so that the devices'
 * rows take several bands each; of one arc, so that every row is longer
 * than a band), with the counts that the host's validation of the same
 * graph built here gives; a vertex made its own parent fails (R5), so does
 * a parent one level up that is not a neighbour (R2: the rows come back
 * unsorted, scanned), and a leaf of the tree made unreached (R5, found by a
 * device on a neighbour's row and named by the host's check of its band),
 * both ways. */
static void validate_built(boxbfs_backend_t b)
{
    static const int gpu0[] = {0, 0};
    const bb_device_ops_t *ops = bb_engine_backend_ops(b);
    int count = 0;
    if (ops == NULL || ops->count(&count) != BOXBFS_OK ||
        (count < 1 && b == BOXBFS_BACKEND_CUDA)) {   /* the cpu backend's: any number */
        printf("skip %s: validation of a graph built on the devices: no device\n",
               boxbfs_backend_name(b));
        return;
    }
    boxbfs_graph_t g = NULL, host = NULL;
    boxbfs_engine_t e = NULL;
    boxbfs_engine_options_t o;
    boxbfs_tree_info_t info, want;
    const boxbfs_search_report_t *rep;
    static const char *const bands[] = {NULL, "1000", "1"};
    static const char *const where[] = {"devices", "host"};
    boxbfs_engine_options_init(&o);
    o.backend = b;
    o.devices = 2;
    if (b == BOXBFS_BACKEND_CUDA) o.device_ids = gpu0;
    CHECK_OK(boxbfs_graph_kron_on_devices("kron:12", &g));
    CHECK_OK(boxbfs_graph_load("kron:12", NULL, &host));
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (g == NULL || host == NULL || e == NULL) return;
    const int64_t n = boxbfs_graph_vertices(g), *off = boxbfs_graph_offsets(g);
    int64_t root = 0, *parent = calloc((size_t)n, sizeof *parent);
    int32_t *level = calloc((size_t)n, sizeof *level);
    while (root < n - 1 && off[root + 1] == off[root]) root++;   /* built: degrees known */
    CHECK(parent && level && off[root + 1] > off[root]);
    CHECK_OK(boxbfs_engine_run(e, root, parent, level, &rep));
    CHECK_OK(boxbfs_validate(host, root, parent, level, &want));
    for (int b = 0; b < 6; b++) {
        setenv("BOXBFS_VALIDATE_ROWS", where[b / 3], 1);
        if (bands[b % 3]) setenv("BOXBFS_VALIDATE_BAND_ARCS", bands[b % 3], 1);
        memset(&info, 0, sizeof info);
        CHECK_OK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info));
        CHECK(info.reached == want.reached && info.arcs == want.arcs &&
              info.input_edges == want.input_edges && info.levels == want.levels);
    }
    unsetenv("BOXBFS_VALIDATE_BAND_ARCS");
    setenv("BOXBFS_VALIDATE_ROWS", "nowhere", 1);
    CHECK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "BOXBFS_VALIDATE_ROWS='nowhere'") != NULL);
    unsetenv("BOXBFS_VALIDATE_ROWS");
    int64_t v = 0, p = 0;   /* v at level 2 or deeper; p one level up, no neighbour of v */
    while (v < n && level[v] < 2) v++;
    CHECK(v < n);
    while (v < n && p < n && (level[p] != level[v] - 1 || adjacent(host, v, p))) p++;
    CHECK(v < n && p < n);
    if (v < n && p < n) {
        const int64_t keep = parent[v];
        parent[v] = p;
        CHECK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info) ==
              BOXBFS_ERR_VALIDATION);
        CHECK(strstr(boxbfs_last_error(), "R2") != NULL);
        parent[v] = v;
        CHECK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info) ==
              BOXBFS_ERR_VALIDATION);
        parent[v] = keep;
    }
    int64_t leaf = 0;   /* reached, not the root, nobody's parent */
    for (; leaf < n; leaf++) {
        int64_t w = 0;
        while (w < n && parent[w] != leaf) w++;
        if (leaf != root && level[leaf] > 0 && w == n) break;
    }
    CHECK(leaf < n);
    if (leaf < n) {
        const int64_t keep = parent[leaf];
        const int32_t keep_level = level[leaf];
        parent[leaf] = -1;
        level[leaf] = -1;
        for (int w = 0; w < 2; w++) {
            setenv("BOXBFS_VALIDATE_ROWS", where[w], 1);
            CHECK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info) ==
                  BOXBFS_ERR_VALIDATION);
            CHECK(strstr(boxbfs_last_error(), "R5") != NULL);
        }
        unsetenv("BOXBFS_VALIDATE_ROWS");
        parent[leaf] = keep;
        level[leaf] = keep_level;
    }
    free(parent);
    free(level);
    boxbfs_engine_free(e);
    boxbfs_graph_free(g);
    boxbfs_graph_free(host);
    printf("ok   %s: validation of a graph built on the devices\n", boxbfs_backend_name(b));
}

int main(void)
{
    validate_built(BOXBFS_BACKEND_CPU);
    validate_built(BOXBFS_BACKEND_CUDA);
    backend(BOXBFS_BACKEND_CPU);
    backend(BOXBFS_BACKEND_CUDA);
    CHECK_DONE();
}
