/* Per-rank slices and tree checks across MPI ranks. tests/mpi.sh runs it
 * under mpirun -np 1..4; make check runs it as one process (and it skips
 * without MPI). Every rank loads its slice of kron:10 (undirected and
 * directed): the rows of the engine's partition, equal to the whole graph's;
 * an engine on the slices gives the reference levels and a tree that
 * boxbfs_engine_check_tree passes with the whole graph's counts; trees
 * broken on purpose (R0, R1, R2, R3/R4, R6 on a parent of another rank's
 * vertex) get, from each rank's own rows only, the status and message that
 * checking the whole tree on every rank gave (the lowest failing rank's,
 * the same everywhere); a slice whose rows are not the rank's range makes
 * engine creation fail everywhere. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "bfs/bfs.h"
#include "engine/partition.h"
#include "graph/graph.h"

#ifdef BB_HAVE_MPI
#include <mpi.h>

static int rank, nranks;

/* Rank 0's text equals this rank's. */
static int same_everywhere(const char *text)
{
    char mine[1024], root[1024];
    int same, all;
    snprintf(mine, sizeof mine, "%s", text);
    memcpy(root, mine, sizeof root);
    MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
    same = strcmp(root, mine) == 0;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* The slice equals the rows of the whole graph w that the engine gives this rank. */
static void check_slice(boxbfs_graph_t s, boxbfs_graph_t w, const bb_partition_t *part)
{
    int64_t lo, hi, n = w->n;
    CHECK_OK(boxbfs_graph_rows(s, &lo, &hi));
    CHECK(lo == (int64_t)part->lo[rank] && hi == (int64_t)part->lo[rank + 1]);
    CHECK(s->n == n && s->arcs == w->arcs && s->input_edges == w->input_edges);
    CHECK(s->self_loops == w->self_loops && s->duplicate_arcs == w->duplicate_arcs);
    CHECK(s->directed == w->directed && strcmp(s->name, w->name) == 0);
    CHECK(memcmp(s->offsets, w->offsets, (size_t)(n + 1) * 8) == 0);
    CHECK(memcmp(s->edge_credit, w->edge_credit, (size_t)n * 8) == 0);
    CHECK(s->columns_base == w->offsets[lo]);
    CHECK(memcmp(s->columns, w->columns + w->offsets[lo],
                 (size_t)(w->offsets[hi] - w->offsets[lo]) * 8) == 0);
    CHECK(bb_graph_is_slice(s) == (nranks > 1));
}

/* Every rank: status st and, for an error, the same message, which contains want. */
static void expect_everywhere(boxbfs_status_t got, boxbfs_status_t st, const char *want)
{
    CHECK(got == st);
    CHECK(same_everywhere(got == BOXBFS_OK ? "" : boxbfs_last_error()));
    if (want != NULL && strstr(boxbfs_last_error(), want) == NULL) {
        fprintf(stderr, "rank %d: expected \"%s\" in \"%s\"\n", rank, want, boxbfs_last_error());
        CHECK(!"message");
    }
}

/* A reached vertex of rank vr's rows and a vertex of rank pr's rows one
 * level up with no arc to it; 0 when there is none. */
static int find_bad_parent(boxbfs_graph_t w, const bb_partition_t *part, const int32_t *level,
                           int64_t root, int vr, int pr, int64_t *v_p, int64_t *p_p)
{
    for (int64_t v = (int64_t)part->lo[vr]; v < (int64_t)part->lo[vr + 1]; v++) {
        if (v == root || level[v] <= 0) continue;
        for (int64_t p = (int64_t)part->lo[pr]; p < (int64_t)part->lo[pr + 1]; p++) {
            int arc = 0;
            if (level[p] != level[v] - 1) continue;
            for (int64_t k = w->offsets[p]; k < w->offsets[p + 1]; k++) arc |= w->columns[k] == v;
            if (!arc) {
                *v_p = v;
                *p_p = p;
                return 1;
            }
        }
    }
    return 0;
}

/* A parent of a vertex of rank 0's rows in the last rank's rows; -1 when none. */
static int64_t find_remote_parent(const bb_partition_t *part, const int64_t *parent, int64_t root)
{
    for (int64_t v = 0; v < (int64_t)part->lo[1]; v++) {
        int64_t p = parent[v];
        if (v != root && p >= (int64_t)part->lo[nranks - 1] && p != v) return p;
    }
    return -1;
}

/* The tree (whole, the same on every rank) checked as the ranks did when
 * rank 0 broadcast it: each rank its rows of the whole tree, the lowest
 * failing rank's status and message everywhere. Then by
 * boxbfs_engine_check_tree from arrays that hold only this rank's rows (the
 * others poisoned, so reading them would fail): the same status and
 * message, which contains want; on OK the whole graph's counts. */
static void same_as_whole_tree(boxbfs_engine_t e, boxbfs_graph_t s, boxbfs_graph_t w,
                               const bb_partition_t *part, int64_t root, const int64_t *wparent,
                               const int32_t *wlevel, const char *want)
{
    int64_t n = w->n, lo = (int64_t)part->lo[rank], hi = (int64_t)part->lo[rank + 1];
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    boxbfs_tree_info_t info, whole;
    boxbfs_status_t expected, got;
    char message[1024] = "";
    int mine, first;

    expected = bb_validate_rows(s, lo, hi, root, wparent, wlevel, -1, NULL, NULL);
    if (expected != BOXBFS_OK) snprintf(message, sizeof message, "%s", boxbfs_last_error());
    mine = expected != BOXBFS_OK ? rank : nranks;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < nranks) {
        MPI_Bcast(message, (int)sizeof message, MPI_CHAR, first, MPI_COMM_WORLD);
        MPI_Bcast(&expected, (int)sizeof expected, MPI_BYTE, first, MPI_COMM_WORLD);
    }
    for (int64_t v = 0; v < n; v++) {
        int own = v >= lo && v < hi;
        parent[v] = own ? wparent[v] : -7;
        level[v] = own ? wlevel[v] : 99;
    }
    got = boxbfs_engine_check_tree(e, root, parent, level, 1, &info);
    expect_everywhere(got, expected, want);
    if (got != BOXBFS_OK && strcmp(boxbfs_last_error(), message) != 0) {
        fprintf(stderr, "rank %d: expected \"%s\", got \"%s\"\n", rank, message,
                boxbfs_last_error());
        CHECK(!"the whole tree's message");
    }
    if (got == BOXBFS_OK) {
        CHECK(memcmp(level, wlevel, (size_t)n * 4) == 0);   /* levels allgathered */
        CHECK_OK(boxbfs_validate(w, root, wparent, wlevel, &whole));
        CHECK(info.reached == whole.reached && info.input_edges == whole.input_edges &&
              info.arcs == whole.arcs && info.levels == whole.levels);
    }
    free(parent);
    free(level);
}

static void run(int directed)
{
    boxbfs_load_options_t so = {directed ? BOXBFS_DIRECTION_DIRECTED : BOXBFS_DIRECTION_DEFAULT,
                                1, 1};
    boxbfs_load_options_t wo = so;
    boxbfs_graph_t s = NULL, w = NULL;
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    boxbfs_tree_info_t info, whole, counted;
    bb_partition_t part;
    int64_t n, root, v, p, *parent, *ref_parent;
    int32_t *level, *ref_level;
    char want[256];

    wo.mpi_slice = 0;
    CHECK_OK(boxbfs_graph_load("kron:10", &so, &s));
    CHECK_OK(boxbfs_graph_load("kron:10", &wo, &w));
    if (s == NULL || w == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
    n = w->n;
    CHECK_OK(bb_partition_by_edges(w->offsets, n, nranks, &part));
    check_slice(s, w, &part);
    parent = malloc((size_t)n * 8);
    level = malloc((size_t)n * 4);
    ref_parent = malloc((size_t)n * 8);
    ref_level = malloc((size_t)n * 4);
    boxbfs_engine_options_init(&o);
    o.exchange = BOXBFS_EXCHANGE_MPI;
    o.devices = 0;
    CHECK_OK(boxbfs_engine_create(s, &o, &e));
    if (e == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
    for (root = 0; w->offsets[root + 1] == w->offsets[root]; root++) continue;

    /* a good tree: the reference levels, valid everywhere, the whole graph's counts */
    CHECK_OK(boxbfs_engine_run(e, root, parent, level, NULL));
    expect_everywhere(boxbfs_engine_check_tree(e, root, parent, level, 1, &info), BOXBFS_OK, NULL);
    CHECK_OK(boxbfs_bfs_reference(w, root, ref_parent, ref_level));
    CHECK(memcmp(level, ref_level, (size_t)n * 4) == 0);   /* allgathered: whole on every rank */
    CHECK_OK(boxbfs_validate(w, root, ref_parent, ref_level, &whole));   /* parents: own rows */
    CHECK(info.reached == whole.reached && info.input_edges == whole.input_edges &&
          info.arcs == whole.arcs && info.levels == whole.levels);
    CHECK_OK(boxbfs_engine_check_tree(e, root, parent, level, 0, &counted));
    CHECK(counted.reached == whole.reached && counted.input_edges == whole.input_edges &&
          counted.arcs == whole.arcs && counted.levels == whole.levels);
    same_as_whole_tree(e, s, w, &part, root, ref_parent, ref_level, NULL);

    /* broken trees, the same on every rank: the verdict and message of the
     * whole tree's check, from each rank's own rows */
#define BROKEN(change, want)                                                     \
    do {                                                                         \
        memcpy(parent, ref_parent, (size_t)n * 8);                               \
        memcpy(level, ref_level, (size_t)n * 4);                                 \
        change;                                                                  \
        same_as_whole_tree(e, s, w, &part, root, parent, level, want);           \
    } while (0)

    /* R2 broken on the last rank's vertex, its parent on rank 0's: undirected,
     * the last rank sees it (the vertex's row); directed, rank 0 (the
     * parent's row: the pair goes there) */
    if (find_bad_parent(w, &part, ref_level, root, nranks - 1, 0, &v, &p)) {
        snprintf(want, sizeof want, "R2: vertex %lld has parent %lld but", (long long)v,
                 (long long)p);
        BROKEN(parent[v] = p, want);
    } else {
        CHECK(!"no vertex with a non-neighbour one level up");
    }

    /* a level off on the last rank's first reached vertex: R3 or R4 */
    for (v = (int64_t)part.lo[nranks - 1]; v < n && (v == root || ref_level[v] < 0); v++) continue;
    if (v < n) BROKEN(level[v] += 3, NULL);
    CHECK(strstr(boxbfs_last_error(), "R3: ") != NULL || strstr(boxbfs_last_error(), "R4: ") != NULL);

    /* the root's parent (its row is rank 0's): R0 everywhere */
    snprintf(want, sizeof want, "R0: root %lld has parent %lld", (long long)root,
             (long long)root + 1);
    BROKEN(parent[root] = root + 1, want);

    /* a parent out of range on the last rank */
    v = (int64_t)part.lo[nranks - 1] + 1;
    snprintf(want, sizeof want, "R1: vertex %lld has parent %lld", (long long)v,
             (long long)n + 5);
    BROKEN(parent[v] = n + 5, want);

    /* R6 broken at the last rank's parent of a rank 0 vertex, either way:
     * rank 0 must see the parent unreached (R3) or reached (R5, its
     * level -1) as the whole tree says, not as the level alone suggests */
    p = find_remote_parent(&part, ref_parent, root);
    if (nranks > 1 && p < 0) CHECK(!"no rank 0 vertex with a parent on the last rank");
    if (p >= 0) {
        BROKEN(parent[p] = -1, NULL);
        BROKEN(level[p] = -1, NULL);
    }
#undef BROKEN
    boxbfs_engine_free(e);
    e = NULL;

    /* rank 0's slice claims one row fewer than its range: every rank fails */
    if (rank == 0) s->row_hi--;
    {
        boxbfs_status_t st = boxbfs_engine_create(s, &o, &e);
        CHECK(st != BOXBFS_OK && e == NULL);
        if (rank == 0) {
            CHECK(st == BOXBFS_ERR_INVALID_ARG);
            CHECK(strstr(boxbfs_last_error(), "load the slice with as many processes") != NULL);
        } else {
            CHECK(strstr(boxbfs_last_error(), "failed while setting up") != NULL);
        }
    }
    if (rank == 0) s->row_hi++;

    bb_partition_free(&part);
    free(parent);
    free(level);
    free(ref_parent);
    free(ref_level);
    boxbfs_graph_free(s);
    boxbfs_graph_free(w);
}
#endif

int main(void)
{
#ifndef BB_HAVE_MPI
    (void)check_failures;
    SKIP("built without MPI");
#else
    boxbfs_load_options_t so = {BOXBFS_DIRECTION_DEFAULT, 1, 1};
    boxbfs_graph_t g = NULL;
    /* the first load starts MPI: it runs alone or under mpirun */
    CHECK_OK(boxbfs_graph_load("kron:4", &so, &g));
    boxbfs_graph_free(g);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    run(0);
    run(1);
    if (check_failures) fprintf(stderr, "rank %d of %d:\n", rank, nranks);
    boxbfs_finalize();
    CHECK_DONE();
#endif
}
