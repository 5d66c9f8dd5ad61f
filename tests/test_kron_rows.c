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

/* A tree on a graph built on two cpu devices: its engine validates it,
 * reading the rows back, with the counts of the tree; a vertex made its own
 * parent fails with the rule named. */
static void validate_built(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_engine_t e = NULL;
    boxbfs_engine_options_t o;
    boxbfs_tree_info_t info;
    const boxbfs_search_report_t *rep;
    boxbfs_engine_options_init(&o);
    o.devices = 2;
    CHECK_OK(boxbfs_graph_kron_on_devices("kron:12", &g));
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    if (g == NULL || e == NULL) return;
    const int64_t n = boxbfs_graph_vertices(g), *off = boxbfs_graph_offsets(g);
    int64_t root = 0, *parent = calloc((size_t)n, sizeof *parent);
    int32_t *level = calloc((size_t)n, sizeof *level);
    while (root < n - 1 && off[root + 1] == off[root]) root++;   /* built: degrees known */
    CHECK(parent && level && off[root + 1] > off[root]);
    CHECK_OK(boxbfs_engine_run(e, root, parent, level, &rep));
    CHECK_OK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info));
    CHECK(info.reached > 1 && info.arcs > 0 && info.levels > 1);
    int64_t v = 0;
    while (v < n && (v == root || level[v] < 1)) v++;
    CHECK(v < n);
    if (v < n) {
        parent[v] = v;
        CHECK(boxbfs_engine_check_tree(e, root, parent, level, 1, &info) ==
              BOXBFS_ERR_VALIDATION);
    }
    free(parent);
    free(level);
    boxbfs_engine_free(e);
    boxbfs_graph_free(g);
}

int main(void)
{
    validate_built();
    backend(BOXBFS_BACKEND_CPU);
    backend(BOXBFS_BACKEND_CUDA);
    CHECK_DONE();
}
