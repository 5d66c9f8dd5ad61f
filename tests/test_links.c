/* Link descriptions: built-ins, files, BW,LAT; malformed files fail with
 * FILE:LINE; per-pair and shared-slot modeled times on hand-computed cases;
 * the uniform per-pair model equals the single-figure model; the ring order. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "topology/topology.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 + 1e-9 * fabs(b); }

static char path[4096];
static const char *data(const char *name)
{
    const char *dir = getenv("TESTDATA");
    snprintf(path, sizeof path, "%s/links/%s", dir ? dir : "tests/data", name);
    return path;
}

/* Load a malformed file: PARSE (or the given status) and a message containing want. */
static void bad(const char *file, boxbfs_status_t want_st, const char *want)
{
    boxbfs_links_t l = NULL;
    boxbfs_status_t st = boxbfs_links_load(data(file), &l);
    CHECK(st == want_st);
    if (strstr(boxbfs_last_error(), want) == NULL) {
        fprintf(stderr, "%s: message '%s' lacks '%s'\n", file, boxbfs_last_error(), want);
        CHECK(0);
    }
    CHECK(l == NULL);
}

static double model(const char *spec, int ndev, const uint64_t *bytes)
{
    boxbfs_links_t l = NULL;
    bb_linkmat_t L;
    double t = -1;
    CHECK_OK(boxbfs_links_load(spec, &l));
    if (l == NULL) return -1;
    CHECK_OK(bb_links_resolve(l, ndev, NULL, &L));
    t = bb_linkmat_leftright_s(&L, bytes);
    bb_linkmat_free(&L);
    boxbfs_links_free(l);
    return t;
}

int main(void)
{
    /* the existing 3-device case of test_traffic (1 GB/s, 1 us) = 8.5 us */
    const uint64_t b3[9] = {0, 1000, 0, 0, 0, 3000, 500, 2000, 0};
    boxbfs_links_t l = NULL;
    boxbfs_link_model_t m;
    bb_linkmat_t L;
    double bw, lat;
    int shared;

    CHECK(close_to(model("1GB/s,1us", 3, b3), 8.5e-6));
    /* uniform per-pair matrix == the single-figure function, any built-in */
    {
        const char *names[] = {"nvlink4", "pcie3x16", "pcie4x16", "pcie5x16", "expether-2x10g"};
        uint64_t b4[16];
        for (int i = 0; i < 16; i++) b4[i] = (i % 5) ? (uint64_t)(1000 * i * i + 7) : 0;
        for (int i = 0; i < 5; i++) {
            CHECK_OK(boxbfs_link_model_parse(names[i], &m));
            CHECK_OK(bb_linkmat_uniform(&L, 4, &m));
            CHECK(close_to(bb_linkmat_leftright_s(&L, b4), bb_link_model_leftright_s(&m, 4, b4)));
            CHECK(close_to(model(names[i], 4, b4), bb_link_model_leftright_s(&m, 4, b4)));
            bb_linkmat_free(&L);
        }
    }
    /* per pair (pairs.links): 0-1 2 GB/s 0.5 us, 1-2 0.5 GB/s 2 us, else 1 GB/s 1 us.
     * step 1: (0,1): 0->1 1000 B = 0.5 + 0.5 = 1 us, 1->0 empty -> 1 us;
     *         (1,2): 1->2 3000 B = 6 + 2 = 8 us, 2->1 2000 B = 4 + 2 = 6 us -> 14 us
     * step 2: (0,2): 2->0 500 B = 0.5 + 1 = 1.5 us.  total 15.5 us */
    CHECK(close_to(model(data("pairs.links"), 3, b3), 15.5e-6));
    /* shared slots, 1 GB/s 1 us: step 1 half (a): 0->1 and 1->2 both use slot 1
     * -> 0.5 GB/s each: 0->1 = 2 + 1 = 3 us, 1->2 = 6 + 1 = 7 us; half (b):
     * 2->1 alone = 2 + 1 = 3 us; pairs (0,1) 3 us, (1,2) 10 us -> 10 us;
     * step 2: 2->0 1.5 us. total 11.5 us */
    CHECK(close_to(model("1GB/s,1us", 3, b3), 8.5e-6));
    {
        CHECK_OK(boxbfs_links_parse("slot * bandwidth=1GB/s latency=1us shared\n", "t", &l));
        CHECK_OK(bb_links_resolve(l, 3, NULL, &L));
        CHECK(close_to(bb_linkmat_leftright_s(&L, b3), 11.5e-6));
        bb_linkmat_free(&L);
        boxbfs_links_free(l);
    }
    /* gpubox4.links, 25000 B on every pair; slots 0-2 shared 2.5 GB/s 10 us,
     * slot 3 dedicated 1.25 GB/s 12 us.
     * step 1 (a): 0->1: slot 1 carries 0->1 and 1->2: 1.25 GB/s: 20 + 10 = 30 us;
     *   1->2: 30 us; 2->3: 1.25 GB/s (slot 3), 20 + 12 = 32 us; (b) the same:
     *   pairs 60, 60, 64 -> 64 us
     * step 2: 0->2 alone on its slots: 10 + 10 = 20, 2->0 20 -> 40; 1->3:
     *   slot 3 1.25 GB/s: 20 + 12 = 32, 3->1 32 -> 64 -> 64 us
     * step 3: 0->3, 3->0: 32 + 32 = 64 us. total 192 us */
    {
        uint64_t b[16];
        for (int i = 0; i < 16; i++) b[i] = i % 5 ? 25000 : 0;
        CHECK(close_to(model(data("gpubox4.links"), 4, b), 192e-6));
        CHECK_OK(boxbfs_links_load(data("gpubox4.links"), &l));
        CHECK(strcmp(boxbfs_links_name(l), "gpubox4") == 0);
        CHECK_OK(boxbfs_links_pair(l, 0, 3, &bw, &lat, &shared));
        CHECK(close_to(bw, 1.25e9) && close_to(lat, 12e-6) && shared == 1);
        CHECK_OK(boxbfs_links_pair(l, 0, 1, &bw, &lat, &shared));
        CHECK(close_to(bw, 2.5e9) && close_to(lat, 10e-6) && shared == 1);
        /* physical ids: engine device 0 is slot 3 */
        {
            int ids[2] = {3, 0};
            CHECK_OK(bb_links_resolve(l, 2, ids, &L));
            CHECK(close_to(L.bw[1], 1.25e9) && L.pool[0] == 0 && close_to(L.pool[1], 2.5e9));
            bb_linkmat_free(&L);
        }
        boxbfs_links_free(l);
    }
    /* built-ins and BW,LAT through boxbfs_links_load */
    /* shared slots are a description, not one figure (else they would model dedicated links) */
    {
        boxbfs_link_model_t one;
        CHECK(boxbfs_link_model_parse("expether-2x10g-shared", &one) == BOXBFS_ERR_INVALID_ARG);
    }
    CHECK_OK(boxbfs_links_load("expether-2x10g-shared", &l));
    CHECK_OK(boxbfs_links_pair(l, 5, 9, &bw, &lat, &shared));
    CHECK(close_to(bw, 2.5e9) && close_to(lat, 10e-6) && shared == 1);
    boxbfs_links_free(l);
    CHECK_OK(boxbfs_links_load("20Gb/s,7us", &l));
    CHECK_OK(boxbfs_links_pair(l, 0, 1, &bw, &lat, &shared));
    CHECK(close_to(bw, 2.5e9) && close_to(lat, 7e-6) && shared == 0);
    boxbfs_links_free(l);

    /* malformed: FILE:LINE and what is wrong */
    bad("bad_bandwidth.links", BOXBFS_ERR_PARSE, "bad_bandwidth.links:2: bad bandwidth 'fast'");
    bad("bad_latency.links", BOXBFS_ERR_PARSE, "bad_latency.links:4: bad latency 'soon'");
    bad("bad_missing.links", BOXBFS_ERR_PARSE, "bad_missing.links:1: slot without latency=");
    bad("bad_directive.links", BOXBFS_ERR_PARSE, "bad_directive.links:2: unknown directive 'switch'");
    bad("bad_device.links", BOXBFS_ERR_PARSE, "bad_device.links:2: 'link' needs two device numbers");
    bad("bad_shared.links", BOXBFS_ERR_PARSE, "bad_shared.links:1: 'shared' applies to slots");
    bad("bad_empty.links", BOXBFS_ERR_PARSE, "bad_empty.links: no slot or link lines");
    bad("bad_word.links", BOXBFS_ERR_PARSE, "bad_word.links:1: unknown word 'speed=3'");
    bad("no_such_file.links", BOXBFS_ERR_INVALID_ARG, "unknown link model");
    /* figures that are not finite and positive (issue 16): --throttle slept
     * forever on latency=inf, latency=nan modeled every exchange as 0 s */
    bad("bad_latency_inf.links", BOXBFS_ERR_PARSE,
        "bad_latency_inf.links:3: bad latency 'inf': a latency must be finite, positive");
    bad("bad_latency_nan.links", BOXBFS_ERR_PARSE,
        "bad_latency_nan.links:2: bad latency 'nan': a latency must be finite, positive");
    bad("bad_bandwidth_inf.links", BOXBFS_ERR_PARSE,
        "bad_bandwidth_inf.links:3: bad bandwidth 'inf': a bandwidth must be finite");
    bad("bad_bandwidth_huge.links", BOXBFS_ERR_PARSE,
        "bad_bandwidth_huge.links:3: bad bandwidth '1e300TB/s': a bandwidth must be finite");
    {
        static const struct {
            const char *line, *want;
        } figures[] = {
            {"slot * bandwidth=1GB/s latency=-1us", "x:1: bad latency '-1us': a latency must"},
            {"slot * bandwidth=1GB/s latency=0", "x:1: bad latency '0': a latency must"},
            {"slot * bandwidth=1GB/s latency=2h", "x:1: bad latency '2h' (e.g."},
            {"slot * bandwidth=1GB/s latency=7200", "x:1: bad latency '7200': a latency must"},
            {"slot * bandwidth=1GB/s latency=INFINITY", "x:1: bad latency 'INFINITY': a latency"},
            {"slot * bandwidth=1GB/s latency=1e400us", "x:1: bad latency '1e400us': a latency"},
            {"slot * bandwidth=-nan latency=1us", "x:1: bad bandwidth '-nan': a bandwidth must"},
            {"slot * bandwidth=0 latency=1us", "x:1: bad bandwidth '0': a bandwidth must"},
            {"slot * bandwidth=0.5b/s latency=1us", "x:1: bad bandwidth '0.5b/s': a bandwidth"},
            {"slot * bandwidth=1e-310 latency=1us", "x:1: bad bandwidth '1e-310': a bandwidth"},
        };
        for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
            l = NULL;
            CHECK(boxbfs_links_parse(figures[i].line, "x", &l) == BOXBFS_ERR_PARSE && l == NULL);
            if (strstr(boxbfs_last_error(), figures[i].want) == NULL) {
                fprintf(stderr, "'%s': message '%s' lacks '%s'\n", figures[i].line,
                        boxbfs_last_error(), figures[i].want);
                CHECK(0);
            }
        }
        /* the extremes that stay finite are accepted */
        CHECK_OK(boxbfs_links_parse("slot * bandwidth=1B/s latency=3600s\n"
                                    "link 0 1 bandwidth=1e300 latency=1e-300\n", "x", &l));
        boxbfs_links_free(l);
    }
    CHECK(boxbfs_links_parse("link 2 2 bandwidth=1GB/s latency=1us", "x", &l) == BOXBFS_ERR_PARSE);
    CHECK(strstr(boxbfs_last_error(), "x:1: link 2 2 joins a device to itself") != NULL);
    /* a pair nothing covers */
    CHECK_OK(boxbfs_links_load(data("partial.links"), &l));
    CHECK(bb_links_resolve(l, 3, NULL, &L) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "no figure for 0 -> 2") != NULL);
    CHECK_OK(bb_links_resolve(l, 2, NULL, &L));
    bb_linkmat_free(&L);
    boxbfs_links_free(l);

    /* ring order: identity on equal links; fastest neighbours otherwise */
    {
        int perm[4];
        CHECK_OK(boxbfs_links_load("pcie4x16", &l));
        CHECK_OK(bb_links_resolve(l, 4, NULL, &L));
        bb_topo_ring_order(&L, perm);
        CHECK(perm[0] == 0 && perm[1] == 1 && perm[2] == 2 && perm[3] == 3);
        bb_linkmat_free(&L);
        boxbfs_links_free(l);
        CHECK_OK(boxbfs_links_parse("slot * bandwidth=1GB/s latency=1us\n"
                                    "link 0 2 bandwidth=10GB/s latency=1us\n"
                                    "link 2 1 bandwidth=5GB/s latency=1us\n", "ring", &l));
        CHECK_OK(bb_links_resolve(l, 4, NULL, &L));
        bb_topo_ring_order(&L, perm);
        CHECK(perm[0] == 0 && perm[1] == 2 && perm[2] == 1 && perm[3] == 3);
        CHECK_OK(bb_linkmat_permute(&L, perm));
        CHECK(close_to(L.bw[0 * 4 + 1], 10e9) && close_to(L.bw[1 * 4 + 2], 5e9));
        bb_linkmat_free(&L);
        boxbfs_links_free(l);
    }
    CHECK_DONE();
}
