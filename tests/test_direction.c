/* Direction-optimizing BFS on the cpu backend: for --direction top-down,
 * bottom-up and auto, on 1-5 devices and every contraction, undirected and
 * directed Kronecker graphs and a hand graph give trees that pass the
 * validator with the reference levels; each level's direction is the one
 * asked for (auto: Beamer's switch, bottom-up in the middle of a kron search,
 * top-down at its ends; the rule's stay in bottom-up on its own); bottom-up levels send exactly every other device's
 * part of the frontier bitmap and nothing else; auto is deterministic. Also
 * the depth limit (validated, equal to the reference cut at K), the reversed
 * graph (the reference on the transpose), the one-device loop of small
 * levels (the same rows as the host's levels), and bad options. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "kernels/kernels.h"

typedef struct {
    int nlevels, td, bu;
    int64_t total, bitmap, frontier;
} summary_t;

/* Run one search and check it against the reference levels (cut at the
 * engine's depth limit); summary of its levels in *s. */
static int run_one(boxbfs_graph_t g, const boxbfs_engine_options_t *o, int64_t root, summary_t *s)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8), *ref_parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4), *ref_level = malloc((size_t)n * 4);
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r;
    int ok = 0, peers;
    memset(s, 0, sizeof *s);
    if (!parent || !ref_parent || !level || !ref_level) goto out;
    if (boxbfs_engine_create(g, o, &e) != BOXBFS_OK || boxbfs_engine_run(e, root, parent, level, &r) != BOXBFS_OK) {
        fprintf(stderr, "engine: %s\n", boxbfs_last_error());
        goto out;
    }
    if (boxbfs_validate_depth(g, root, parent, level, o->max_depth, NULL) != BOXBFS_OK) {
        fprintf(stderr, "%s N=%d %s %s root %lld: %s\n", boxbfs_graph_name(g), o->devices,
                boxbfs_search_direction_name(o->direction), boxbfs_contract_name(o->contract),
                (long long)root, boxbfs_last_error());
        goto out;
    }
    boxbfs_bfs_reference(g, root, ref_parent, ref_level);
    for (int64_t v = 0; v < n; v++)
        if (o->max_depth >= 0 && ref_level[v] > o->max_depth) ref_level[v] = -1;
    if (memcmp(level, ref_level, (size_t)n * 4) != 0) {
        fprintf(stderr, "%s N=%d %s: levels differ from the reference\n", boxbfs_graph_name(g),
                o->devices, boxbfs_search_direction_name(o->direction));
        goto out;
    }
    peers = o->devices > 1 && boxbfs_engine_device_search(e);
    if (peers) CHECK(strcmp(boxbfs_engine_strategy(e), "device search across devices") == 0);
    s->nlevels = r->nlevels;
    s->total = r->total_bytes;
    s->bitmap = r->phase_bytes[BOXBFS_PHASE_FRONTIER_BITMAP];
    s->frontier = r->phase_bytes[BOXBFS_PHASE_FRONTIER];
    for (int l = 0; l < r->nlevels; l++) {
        const boxbfs_level_report_t *L = &r->level_reports[l];
        int64_t bitmap = 0;
        const int64_t *links = r->level_link_bytes + (size_t)l * o->devices * o->devices;
        s->td += L->direction == BOXBFS_SEARCH_TOP_DOWN;
        s->bu += L->direction == BOXBFS_SEARCH_BOTTOM_UP;
        CHECK(L->direction == BOXBFS_SEARCH_TOP_DOWN || L->direction == BOXBFS_SEARCH_BOTTOM_UP);
        if (o->direction != BOXBFS_SEARCH_AUTO) CHECK(L->direction == (int)o->direction);
        /* (with --max-depth 0 the root's row is never run) */
        if (L->direction != BOXBFS_SEARCH_BOTTOM_UP || o->max_depth == 0) continue;
        for (int c = 0; c < o->devices * o->devices; c++) bitmap += links[c];
        CHECK(bitmap == L->bytes);
        CHECK(L->sent_vertices == L->undone_vertices);   /* a loop before undid this level */
        if (peers) {
            /* the search across devices: every device stores its part of the
             * next frontier into every other one's bitmap, and before that
             * its part of this one where a top-down level left a list (then
             * they meet once more, 8 bytes a link); the meeting at the
             * level's end: 24 bytes a link */
            int pack = l == 0 || r->level_reports[l - 1].direction != BOXBFS_SEARCH_BOTTOM_UP;
            int64_t pairs = (int64_t)o->devices * (o->devices - 1);
            CHECK(L->bitmap_messages == pairs * (1 + pack));
            CHECK(L->bytes == (o->devices - 1) * (1 + pack) * (((n + 31) / 32) * 4) +
                                  pairs * (24 + (pack ? 8 : 0)) + 8 * L->undone_vertices);
            continue;
        }
        /* a bottom-up level: every device's bitmap part to every other one,
         * and the reduce of the next frontier's size (with its arcs for auto);
         * the parts are whole words of the aligned ranges: n / 32 in all */
        CHECK(L->bitmap_messages == 0);
        CHECK(L->bytes == (o->devices - 1) * (((n + 31) / 32) * 4 +
                                              2 * (o->direction == BOXBFS_SEARCH_AUTO ? 16 : 8)) +
                              4 * L->undone_vertices);
    }
    if (o->devices == 1) CHECK(s->total == 0);
    if (o->direction == BOXBFS_SEARCH_TOP_DOWN) CHECK(s->bitmap == 0);
    ok = 1;
out:
    boxbfs_engine_free(e);
    free(parent); free(ref_parent); free(level); free(ref_level);
    return ok;
}

/* Every direction x device count x contraction; auto twice (deterministic). */
static void sweep(boxbfs_graph_t g, int64_t root, int expect_switch)
{
    for (int ndev = 1; ndev <= 5; ndev++)
        for (int c = 0; c < 3; c++) {
            summary_t s[3], again;
            for (int dir = 0; dir < 3; dir++) {
                boxbfs_engine_options_t o;
                boxbfs_engine_options_init(&o);
                o.devices = ndev;
                o.contract = (boxbfs_contract_t)c;
                o.visited = (boxbfs_visited_t)((ndev + c) % 2);
                o.wire = (boxbfs_wire_t)(ndev % 3);
                o.direction = (boxbfs_search_direction_t)dir;
                CHECK(run_one(g, &o, root, &s[dir]));
                if (dir == BOXBFS_SEARCH_AUTO) {
                    CHECK(run_one(g, &o, root, &again));
                    CHECK(memcmp(&s[dir], &again, sizeof again) == 0);
                }
            }
            /* every direction takes the same number of levels */
            CHECK(s[0].nlevels == s[1].nlevels && s[1].nlevels == s[2].nlevels);
            CHECK(s[BOXBFS_SEARCH_BOTTOM_UP].td == 0);
            if (ndev > 1) CHECK(s[BOXBFS_SEARCH_BOTTOM_UP].bitmap > 0);
            if (expect_switch) {   /* kron: top-down first and last, bottom-up between */
                CHECK(s[BOXBFS_SEARCH_AUTO].bu > 0 && s[BOXBFS_SEARCH_AUTO].td >= 2);
                if (ndev > 1) CHECK(s[BOXBFS_SEARCH_AUTO].frontier < s[BOXBFS_SEARCH_TOP_DOWN].frontier);
            }
        }
}

/* A loop level across devices: each device's time splits into expand, the
 * first meeting (exchange) and the rest (update), and the level's phases
 * and time are the busiest device's. */
static void loop_phases(const boxbfs_search_report_t *r, int l, int ndev)
{
    const boxbfs_level_report_t *L = &r->level_reports[l];
    double busiest = 0, x = 0, m = 0, u = 0;
    for (int d = 0; d < ndev; d++) {
        const boxbfs_level_device_t *D = &r->level_devices[(size_t)l * ndev + d];
        double t = D->expand_s + D->exchange_s + D->update_s;
        CHECK(D->expand_s > 0 && D->exchange_s >= 0 && D->update_s >= 0 && D->contract_s == 0);
        if (t > busiest) busiest = t;
        if (D->expand_s > x) x = D->expand_s;
        if (D->exchange_s > m) m = D->exchange_s;
        if (D->update_s > u) u = D->update_s;
    }
    CHECK(fabs(L->time_s - busiest) <= 1e-8 && L->expand_s == x && L->exchange_s == m &&
          L->update_s == u);
}

/* The device loop (levels of at most device_loop_arcs arcs without the
 * host) gives the rows of the host's levels, flagged, and on several devices
 * (the loop across devices, every device thread at once) the same bytes on
 * every link, but for the lists of a level the loop undid (4 bytes a
 * vertex, booked as undone_vertices at that level), and a valid tree; on
 * one device auto keeps every level of at most BB_TOP_DOWN_ARCS arcs
 * top-down. */
static void device_loop(boxbfs_graph_t g, int64_t root, int ndev, boxbfs_contract_t contract,
                        boxbfs_wire_t wire)
{
    static const int64_t limits[] = {0, 1, 64, 4096, INT64_MAX};
    const size_t nlimits = sizeof limits / sizeof limits[0];
    const boxbfs_search_report_t *r;
    boxbfs_level_report_t base[64];
    int64_t base_bytes = 0, base_messages = 0, base_links[64], n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    int nbase = 0;
    CHECK(parent && level && ndev * ndev <= 64);
    if (!parent || !level) goto out;
    for (int dir = 0; dir < 3; dir++)
        for (int depth = -1; depth <= 3; depth += 4)
            for (size_t i = 0; i < nlimits; i++) {
                boxbfs_engine_options_t o;
                boxbfs_engine_t e = NULL;
                int loop_levels = 0;
                boxbfs_engine_options_init(&o);
                o.devices = ndev;
                o.contract = contract;
                o.wire = wire;
                o.direction = (boxbfs_search_direction_t)dir;
                o.device_loop_arcs = limits[i];
                o.max_depth = depth;
                o.search_on = BOXBFS_SEARCH_ON_HOST;   /* the host's loop; peers: peer_search */
                CHECK_OK(boxbfs_engine_create(g, &o, &e));
                if (e == NULL) continue;
                CHECK_OK(boxbfs_engine_run(e, root, parent, level, &r));
                CHECK_OK(boxbfs_validate_depth(g, root, parent, level, depth, NULL));
                CHECK(r->nlevels <= 64);
                if (i == 0 && r->nlevels <= 64) {   /* no loop: the rows and bytes to match */
                    memcpy(base, r->level_reports, (size_t)r->nlevels * sizeof *base);
                    nbase = r->nlevels;
                    base_bytes = r->total_bytes;
                    base_messages = r->total_messages;
                    memcpy(base_links, r->link_bytes, (size_t)ndev * ndev * sizeof *base_links);
                }
                int64_t undone = 0, more = 0;
                for (int l = 0; l < r->nlevels; l++) undone += r->level_reports[l].undone_vertices;
                for (int c = 0; c < ndev * ndev; c++) {
                    CHECK(r->link_bytes[c] >= base_links[c]);
                    more += r->link_bytes[c] - base_links[c];
                }
                CHECK(r->nlevels == nbase && r->total_bytes == base_bytes + 4 * undone &&
                      more == 4 * undone && r->total_messages >= base_messages &&
                      (undone > 0 || r->total_messages == base_messages));
                for (int l = 0; l < nbase && l < r->nlevels; l++) {
                    const boxbfs_level_report_t *L = &r->level_reports[l];
                    CHECK(L->frontier == base[l].frontier && L->direction == base[l].direction &&
                          L->frontier_arcs == base[l].frontier_arcs &&
                          L->unexplored_arcs == base[l].unexplored_arcs &&
                          L->sent_vertices - L->undone_vertices == base[l].sent_vertices &&
                          L->modeled_exchange_s == base[l].modeled_exchange_s);
                    /* only the level a loop stopped at */
                    CHECK(L->undone_vertices == 0 || (l > 0 && !L->device_loop &&
                                                      r->level_reports[l - 1].device_loop));
                    if (ndev == 1 && dir == BOXBFS_SEARCH_AUTO && L->frontier_arcs <= BB_TOP_DOWN_ARCS)
                        CHECK(L->direction == BOXBFS_SEARCH_TOP_DOWN);
                    if (L->device_loop) {
                        loop_levels++;
                        CHECK(L->direction == BOXBFS_SEARCH_TOP_DOWN &&
                              L->frontier_arcs <= limits[i]);
                        if (ndev > 1) loop_phases(r, l, ndev);
                    }
                }
                if (i == 0 || dir == BOXBFS_SEARCH_BOTTOM_UP) CHECK(loop_levels == 0);
                /* --wire auto: across devices only where no list can outgrow a bitmap */
                if (i == nlimits - 1 && dir != BOXBFS_SEARCH_BOTTOM_UP &&
                    (ndev == 1 || wire == BOXBFS_WIRE_LIST))
                    CHECK(loop_levels > 0);
                boxbfs_engine_free(e);
            }
out:
    free(parent);
    free(level);
}

/* One validated search of these options: its level rows (at most 64), the
 * bytes of each phase and the strategy; 0 where it failed. */
typedef struct {
    int nlevels, on_device;
    boxbfs_level_report_t levels[64];
    int64_t phase[BOXBFS_PHASE_COUNT], messages;
} books_t;

static int books_of(boxbfs_graph_t g, const boxbfs_engine_options_t *o, int64_t root, books_t *b)
{
    int64_t n = boxbfs_graph_vertices(g);
    int64_t *parent = malloc((size_t)n * 8);
    int32_t *level = malloc((size_t)n * 4);
    boxbfs_engine_t e = NULL;
    const boxbfs_search_report_t *r = NULL;
    int ok = parent && level && boxbfs_engine_create(g, o, &e) == BOXBFS_OK &&
             boxbfs_engine_run(e, root, parent, level, &r) == BOXBFS_OK &&
             boxbfs_validate_depth(g, root, parent, level, o->max_depth, NULL) == BOXBFS_OK &&
             r->nlevels <= 64;
    if (!ok) fprintf(stderr, "books_of: %s\n", boxbfs_last_error());
    memset(b, 0, sizeof *b);
    if (ok) {
        b->nlevels = r->nlevels;
        b->on_device = boxbfs_engine_device_search(e);
        memcpy(b->levels, r->level_reports, (size_t)r->nlevels * sizeof *b->levels);
        memcpy(b->phase, r->phase_bytes, sizeof b->phase);
        b->messages = r->total_messages;
    }
    boxbfs_engine_free(e);
    free(parent);
    free(level);
    return ok;
}

/* The search across devices (docs/architecture.md "Where a search runs":
 * every device at once, meeting in each other's memory) against the
 * host-driven levels of the same options: the same rows (frontier,
 * direction, arcs) and the same vertices sent but for those of levels a
 * loop undid, each with its parent (8 bytes, nothing gathered after the
 * search); per level the meetings' bytes (a top-down level: 16 + 24 a link;
 * a loop level 32, and 32 more on the last level of a loop, the meeting at
 * which it stopped; a bottom-up one 24, and 8 more where it packed its
 * frontier) and the bitmap parts; a top-down level of at least n arcs
 * also each device's part of visited between two meetings
 * (8 bytes a link each); from there on the levels send at most what the
 * host-driven levels sent (a device knows what the others visited:
 * kernels.h bb_peers_share_visited); the same books twice. With the hubs'
 * rows split (--hub-degree 8; kernels.h bb_peers_split_hubs) a top-down
 * level of at least 8 arcs also has a meeting (8 bytes a link, unless it
 * shares visited) and the hub levels that changed (the hubs phase, 4 bytes
 * each to every other device); its levels may send vertices the others
 * found through a hub's row (the split level sends none of them), less in
 * all. The bytes of visited shared; the bytes of the hub levels
 * added to hub_p[0], the vertices sent without and with split hubs to
 * hub_p[1] and hub_p[2]. */
static int64_t peer_search(boxbfs_graph_t g, int64_t root, int ndev, int64_t *hub_p)
{
    int64_t shared_all = 0;
    static const int64_t limits[] = {1, 64, 4096, INT64_MAX};
    const int64_t pairs = (int64_t)ndev * (ndev - 1), words = (boxbfs_graph_vertices(g) + 31) / 32;
    for (int hub = 0; hub < 2; hub++)
    for (int dir = 0; dir < 3; dir++)
        for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
            boxbfs_engine_options_t o;
            books_t host, dev, again;
            int64_t sent = 0, visited = 0, hub_bytes = 0;
            int shared_before = 0;
            boxbfs_engine_options_init(&o);
            o.hub_degree = hub ? 8 : 0;
            o.devices = ndev;
            o.contract = BOXBFS_CONTRACT_ATOMIC;
            o.visited = (boxbfs_visited_t)(i % 2);
            o.wire = i % 2 ? BOXBFS_WIRE_LIST : BOXBFS_WIRE_AUTO;
            o.direction = (boxbfs_search_direction_t)dir;
            o.device_loop_arcs = limits[i];
            o.search_on = BOXBFS_SEARCH_ON_HOST;
            CHECK(books_of(g, &o, root, &host) && !host.on_device);
            o.search_on = BOXBFS_SEARCH_ON_DEVICE;
            CHECK(books_of(g, &o, root, &dev) && dev.on_device);
            CHECK(books_of(g, &o, root, &again));
            CHECK(memcmp(dev.phase, again.phase, sizeof dev.phase) == 0 &&
                  dev.messages == again.messages);
            CHECK(dev.nlevels == host.nlevels);
            for (int l = 0; l < dev.nlevels && l < host.nlevels; l++) {
                const boxbfs_level_report_t *D = &dev.levels[l], *H = &host.levels[l];
                int bu = D->direction == BOXBFS_SEARCH_BOTTOM_UP;
                int pack = bu && (l == 0 || dev.levels[l - 1].direction != BOXBFS_SEARCH_BOTTOM_UP);
                int end = D->device_loop &&
                          (l + 1 == dev.nlevels || !dev.levels[l + 1].device_loop);
                int share = !bu && !D->device_loop && D->frontier_arcs >= boxbfs_graph_vertices(g);
                int split = hub && !bu && !D->device_loop && D->frontier_arcs >= 8;
                int64_t shared = share ? (ndev - 1) * (o.visited == BOXBFS_VISITED_BIT
                                                           ? words * 4
                                                           : boxbfs_graph_vertices(g))
                                       : 0;
                int64_t extra = D->bytes - (8 * D->sent_vertices + shared +
                                            (bu ? (ndev - 1) * (1 + pack) * words * 4 +
                                                      pairs * (24 + (pack ? 8 : 0))
                                                : pairs * (D->device_loop ? 32 + (end ? 32 : 0)
                                                                          : 16 + 24 +
                                                                                (share ? 16 : 0))));
                CHECK(D->frontier == H->frontier && D->direction == H->direction &&
                      D->frontier_arcs == H->frontier_arcs &&
                      D->unexplored_arcs == H->unexplored_arcs);
                shared_before |= share;
                CHECK(hub || (shared_before ? D->sent_vertices - D->undone_vertices <=
                                                  H->sent_vertices - H->undone_vertices
                                            : D->sent_vertices - D->undone_vertices ==
                                                  H->sent_vertices - H->undone_vertices));
                if (split && !share) extra -= 8 * pairs;   /* the meeting after the hubs' levels */
                CHECK(extra >= 0 && extra % (4 * (ndev - 1)) == 0 && (split || extra == 0));
                sent += D->sent_vertices;
                visited += shared;
                hub_bytes += extra;
            }
            CHECK(dev.phase[BOXBFS_PHASE_FRONTIER] == 8 * sent);
            CHECK(dev.phase[BOXBFS_PHASE_VISITED] == visited);
            CHECK(dev.phase[BOXBFS_PHASE_HUBS] == hub_bytes && host.phase[BOXBFS_PHASE_HUBS] == 0);
            hub_p[0] += hub_bytes;
            hub_p[1 + hub] += sent;
            CHECK(host.phase[BOXBFS_PHASE_VISITED] == 0);
            CHECK(dev.phase[BOXBFS_PHASE_PARENTS] == 0);
            shared_all += visited;
        }
    return shared_all;
}

static void depth_limit(boxbfs_graph_t g, int64_t root)
{
    for (int k = 0; k <= 4; k++)
        for (int dir = 0; dir < 3; dir++) {
            boxbfs_engine_options_t o;
            summary_t s;
            boxbfs_engine_options_init(&o);
            o.devices = 3;
            o.max_depth = k;
            o.direction = (boxbfs_search_direction_t)dir;
            CHECK(run_one(g, &o, root, &s));
            CHECK(s.nlevels == (k == 0 ? 1 : k));
        }
    {   /* a tree deeper than the limit fails R7 */
        int64_t n = boxbfs_graph_vertices(g);
        int64_t *parent = malloc((size_t)n * 8);
        int32_t *level = malloc((size_t)n * 4);
        CHECK(parent && level);
        if (parent && level) {
            CHECK_OK(boxbfs_bfs_reference(g, root, parent, level));
            CHECK(boxbfs_validate_depth(g, root, parent, level, 1, NULL) == BOXBFS_ERR_VALIDATION);
            CHECK(strstr(boxbfs_last_error(), "R7") != NULL);
            CHECK_OK(boxbfs_validate_depth(g, root, parent, level, -1, NULL));
        }
        free(parent);
        free(level);
    }
}

/* The reversed directed graph: every arc turned around, searched in every
 * direction against the reference on the reversed graph. */
static void reverse(boxbfs_graph_t g, int64_t root)
{
    boxbfs_graph_t r = NULL, rr = NULL;
    CHECK_OK(boxbfs_graph_reverse(g, &r));
    if (r == NULL) return;
    CHECK(boxbfs_graph_arcs(r) == boxbfs_graph_arcs(g));
    CHECK(boxbfs_graph_is_directed(r));
    CHECK_OK(boxbfs_graph_reverse(r, &rr));   /* twice: the original arcs */
    if (rr) {
        int64_t n = boxbfs_graph_vertices(g);
        CHECK(memcmp(boxbfs_graph_offsets(rr), boxbfs_graph_offsets(g), (size_t)(n + 1) * 8) == 0);
        CHECK(memcmp(boxbfs_graph_columns(rr), boxbfs_graph_columns(g),
                     (size_t)boxbfs_graph_arcs(g) * 8) == 0);
    }
    for (int dir = 0; dir < 3; dir++) {
        boxbfs_engine_options_t o;
        summary_t s;
        boxbfs_engine_options_init(&o);
        o.devices = 2;
        o.direction = (boxbfs_search_direction_t)dir;
        CHECK(run_one(r, &o, root, &s));
    }
    CHECK(boxbfs_graph_reverse(NULL, &r) == BOXBFS_ERR_INVALID_ARG);
    boxbfs_graph_free(rr);
    boxbfs_graph_free(r);
}

/* alpha 0, the default: the engine's own figure, 40 on one device and 15
 * on several (every backend); a given alpha stays, and the levels follow it
 * (kron:12 from vertex 1 turns bottom-up with 40, not with 1) */
static void auto_alpha(boxbfs_graph_t g, int64_t root)
{
    static const double given[] = {0, 0, 15, 1};
    static const double runs[] = {40, 15, 15, 1};
    static const int devices[] = {1, 2, 1, 1};
    int bu[4];
    CHECK(boxbfs_engine_alpha(NULL) == 0);
    for (int i = 0; i < 4; i++) {
        boxbfs_engine_options_t o;
        boxbfs_engine_t e = NULL;
        summary_t s;
        boxbfs_engine_options_init(&o);
        o.alpha = given[i];
        o.devices = devices[i];
        CHECK_OK(boxbfs_engine_create(g, &o, &e));
        CHECK(boxbfs_engine_alpha(e) == runs[i]);
        boxbfs_engine_free(e);
        CHECK(run_one(g, &o, root, &s));
        bu[i] = s.bu;
    }
    CHECK(bu[0] > 0 && bu[3] == 0);   /* alpha 1: no level turns bottom-up */
}

static void bad_options(boxbfs_graph_t g)
{
    boxbfs_engine_options_t o;
    boxbfs_engine_t e = NULL;
    boxbfs_engine_options_init(&o);
    CHECK(o.direction == BOXBFS_SEARCH_AUTO && o.alpha == 0 && o.beta == 18 && o.max_depth < 0);
    o.alpha = -1;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "alpha") != NULL);
    o.alpha = NAN;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    o.alpha = 15;
    o.beta = INFINITY;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    o.beta = 18;
    o.direction = (boxbfs_search_direction_t)7;
    CHECK(boxbfs_engine_create(g, &o, &e) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "direction 7") != NULL);
    CHECK(e == NULL);
    CHECK(strcmp(boxbfs_search_direction_name(BOXBFS_SEARCH_BOTTOM_UP), "bottom-up") == 0);
    CHECK(strcmp(boxbfs_phase_name(BOXBFS_PHASE_FRONTIER_BITMAP), "frontier_bitmap") == 0);
}

/* The rule after a bottom-up level (kernels.h bb_choose_direction): Beamer's
 * (a growing frontier, or more than n / beta vertices) stays bottom-up; a
 * shrinking one stays while its arcs, more than BB_TOP_DOWN_ARCS, times
 * alpha exceed the unexplored arcs plus bu_scan (kron:24's level 5: 465 K
 * vertices, 523 K arcs, 530 K unexplored of n = 2^24). */
static void rule_after_bottom_up(void)
{
    const uint64_t n = 1u << 24;
    bb_dir_rule_t r = {1, BOXBFS_SEARCH_AUTO, 1, 15, 18, n, n / 256};
    bb_loop_walk_t w = {5, 0, 465330, 523317, 7558864, 530458};
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_BOTTOM_UP);
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_TOP_DOWN) == BOXBFS_SEARCH_TOP_DOWN);
    r.bu_scan = n;   /* a bottom-up level that reads every vertex's offsets */
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_TOP_DOWN);
    r.bu_scan = n / 256;
    w.count = 1501, w.arcs = 1509, w.prev = 465330, w.unexplored = 7141;   /* its level 6 */
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_TOP_DOWN);
    w.arcs = BB_TOP_DOWN_ARCS + 1, w.unexplored = 0, r.one_device = 0;   /* past the floor */
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_BOTTOM_UP);
    w.arcs = BB_TOP_DOWN_ARCS;
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_TOP_DOWN);
    w.count = w.prev;   /* not shrinking: Beamer's */
    CHECK(bb_choose_direction(&r, &w, BOXBFS_SEARCH_BOTTOM_UP) == BOXBFS_SEARCH_BOTTOM_UP);
}

/* A path, a star and isolated vertices (one the root of an empty search). */
static boxbfs_graph_t hand_graph(int directed)
{
    static const int64_t src[] = {0, 1, 2, 3, 4, 6, 6, 6, 6, 11, 12, 13, 14, 11, 1, 9, 40, 41};
    static const int64_t dst[] = {1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 11, 13, 0, 22, 41, 70};
    boxbfs_graph_t g = NULL;
    CHECK_OK(boxbfs_graph_from_edges(72, (int64_t)(sizeof src / sizeof src[0]), src, dst,
                                     directed, &g));
    return g;
}

int main(void)
{
    boxbfs_graph_t kron = NULL, dkron = NULL, hand = hand_graph(0), dhand = hand_graph(1);
    boxbfs_load_options_t lo = {BOXBFS_DIRECTION_DIRECTED, 0, 0};
    CHECK_OK(boxbfs_graph_load("kron:12", NULL, &kron));
    CHECK_OK(boxbfs_graph_load("kron:11", &lo, &dkron));
    if (!kron || !dkron || !hand || !dhand) CHECK_DONE();
    rule_after_bottom_up();
    sweep(kron, 1, 1);
    sweep(dkron, 3, 0);
    sweep(hand, 0, 0);
    sweep(hand, 71, 0);   /* isolated root: one level */
    sweep(dhand, 6, 0);
    for (int ndev = 1; ndev <= 4; ndev++) {
        device_loop(kron, 1, ndev, BOXBFS_CONTRACT_VALID_FLAG, BOXBFS_WIRE_LIST);
        device_loop(dkron, 3, ndev, BOXBFS_CONTRACT_VALID_FLAG, BOXBFS_WIRE_LIST);
        device_loop(hand, 0, ndev, BOXBFS_CONTRACT_VALID_FLAG, BOXBFS_WIRE_LIST);
    }
    device_loop(kron, 1, 3, BOXBFS_CONTRACT_ATOMIC, BOXBFS_WIRE_LIST);
    device_loop(kron, 1, 2, BOXBFS_CONTRACT_ATOMIC, BOXBFS_WIRE_AUTO);
    for (int ndev = 2; ndev <= 4; ndev++) {
        int64_t hubs[3] = {0, 0, 0};
        CHECK(peer_search(kron, 1, ndev, hubs) > 0);   /* some level shared visited */
        CHECK(hubs[0] > 0 && hubs[2] < hubs[1]);   /* hubs split: their levels, fewer sent */
        peer_search(dkron, 3, ndev, hubs);
        peer_search(hand, 0, ndev, hubs);
    }
    depth_limit(kron, 1);
    depth_limit(dkron, 3);
    reverse(dkron, 3);
    reverse(dhand, 41);
    auto_alpha(kron, 1);
    bad_options(kron);
    boxbfs_graph_free(kron);
    boxbfs_graph_free(dkron);
    boxbfs_graph_free(hand);
    boxbfs_graph_free(dhand);
    CHECK_DONE();
}
