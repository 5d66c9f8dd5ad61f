/* The 2D-partitioned engine on the cpu backend (docs/architecture.md, "2D partition"):
 * for every grid from 1x1 to 4x4, on kron:9, a hand-made undirected graph
 * (a path, a star, an isolated pair, isolated vertices) and a directed
 * graph, from several roots, in every direction (top-down, bottom-up, auto)
 * and with every wire format: the trees pass the
 * Graph500 validator and the levels equal the reference BFS; traffic only
 * crosses links within a grid column (expand) or a grid row (fold); no
 * parent gather (every fold carries (vertex, parent) pairs); a level's
 * frontier bytes are expand + fold; the per-link matrix
 * sums to the total; 1x1 sends nothing; the same run twice counts the same;
 * bad grids and options are refused with a message; --exchange nccl on the
 * cpu backend gets the exchange's refusal, none of the 2D engine's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

static int run_grid(boxbfs_graph_t g, int rows, int cols, boxbfs_search_direction_t dir,
                    boxbfs_wire_t wire, int64_t root, int64_t *total_p)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    char what[160];
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int ok = 0, P = rows * cols;
    boxbfs_engine_options_init(&o);
    o.partition = BOXBFS_PARTITION_2D;
    o.direction = dir;
    o.devices = P;
    o.grid_rows = rows;
    o.grid_cols = cols;
    o.wire = wire;
    if (!parent || !level) goto out;
    if (boxbfs_engine_create(g, &o, &e) != BOXBFS_OK) {
        fprintf(stderr, "engine_create %dx%d: %s\n", rows, cols, boxbfs_last_error());
        goto out;
    }
    if (boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
        fprintf(stderr, "engine_run %dx%d: %s\n", rows, cols, boxbfs_last_error());
        goto out;
    }
    snprintf(what, sizeof what, "%s %dx%d %s %s root %lld", boxbfs_graph_name(g), rows, cols,
             boxbfs_search_direction_name(dir), boxbfs_wire_name(wire), (long long)root);
    if (!check_tree_levels(g, root, parent, level, what)) goto out;
    {
        int64_t links = 0, phases = 0, levels = 0, off_grid = 0, frontier = 0;
        for (int s = 0; s < P; s++)
            for (int d = 0; d < P; d++) {
                int64_t b = r->link_bytes[s * P + d];
                links += b;
                /* same grid column: s / rows == d / rows; same grid row: s % rows == d % rows;
                 * termination goes to and from device 0 */
                if (s / rows != d / rows && s % rows != d % rows && s != 0 && d != 0)
                    off_grid += b;
            }
        for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) phases += r->phase_bytes[p];
        for (int l = 0; l < r->nlevels; l++) levels += r->level_reports[l].bytes;
        for (int l = 0; l < r->nlevels; l++) frontier += r->level_reports[l].sent_vertices;
        CHECK(links == r->total_bytes);
        CHECK(phases == r->total_bytes);
        CHECK(levels == r->total_bytes);
        CHECK(r->phase_bytes[BOXBFS_PHASE_PARENTS] == 0);
        CHECK(off_grid == 0);
        CHECK(r->phase_bytes[BOXBFS_PHASE_FRONTIER] == 0);
        CHECK(r->phase_bytes[BOXBFS_PHASE_FRONTIER_BITMAP] == 0);
        /* list wire, top-down: 4 bytes per vertex of the expand, 8 per pair of the fold */
        if (wire == BOXBFS_WIRE_LIST && dir == BOXBFS_SEARCH_TOP_DOWN)
            CHECK(r->phase_bytes[BOXBFS_PHASE_FOLD] % 8 == 0 &&
                  frontier == r->phase_bytes[BOXBFS_PHASE_EXPAND] / 4 +
                                  r->phase_bytes[BOXBFS_PHASE_FOLD] / 8);
        /* bottom-up: the column's frontier goes as bitmaps whatever the wire */
        for (int l = 0; dir == BOXBFS_SEARCH_BOTTOM_UP && rows > 1 && l < r->nlevels; l++)
            CHECK(r->level_reports[l].frontier == 0 || r->level_reports[l].bitmap_messages > 0);
        for (int l = 0; l < r->nlevels; l++)
            CHECK(r->level_reports[l].direction == (int32_t)dir || dir == BOXBFS_SEARCH_AUTO);
        if (rows == 1) CHECK(r->phase_bytes[BOXBFS_PHASE_EXPAND] == 0);
        if (cols == 1) CHECK(r->phase_bytes[BOXBFS_PHASE_FOLD] == 0);
        if (P == 1) CHECK(r->total_bytes == 0);
        *total_p = r->total_bytes;
    }
    {   /* the same search again: the same count */
        const boxbfs_search_report_t *r2;
        int64_t first = *total_p;
        CHECK(boxbfs_engine_run(e, root, parent, level, &r2) == BOXBFS_OK);
        CHECK(r2->total_bytes == first);
    }
    ok = 1;
out:
    boxbfs_engine_free(e);
    free(parent);
    free(level);
    return ok;
}

static void all_grids(boxbfs_graph_t g, const int64_t *roots, int nroots)
{
    static const boxbfs_wire_t wires[] = {BOXBFS_WIRE_LIST, BOXBFS_WIRE_BITMAP, BOXBFS_WIRE_AUTO};
    static const boxbfs_search_direction_t dirs[] = {
        BOXBFS_SEARCH_TOP_DOWN, BOXBFS_SEARCH_BOTTOM_UP, BOXBFS_SEARCH_AUTO};
    for (int rows = 1; rows <= 4; rows++)
        for (int cols = 1; cols <= 4; cols++)
            for (int dd = 0; dd < 3; dd++)
                for (int w = 0; w < 3; w++)
                    for (int i = 0; i < nroots; i++) {
                        int64_t total = 0, list_total = 0;
                        CHECK(run_grid(g, rows, cols, dirs[dd], wires[w], roots[i], &total));
                        if (wires[w] == BOXBFS_WIRE_AUTO) {   /* never more than list */
                            CHECK(run_grid(g, rows, cols, dirs[dd], BOXBFS_WIRE_LIST, roots[i],
                                           &list_total));
                            CHECK(total <= list_total);
                        }
                    }
}

static void refused(boxbfs_graph_t g, int devices, int rows, int cols, boxbfs_status_t want,
                    boxbfs_search_direction_t dir, boxbfs_exchange_t exchange, const char *words)
{
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    boxbfs_engine_options_init(&o);   /* the cpu backend */
    o.partition = BOXBFS_PARTITION_2D;
    o.direction = dir;
    o.exchange = exchange;
    o.devices = devices;
    o.grid_rows = rows;
    o.grid_cols = cols;
    CHECK(boxbfs_engine_create(g, &o, &e) == want);
    CHECK(e == NULL);
    CHECK(strstr(boxbfs_last_error(), words) != NULL);
}

int main(void)
{
    boxbfs_graph_t kron, hand, directed;
    /* 0-1-2-3-4-5 path, star around 6 (7..12), pair 13-14, 15..19 isolated, 5-6 joins */
    int64_t hs[] = {0, 1, 2, 3, 4, 6, 6, 6, 6, 6, 6, 13, 5};
    int64_t hd[] = {1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 14, 6};
    /* a directed cycle with a chord and a tail that cannot come back */
    int64_t ds[] = {0, 1, 2, 3, 4, 5, 2, 7, 8};
    int64_t dd[] = {1, 2, 3, 4, 5, 0, 6, 8, 9};
    int64_t kroots[] = {0, 17, 300}, hroots[] = {0, 9, 13, 16}, droots[] = {0, 3, 7};
    int rows, cols;
    CHECK(boxbfs_graph_load("kron:9", NULL, &kron) == BOXBFS_OK);
    CHECK(boxbfs_graph_from_edges(20, 13, hs, hd, 0, &hand) == BOXBFS_OK);
    CHECK(boxbfs_graph_from_edges(10, 9, ds, dd, 1, &directed) == BOXBFS_OK);
    {   /* kron roots with an edge */
        const int64_t *off = boxbfs_graph_offsets(kron);
        for (int i = 0; i < 3; i++)
            while (off[kroots[i] + 1] == off[kroots[i]]) kroots[i]++;
    }
    all_grids(kron, kroots, 3);
    all_grids(hand, hroots, 4);
    all_grids(directed, droots, 3);

    /* the squarest grid, and grids that do not fit */
    boxbfs_grid_default(16, &rows, &cols);
    CHECK(rows == 4 && cols == 4);
    boxbfs_grid_default(8, &rows, &cols);
    CHECK(rows == 4 && cols == 2);
    boxbfs_grid_default(7, &rows, &cols);
    CHECK(rows == 7 && cols == 1);
    boxbfs_grid_default(2, &rows, &cols);
    CHECK(rows == 2 && cols == 1);
    CHECK(boxbfs_grid_parse("3x5", &rows, &cols) == BOXBFS_OK && rows == 3 && cols == 5);
    CHECK(boxbfs_grid_parse("0x2", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_grid_parse("2x", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_grid_parse("x2", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_grid_parse("2x2x2", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_grid_parse("4096x1", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_grid_parse("abc", &rows, &cols) == BOXBFS_ERR_INVALID_ARG);
    refused(kron, 6, 2, 2, BOXBFS_ERR_INVALID_ARG, BOXBFS_SEARCH_TOP_DOWN, BOXBFS_EXCHANGE_PEER,
            "grid 2x2 has 4");
    refused(kron, 4, 0, 2, BOXBFS_ERR_INVALID_ARG, BOXBFS_SEARCH_TOP_DOWN, BOXBFS_EXCHANGE_PEER,
            "grid 0x2");
    /* --exchange nccl: 2D takes it; on the cpu backend the exchange's own refusal */
#ifdef BB_HAVE_NCCL
    refused(kron, 4, 2, 2, BOXBFS_ERR_UNSUPPORTED, BOXBFS_SEARCH_TOP_DOWN, BOXBFS_EXCHANGE_NCCL,
            "--exchange nccl runs the cuda backend only");
#else
    refused(kron, 4, 2, 2, BOXBFS_ERR_UNSUPPORTED, BOXBFS_SEARCH_TOP_DOWN, BOXBFS_EXCHANGE_NCCL,
            "--exchange nccl is not built in");
#endif
    boxbfs_graph_free(kron);
    boxbfs_graph_free(hand);
    boxbfs_graph_free(directed);
    return check_failures ? 1 : 0;
}
