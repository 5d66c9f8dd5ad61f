/* boxbfs_msbfs_validate: kept depth arrays and per-source figures against the
 * sequential reference BFS (src/bfs/reference.c), independent of the
 * multi-source kernels; sources are checked in parallel, one reference BFS
 * per thread at a time. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/threads.h"
#include "graph/graph.h"
#include "msbfs/msbfs.h"

typedef struct {
    boxbfs_graph_t g;
    boxbfs_msbfs_result_t r;
    const int64_t *indices;
    int64_t count, next;
    int *verdict;                 /* may be NULL */
    pthread_mutex_t lock;
    int64_t first_failed;         /* position in indices; count: none */
    char message[1024];           /* the first failure's (by position) */
} check_t;

/* One source: its depths and figures against the reference BFS. */
static boxbfs_status_t check_one(const check_t *w, int64_t si, int64_t *parent, int32_t *level)
{
    boxbfs_graph_t g = w->g;
    const boxbfs_msbfs_source_t *s = &w->r->res.per_source[si];
    const int32_t *depth = boxbfs_msbfs_depths(w->r, si);
    int32_t max_depth = w->r->max_depth;
    int64_t reached = 0, ecc = 0, sum = 0, credit = 0, arcs = 0;
    BB_CHECK(boxbfs_bfs_reference(g, s->source, parent, level));
    for (int64_t v = 0; v < g->n; v++) {
        int32_t want = level[v] >= 0 && (max_depth < 0 || level[v] <= max_depth) ? level[v] : -1;
        if (depth[v] != want)
            return bb_error_set(BOXBFS_ERR_VALIDATION,
                                "source %lld: vertex %lld has depth %d, the reference BFS says %d",
                                (long long)boxbfs_graph_external_id(g, s->source),
                                (long long)boxbfs_graph_external_id(g, v), depth[v], want);
        if (want < 0) continue;
        reached++;
        sum += want;
        if (want > ecc) ecc = want;
        credit += g->edge_credit[v];
        arcs += g->offsets[v + 1] - g->offsets[v];
    }
    if (reached != s->reached || ecc != s->eccentricity || sum != s->sum_depth ||
        credit != s->input_edges || arcs != s->arcs)
        return bb_error_set(BOXBFS_ERR_VALIDATION,
                            "source %lld: reached/eccentricity/sum of depths/edges/arcs %lld/%lld/%lld/"
                            "%lld/%lld, the reference BFS says %lld/%lld/%lld/%lld/%lld",
                            (long long)boxbfs_graph_external_id(g, s->source),
                            (long long)s->reached, (long long)s->eccentricity,
                            (long long)s->sum_depth, (long long)s->input_edges, (long long)s->arcs,
                            (long long)reached, (long long)ecc, (long long)sum, (long long)credit,
                            (long long)arcs);
    return BOXBFS_OK;
}

/* Takes the next position until none is left; a validation failure is
 * recorded (the lowest position's message kept) and the others go on. */
static boxbfs_status_t check_worker(int tid, int nthreads, void *arg)
{
    check_t *w = arg;
    int64_t *parent = NULL;
    int32_t *level = NULL;
    boxbfs_status_t st;
    (void)tid;
    (void)nthreads;
    BB_CHECK_GOTO(bb_malloc((size_t)w->g->n * sizeof *parent, "a reference BFS's parents", &parent),
                  st, out);
    BB_CHECK_GOTO(bb_malloc((size_t)w->g->n * sizeof *level, "a reference BFS's levels", &level),
                  st, out);
    for (;;) {
        int64_t c;
        pthread_mutex_lock(&w->lock);
        c = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (c >= w->count) break;
        st = check_one(w, w->indices[c], parent, level);
        if (w->verdict) w->verdict[c] = st == BOXBFS_OK;
        if (st == BOXBFS_ERR_VALIDATION) {
            pthread_mutex_lock(&w->lock);
            if (c < w->first_failed) {
                w->first_failed = c;
                snprintf(w->message, sizeof w->message, "%s", boxbfs_last_error());
            }
            pthread_mutex_unlock(&w->lock);
            st = BOXBFS_OK;
        }
        if (st != BOXBFS_OK) break;
    }
out:
    free(parent);
    free(level);
    return st;
}

boxbfs_status_t boxbfs_msbfs_validate(boxbfs_graph_t graph, boxbfs_msbfs_result_t result,
                                      const int64_t *indices, int64_t count, int *verdict)
{
    check_t w;
    int threads = bb_cpu_count();
    boxbfs_status_t st;
    if (graph == NULL || result == NULL || indices == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs validate: %s is NULL",
                            graph == NULL ? "graph" : result == NULL ? "result" : "indices");
    if (count < 1) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs validate: no sources to check");
    if (graph->n != result->n)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs validate: the graph has %lld vertices, "
                            "the run's %lld", (long long)graph->n, (long long)result->n);
    BB_CHECK(bb_graph_require_whole(graph, "the multi-source BFS check"));
    for (int64_t c = 0; c < count; c++)
        if (boxbfs_msbfs_depths(result, indices[c]) == NULL)
            return bb_error_set(BOXBFS_ERR_INVALID_ARG, "msbfs validate: source number %lld %s",
                                (long long)indices[c],
                                indices[c] < 0 || indices[c] >= result->res.nsources
                                    ? "is out of range" : "has no kept depths");
    memset(&w, 0, sizeof w);
    w.g = graph;
    w.r = result;
    w.indices = indices;
    w.count = count;
    w.verdict = verdict;
    w.first_failed = count;
    pthread_mutex_init(&w.lock, NULL);
    st = bb_parallel_run(threads < count ? threads : (int)count, check_worker, &w);
    pthread_mutex_destroy(&w.lock);
    BB_CHECK(st);
    if (w.first_failed < count) return bb_error_set(BOXBFS_ERR_VALIDATION, "%s", w.message);
    return BOXBFS_OK;
}
