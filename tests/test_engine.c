/* The level engine on the cpu backend: every contraction x wire x visited
 * layout x device count gives trees that pass the Graph500 validator with
 * levels equal to the reference BFS; traffic counts are deterministic, the
 * link matrix sums to the totals, valid-flag never sends more than
 * sort-unique, wire auto never more than list, host staging counts the same
 * as peer copies, bit-visited uses 1/8 of the byte layout's memory, remote
 * parents kept or recomputed give the same levels and traffic. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

static const int device_counts[] = {1, 2, 3, 4, 7};

typedef struct {
    int64_t total, frontier, links_sum, messages;
    int64_t undone;   /* frontier bytes of levels a loop across devices undid (4 a vertex) */
    int64_t link[64], phase[BOXBFS_PHASE_COUNT], phase_messages[BOXBFS_PHASE_COUNT];
    double modeled_s;
} traffic_t;

static int run_one(boxbfs_graph_t g, const boxbfs_engine_options_t *o, int64_t root,
                   traffic_t *t)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8), *ref_parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4), *ref_level = malloc((size_t)n * 4);
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int ok = 0;
    memset(t, 0, sizeof *t);
    if (boxbfs_engine_create(g, o, &e) != BOXBFS_OK) {
        fprintf(stderr, "engine_create: %s\n", boxbfs_last_error());
        goto out;
    }
    if (boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
        fprintf(stderr, "engine_run: %s\n", boxbfs_last_error());
        goto out;
    }
    if (boxbfs_validate(g, root, parent, level, NULL) != BOXBFS_OK) {
        fprintf(stderr, "%s N=%d %s %s %s root %lld: %s\n", boxbfs_graph_name(g), o->devices,
                boxbfs_contract_name(o->contract), boxbfs_wire_name(o->wire),
                boxbfs_visited_name(o->visited), (long long)root, boxbfs_last_error());
        goto out;
    }
    boxbfs_bfs_reference(g, root, ref_parent, ref_level);
    if (memcmp(level, ref_level, (size_t)n * 4) != 0) {
        fprintf(stderr, "levels differ from the reference\n");
        goto out;
    }
    for (int d = 0; d < o->devices; d++)   /* the parents mode asked for is the one used */
        CHECK(o->parents == BOXBFS_PARENTS_AUTO || boxbfs_engine_parents(e, d) == o->parents);
    t->total = r->total_bytes;
    t->frontier = r->phase_bytes[BOXBFS_PHASE_FRONTIER];
    t->messages = r->total_messages;
    t->modeled_s = r->modeled_exchange_s;
    memcpy(t->phase, r->phase_bytes, sizeof t->phase);
    memcpy(t->phase_messages, r->phase_messages, sizeof t->phase_messages);
    for (int c = 0; c < o->devices * o->devices; c++) {
        t->links_sum += r->link_bytes[c];
        if (c < 64) t->link[c] = r->link_bytes[c];
    }
    {
        int64_t level_sum = 0, phase_sum = 0;
        for (int l = 0; l < r->nlevels; l++) {
            int64_t links = 0;   /* a level's bytes all cross links: the per-link split sums to them */
            for (int c = 0; c < o->devices * o->devices; c++)
                links += r->level_link_bytes[(size_t)l * o->devices * o->devices + c];
            CHECK(links == r->level_reports[l].bytes);
            level_sum += r->level_reports[l].bytes;
            t->undone += 4 * r->level_reports[l].undone_vertices;
            {   /* the devices' parts: frontiers sum to the level's, times peak at its */
                const boxbfs_level_device_t *D = r->level_devices + (size_t)l * o->devices;
                int64_t frontier = 0;
                double expand = 0, exchange = 0;
                for (int d = 0; d < o->devices; d++) {
                    frontier += D[d].frontier;
                    if (D[d].expand_s > expand) expand = D[d].expand_s;
                    if (D[d].exchange_s > exchange) exchange = D[d].exchange_s;
                }
                CHECK(frontier == r->level_reports[l].frontier);
                CHECK(expand == r->level_reports[l].expand_s);
                CHECK(exchange == r->level_reports[l].exchange_s);
            }
        }
        for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) phase_sum += r->phase_bytes[p];
        CHECK(phase_sum == r->total_bytes);
        /* every byte but the parent gather belongs to a level */
        CHECK(level_sum + r->phase_bytes[BOXBFS_PHASE_PARENTS] == r->total_bytes);
        CHECK(r->levels == r->nlevels);
        if (o->devices == 1) CHECK(r->total_bytes == 0);
    }
    ok = 1;
out:
    boxbfs_engine_free(e);
    free(parent); free(ref_parent); free(level); free(ref_level);
    return ok;
}

static void sweep(boxbfs_graph_t g, const int64_t *roots, int nroots)
{
    for (size_t di = 0; di < sizeof device_counts / sizeof device_counts[0]; di++) {
        for (int ri = 0; ri < nroots; ri++) {
            traffic_t t[3][3][2];   /* contract x wire x visited */
            for (int c = 0; c < 3; c++)
                for (int w = 0; w < 3; w++)
                    for (int v = 0; v < 2; v++) {
                        boxbfs_engine_options_t o;
                        boxbfs_engine_options_init(&o);
                        o.devices = device_counts[di];
                        o.contract = (boxbfs_contract_t)c;
                        o.wire = (boxbfs_wire_t)w;
                        o.visited = (boxbfs_visited_t)v;
                        o.search_on = BOXBFS_SEARCH_ON_HOST;   /* host levels' books
                                                                * (test_direction: peers) */
                        CHECK(run_one(g, &o, roots[ri], &t[c][w][v]));
                        CHECK(t[c][w][v].links_sum == t[c][w][v].total);
                    }
            for (int w = 0; w < 3; w++) {
                /* visited layout never changes what is sent */
                for (int c = 0; c < 3; c++) CHECK(t[c][w][0].total == t[c][w][1].total);
                /* GPU-BOX: never more than the baseline (but for the lists of a
                 * level the loop across devices undid); atomic sends the same set */
                CHECK(t[1][w][0].frontier - t[1][w][0].undone <= t[0][w][0].frontier);
                CHECK(t[2][w][0].total == t[1][w][0].total);
            }
            for (int c = 0; c < 3; c++)
                CHECK(t[c][2][0].frontier - t[c][2][0].undone <= t[c][0][0].frontier - t[c][0][0].undone);
        }
    }
}

/* The remote parents kept or recomputed after the search (docs/cli.md, "Memory
 * plan"): validated trees with the reference's levels (run_one) and the same
 * traffic (bytes and messages per link and phase, modeled time), for every
 * contraction, wire, direction and 1-5 devices (more with devs_hi). */
static void parents_modes(boxbfs_graph_t g, int64_t root, int devs_lo, int devs_hi,
                          boxbfs_visited_t visited)
{
    for (int p = devs_lo; p <= devs_hi; p++)
        for (int c = 0; c < 3; c++)
            for (int w = 0; w < 3; w++)
                for (int dir = 0; dir < 2; dir++) {
                    traffic_t keep, recompute;
                    boxbfs_engine_options_t o;
                    boxbfs_engine_options_init(&o);
                    o.devices = p;
                    o.contract = (boxbfs_contract_t)c;
                    o.wire = (boxbfs_wire_t)w;
                    o.visited = visited;
                    o.direction = dir ? BOXBFS_SEARCH_TOP_DOWN : BOXBFS_SEARCH_AUTO;
                    o.search_on = BOXBFS_SEARCH_ON_HOST;   /* the search across devices
                                                            * delivers the parents */
                    o.parents = BOXBFS_PARENTS_KEEP;
                    CHECK(run_one(g, &o, root, &keep));
                    o.parents = BOXBFS_PARENTS_RECOMPUTE;
                    CHECK(run_one(g, &o, root, &recompute));
                    CHECK(memcmp(&keep, &recompute, sizeof keep) == 0);
                }
}

static void determinism_and_staging(boxbfs_graph_t g, int64_t root)
{
    boxbfs_engine_options_t o;
    traffic_t a, b, h;
    boxbfs_engine_options_init(&o);
    o.devices = 4;
    o.contract = BOXBFS_CONTRACT_SORT_UNIQUE;
    o.wire = BOXBFS_WIRE_AUTO;
    CHECK(run_one(g, &o, root, &a));
    CHECK(run_one(g, &o, root, &b));
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    o.exchange = BOXBFS_EXCHANGE_HOST;
    CHECK(run_one(g, &o, root, &h));
    CHECK(memcmp(&a, &h, sizeof a) == 0);
}

static void memory_and_errors(boxbfs_graph_t g)
{
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    size_t vb_byte = 0, vb_bit = 0;
    boxbfs_engine_options_init(&o);
    o.devices = 2;
    o.visited = BOXBFS_VISITED_BYTE;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    boxbfs_engine_memory_bytes(e, 0, &vb_byte);
    CHECK(boxbfs_engine_run(e, -1, NULL, NULL, NULL) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "root -1 out of range") != NULL);
    CHECK(boxbfs_engine_run(e, boxbfs_graph_vertices(g), NULL, NULL, NULL) == BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_free(e);
    o.visited = BOXBFS_VISITED_BIT;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    boxbfs_engine_memory_bytes(e, 0, &vb_bit);
    boxbfs_engine_free(e);
    fprintf(stderr, "visited bytes: byte layout %zu, bit layout %zu\n", vb_byte, vb_bit);
    CHECK(vb_byte > 0 && vb_bit * 8 >= vb_byte && vb_bit * 8 <= vb_byte + 32);
    o.devices = 0;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    o.devices = 2;
    o.expand_edges_per_thread = 3;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "edges per thread 3") != NULL);
    o.expand_edges_per_thread = 32;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    o.expand_edges_per_thread = 4;
    o.expand_f0 = 0;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    o.expand_f0 = 10;
    o.devices = 2;
    o.device_memory_limit = 1000;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_DEVICE_MEMORY);
    CHECK(strstr(boxbfs_last_error(), "short by") != NULL);
    o.device_memory_limit = 0;
    o.backend = BOXBFS_BACKEND_CUDA;
    if (boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA) == 0) {
        boxbfs_status_t st = boxbfs_engine_create(g, &o, &e);
        CHECK(st == BOXBFS_ERR_UNSUPPORTED || st == BOXBFS_ERR_NO_DEVICE);
    }
}

/* 0-1-2-3 path, 4-5 edge, 6 isolated, 7-8-9 triangle with a tail 9-3 */
static boxbfs_graph_t hand_graph(void)
{
    static const int64_t src[] = {0, 1, 2, 4, 7, 8, 9, 9};
    static const int64_t dst[] = {1, 2, 3, 5, 8, 9, 7, 3};
    boxbfs_graph_t g = NULL;
    CHECK_OK(boxbfs_graph_from_edges(10, 8, src, dst, 0, &g));
    return g;
}

static void dataset(const char *dir, const char *file, boxbfs_direction_t direction,
                    int64_t root_external)
{
    char path[4096];
    boxbfs_graph_t g = NULL;
    boxbfs_load_options_t lo = {direction, 0, 0};
    int64_t root;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (boxbfs_graph_load(path, &lo, &g) != BOXBFS_OK) {
        fprintf(stderr, "%s: %s\n", path, boxbfs_last_error());
        CHECK(0);
        return;
    }
    CHECK_OK(boxbfs_graph_internal_id(g, root_external, &root));
    sweep(g, &root, 1);
    boxbfs_graph_free(g);
}

int main(void)
{
    boxbfs_graph_t g = NULL;
    const char *datasets = getenv("SHARED_DATASETS");
    int64_t roots[3];

    g = hand_graph();
    roots[0] = 0; roots[1] = 6; roots[2] = 8;
    sweep(g, roots, 3);
    parents_modes(g, 8, 1, 5, BOXBFS_VISITED_BYTE);
    boxbfs_graph_free(g);

    CHECK_OK(boxbfs_graph_load("kron:10", NULL, &g));
    roots[0] = 1; roots[1] = 100;
    for (int i = 0; i < 2; i++)
        while (boxbfs_graph_offsets(g)[roots[i] + 1] == boxbfs_graph_offsets(g)[roots[i]]) roots[i]++;
    sweep(g, roots, 2);
    parents_modes(g, roots[0], 1, 5, BOXBFS_VISITED_BYTE);
    determinism_and_staging(g, roots[0]);
    memory_and_errors(g);
    boxbfs_graph_free(g);

    /* 8 devices, bit visited: the parent gather's requests take several rounds */
    CHECK_OK(boxbfs_graph_load("kron:14", NULL, &g));
    parents_modes(g, 1, 8, 8, BOXBFS_VISITED_BIT);
    boxbfs_graph_free(g);

    if (datasets && *datasets) {
        char probe[4096];
        FILE *f;
        snprintf(probe, sizeof probe, "%s/chesapeake.mtx.gz", datasets);
        if ((f = fopen(probe, "r")) != NULL) {
            fclose(f);
            dataset(datasets, "chesapeake.mtx.gz", BOXBFS_DIRECTION_DEFAULT, 1);
            dataset(datasets, "delaunay_n10.mtx.gz", BOXBFS_DIRECTION_DEFAULT, 561);
            dataset(datasets, "wiki-Vote.txt.gz", BOXBFS_DIRECTION_DIRECTED, 30);
            dataset(datasets, "facebook_combined.txt.gz", BOXBFS_DIRECTION_DEFAULT, 107);
        } else {
            fprintf(stderr, "note: %s absent, real graphs skipped\n", probe);
        }
    }
    CHECK_DONE();
}
