/* Bad arguments at every public entry point of boxbfs.h (issue 17): NULL
 * handles and pointers, bad sizes, ids out of range, mismatched lengths.
 * Every call that returns a status returns an error with a message naming
 * the problem; the others return their documented "nothing" value; none
 * crashes. Linked against libboxbfs.so, like a user's program: public
 * symbols only. */
#include <math.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"

static void graphs(void)
{
    const int64_t src[] = {0, 1, 2}, dst[] = {1, 2, 3}, bad[] = {0, 1, 9}, neg[] = {0, -1, 2};
    boxbfs_graph_t g = (boxbfs_graph_t)0x1, g2 = (boxbfs_graph_t)0x1;
    boxbfs_load_options_t lo = {.direction = (boxbfs_direction_t)7};
    boxbfs_graph_stats_t stats;
    int64_t id, parent[4] = {0, 0, 0, 0};
    int32_t level[4] = {0, 0, 0, 0};

    CHECK_FAILS(boxbfs_graph_load(NULL, NULL, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK(g == (boxbfs_graph_t)0x1);   /* output written only on success */
    CHECK_FAILS(boxbfs_graph_load("kron:8", NULL, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_load("", NULL, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_load("kron:-3", NULL, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_load("kron:8", &lo, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_load("/nonexistent/g.mtx", NULL, &g), BOXBFS_ERR_IO);
    CHECK_FAILS(boxbfs_graph_kron_on_devices(NULL, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_kron_on_devices("kron:8", NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_kron_on_devices("g.mtx", &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_kron_on_devices("kron:-3", &g), BOXBFS_ERR_INVALID_ARG);
    CHECK(g == (boxbfs_graph_t)0x1);
    /* made, not built: no arcs yet, and nothing that needs its columns runs */
    CHECK_OK(boxbfs_graph_kron_on_devices("kron:8", &g2));
    CHECK(boxbfs_graph_vertices(g2) == 256 && boxbfs_graph_arcs(g2) == 0);
    CHECK(boxbfs_graph_save(g2, "/nonexistent/dir/x.bbcsr") != BOXBFS_OK);
    CHECK(boxbfs_validate(g2, 0, parent, level, NULL) != BOXBFS_OK);
    boxbfs_graph_free(g2);
    g2 = (boxbfs_graph_t)0x1;

    CHECK_FAILS(boxbfs_graph_from_edges(4, 3, src, dst, 0, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(4, 3, NULL, dst, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(4, 3, src, NULL, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(0, 0, src, dst, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(-5, 3, src, dst, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(4, -1, src, dst, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(4, 3, src, bad, 0, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_from_edges(4, 3, neg, dst, 1, &g), BOXBFS_ERR_INVALID_ARG);
    CHECK(g == (boxbfs_graph_t)0x1);

    /* NULL graph: statuses fail, counts read 0 / -1, names "" or NULL-safe */
    CHECK_FAILS(boxbfs_graph_save(NULL, "x.bbcsr"), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_save_edgelist(NULL, "x.txt"), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_reverse(NULL, &g2), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_relabel_by_degree(NULL, 1, &g2), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_rows(NULL, NULL, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_stats(NULL, &stats), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_internal_id(NULL, 1, &id), BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_graph_vertices(NULL) == 0);
    CHECK(boxbfs_graph_input_edges(NULL) == 0);
    CHECK(boxbfs_graph_arcs(NULL) == 0);
    CHECK(boxbfs_graph_is_directed(NULL) == 0);
    CHECK(boxbfs_graph_name(NULL) != NULL);
    CHECK(boxbfs_graph_offsets(NULL) == NULL);
    CHECK(boxbfs_graph_columns(NULL) == NULL);
    CHECK(boxbfs_graph_external_id(NULL, 0) == -1);
    boxbfs_graph_free(NULL);
    CHECK_FAILS(boxbfs_bfs_reference(NULL, 0, parent, level), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_validate(NULL, 0, parent, level, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_validate_depth(NULL, 0, parent, level, -1, NULL), BOXBFS_ERR_INVALID_ARG);

    /* a real graph, bad ids, paths and arrays */
    CHECK_OK(boxbfs_graph_from_edges(4, 3, src, dst, 0, &g));
    CHECK_FAILS(boxbfs_graph_save(g, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_save(g, ""), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_save_edgelist(g, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_save_edgelist(g, ""), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_save(g, "/nonexistent/dir/x.bbcsr"), BOXBFS_ERR_IO);
    CHECK_FAILS(boxbfs_graph_reverse(g, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_relabel_by_degree(g, 1, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_relabel_by_degree(g, 0, &g2), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_stats(g, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_graph_internal_id(g, 99, &id), BOXBFS_ERR_INVALID_ARG);
    CHECK_OK(boxbfs_graph_internal_id(g, 1, NULL));   /* NULL: only asks whether it exists */
    CHECK(boxbfs_graph_external_id(g, 4) == -1);
    CHECK(boxbfs_graph_external_id(g, -1) == -1);
    CHECK_FAILS(boxbfs_bfs_reference(g, 4, parent, level), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bfs_reference(g, -1, parent, level), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bfs_reference(g, 0, NULL, level), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_bfs_reference(g, 0, parent, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_validate(g, 9, parent, level, NULL), BOXBFS_ERR_VALIDATION);   /* R0 */
    CHECK_FAILS(boxbfs_validate(g, 0, NULL, level, NULL), BOXBFS_ERR_INVALID_ARG);
    parent[0] = 0; parent[1] = 77; parent[2] = 1; parent[3] = 2;   /* a parent out of range */
    CHECK_FAILS(boxbfs_validate(g, 0, parent, NULL, NULL), BOXBFS_ERR_VALIDATION);
    CHECK_FAILS(boxbfs_validate_depth(g, 0, parent, NULL, 2, NULL), BOXBFS_ERR_VALIDATION);
    boxbfs_graph_free(g);
}

static void links_and_names(void)
{
    boxbfs_links_t l = NULL;
    boxbfs_link_model_t m;
    double bw, lat;
    int shared;

    CHECK_FAILS(boxbfs_link_model_parse(NULL, &m), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_link_model_parse("nvlink4", NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_link_model_parse("warp-drive", &m), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_link_model_parse("-5GB/s,1us", &m), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_links_load(NULL, &l), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_links_load("nvlink4", NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_links_load("no-such-link", &l), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_links_parse(NULL, "x", &l), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_links_parse("pair 0 1 nonsense\n", "x.links", &l), BOXBFS_ERR_PARSE);
    CHECK_FAILS(boxbfs_links_pair(NULL, 0, 1, &bw, &lat, &shared), BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_links_name(NULL) != NULL);
    boxbfs_links_free(NULL);
    CHECK_OK(boxbfs_links_load("nvlink4", &l));
    CHECK_FAILS(boxbfs_links_pair(l, -1, 1, &bw, &lat, &shared), BOXBFS_ERR_INVALID_ARG);
    boxbfs_links_free(l);

    /* names of values out of range are a constant string, never NULL */
    CHECK(boxbfs_status_string((boxbfs_status_t)-99) != NULL);
    CHECK(boxbfs_status_string((boxbfs_status_t)42) != NULL);
    CHECK(boxbfs_backend_name((boxbfs_backend_t)9) != NULL);
    CHECK(boxbfs_contract_name((boxbfs_contract_t)-1) != NULL);
    CHECK(boxbfs_visited_name((boxbfs_visited_t)9) != NULL);
    CHECK(boxbfs_wire_name((boxbfs_wire_t)9) != NULL);
    CHECK(boxbfs_exchange_name((boxbfs_exchange_t)9) != NULL);
    CHECK(boxbfs_expand_name((boxbfs_expand_t)9) != NULL);
    CHECK(boxbfs_phase_name((boxbfs_phase_t)9) != NULL);
    CHECK(boxbfs_search_direction_name((boxbfs_search_direction_t)9) != NULL);
    CHECK(boxbfs_backend_device_count((boxbfs_backend_t)9) == 0);
    CHECK(boxbfs_version() != NULL && boxbfs_version()[0] != '\0');
    CHECK(boxbfs_one_device_per_process(NULL) == 0);
    CHECK(boxbfs_mpi_launched_processes() >= 0);
}

static void engines(void)
{
    const int64_t src[] = {0, 1, 2}, dst[] = {1, 2, 3};
    boxbfs_graph_t g = NULL;
    boxbfs_engine_t e = (boxbfs_engine_t)0x1;
    boxbfs_engine_options_t o;
    const boxbfs_search_report_t *r;
    boxbfs_tree_info_t info;
    int64_t parent[4];
    int32_t level[4];
    int order[2];
    size_t vb;
    int64_t hub_degree = -1;

    CHECK_OK(boxbfs_graph_from_edges(4, 3, src, dst, 0, &g));
    boxbfs_engine_options_init(NULL);   /* nothing to do, no crash */
    boxbfs_engine_options_init(&o);
    CHECK_FAILS(boxbfs_engine_create(NULL, &o, &e), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_create(g, NULL, &e), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_create(g, &o, NULL), BOXBFS_ERR_INVALID_ARG);
    o.devices = 0;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    o.devices = -3;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_options_init(&o);
    o.backend = (boxbfs_backend_t)7;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_options_init(&o);
    o.contract = (boxbfs_contract_t)7;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_options_init(&o);
    o.expand_edges_per_thread = 3;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_options_init(&o);
    o.alpha = NAN;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    boxbfs_engine_options_init(&o);
    o.exchange = (boxbfs_exchange_t)-2;
    CHECK_FAILS(boxbfs_engine_create(g, &o, &e), BOXBFS_ERR_INVALID_ARG);
    CHECK(e == (boxbfs_engine_t)0x1);

    /* NULL engine */
    CHECK_FAILS(boxbfs_engine_run(NULL, 0, parent, level, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_check_tree(NULL, 0, parent, level, 1, &info), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_device_order(NULL, order, 2), BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_engine_device_count(NULL) == 0);
    CHECK(boxbfs_engine_rank(NULL) == 0);
    CHECK(boxbfs_engine_processes(NULL) == 0);
    CHECK(boxbfs_engine_device_name(NULL, 0) != NULL);
    CHECK(boxbfs_engine_memory_bytes(NULL, 0, &vb) == 0);
    CHECK(boxbfs_engine_link_model(NULL) == NULL);
    CHECK(boxbfs_engine_device_search(NULL) == 0);
    CHECK(boxbfs_engine_prefix_skip(NULL) == 0);
    CHECK(boxbfs_engine_hubs(NULL, NULL) == 0);
    CHECK(boxbfs_engine_wire(NULL) == BOXBFS_WIRE_LIST);
    boxbfs_engine_free(NULL);

    /* a real engine, bad roots, devices and arrays (the paper's valid-flag: no
     * visited-prefix skip, no atomic layout; atomic is the default) */
    boxbfs_engine_options_init(&o);
    o.devices = 2;
    o.contract = BOXBFS_CONTRACT_VALID_FLAG;
    CHECK_OK(boxbfs_engine_create(g, &o, &e));
    CHECK_FAILS(boxbfs_engine_run(e, 4, parent, level, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_run(e, -1, parent, level, &r), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_check_tree(e, 9, parent, level, 1, &info), BOXBFS_ERR_VALIDATION);
    CHECK_FAILS(boxbfs_engine_check_tree(e, 0, NULL, level, 1, &info), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_check_tree(e, 0, parent, NULL, 1, &info), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_device_order(e, NULL, 2), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_engine_device_order(e, order, 1), BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_engine_device_name(e, 5) != NULL);
    CHECK(boxbfs_engine_device_name(e, -1) != NULL);
    CHECK(boxbfs_engine_memory_bytes(e, 7, NULL) == 0);
    CHECK(boxbfs_engine_prefix_skip(e) == 0);   /* valid-flag: off */
    CHECK(boxbfs_engine_hubs(e, &hub_degree) == 0 && hub_degree == 0);   /* host-driven: none */
    CHECK(boxbfs_engine_wire(e) == BOXBFS_WIRE_LIST);   /* as asked: no atomic layout to trade */
    /* after all that, the engine still works */
    CHECK_OK(boxbfs_engine_run(e, 0, parent, level, &r));
    CHECK(level[3] == 3 && parent[3] == 2 && r != NULL && r->reached == 4);
    CHECK_OK(boxbfs_engine_check_tree(e, 0, parent, level, 1, &info));
    parent[3] = 0;   /* a tree edge that is no graph edge */
    CHECK_FAILS(boxbfs_engine_check_tree(e, 0, parent, level, 1, &info), BOXBFS_ERR_VALIDATION);
    boxbfs_engine_free(e);
    boxbfs_graph_free(g);
}

static void topology(void)
{
    boxbfs_topology_t t = (boxbfs_topology_t)0x1;
    boxbfs_device_info_t d;
    boxbfs_link_info_t li;
    boxbfs_links_t l;
    const size_t sizes[] = {4096};

    CHECK_FAILS(boxbfs_topology_discover(BOXBFS_BACKEND_CPU, 2, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_discover(BOXBFS_BACKEND_CPU, -1, &t), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_discover((boxbfs_backend_t)5, 2, &t), BOXBFS_ERR_INVALID_ARG);
    CHECK(t == (boxbfs_topology_t)0x1);
    CHECK_FAILS(boxbfs_topology_device(NULL, 0, &d), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_link(NULL, 0, 1, &li), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe(NULL, sizes, 1, 1), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe_links(NULL, &l), BOXBFS_ERR_INVALID_ARG);
    CHECK(boxbfs_topology_device_count(NULL) == 0);
    CHECK(boxbfs_topology_link_source(NULL) != NULL);
    CHECK(!(boxbfs_topology_probe_time(NULL, 0, 1, BOXBFS_PROBE_PEER, 0) > 0));
    CHECK(!(boxbfs_topology_probe_latency(NULL, 0, 1) > 0));
    boxbfs_topology_free(NULL);

    CHECK_OK(boxbfs_topology_discover(BOXBFS_BACKEND_CPU, 2, &t));
    CHECK_FAILS(boxbfs_topology_device(t, 2, &d), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_device(t, 0, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_link(t, 0, 5, &li), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_link(t, -1, 0, &li), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe(t, NULL, 1, 1), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe(t, sizes, 0, 1), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe(t, sizes, 1, 0), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe_links(t, NULL), BOXBFS_ERR_INVALID_ARG);
    CHECK_FAILS(boxbfs_topology_probe_links(t, &l), BOXBFS_ERR_INVALID_ARG);   /* no probe yet */
    /* probe figures before any probe, or out of range: not a time */
    CHECK(!(boxbfs_topology_probe_time(t, 0, 7, BOXBFS_PROBE_PEER, 0) > 0));
    CHECK(!(boxbfs_topology_probe_time(t, 0, 1, (boxbfs_probe_mode_t)9, 0) > 0));
    CHECK(!(boxbfs_topology_probe_latency(t, 9, 1) > 0));
    boxbfs_topology_free(t);
}

/* boxbfs_devices_auto: 2^27 arcs a device, at least one, at most those there */
static void device_counts(void)
{
    char why[160];
    CHECK(boxbfs_devices_auto((int64_t)1 << 26, 2, why, sizeof why) == 1);
    CHECK(strstr(why, "1 of 2 devices") != NULL && strstr(why, "134217728") != NULL);
    CHECK(boxbfs_devices_auto((int64_t)1 << 28, 2, why, sizeof why) == 2);
    CHECK(strstr(why, "all 2 of 2 devices") != NULL);
    CHECK(boxbfs_devices_auto((int64_t)3 << 27, 4, NULL, 0) == 3);
    CHECK(boxbfs_devices_auto((int64_t)1 << 40, 8, NULL, 0) == 8);
    CHECK(boxbfs_devices_auto(0, 0, why, sizeof why) == 1);
    CHECK(boxbfs_devices_auto(-5, 4, why, 1) == 1 && why[0] == '\0');
}

int main(void)
{
    graphs();
    links_and_names();
    engines();
    topology();
    device_counts();
    boxbfs_finalize();
    CHECK_DONE();
}
