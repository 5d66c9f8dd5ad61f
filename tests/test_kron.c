/* Unit tests of the Graph500 Kronecker generator: spec parsing, determinism
 * across thread counts, seeds, id range, the id scramble being a bijection,
 * a pinned checksum (same output on every machine) and Graph500-like degree
 * statistics. kron.c is included (its scramble is graph/kron_edge.h's). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "graph/graph.h"

/* The test defines bb_kron_* itself through this include; the linker then
 * takes no kron.o from the library. */
#include "../src/graph/kron.c"

static void test_parse(void)
{
    static const char *bad[] = {
        "kron:x", "kron:", "kron:0", "kron:41", "kron:20x", "kron:20:0", "kron:20:",
        "kron:20:x", "kron:-3", "kron: 20", "kron:+20", "kron:20:16:", "kron:20:16:1:",
        "kron:20:16:1:5", "kron:20:16:abc", "kron:20:16:-1", "kron:20:16:99999999999999999999",
        "kron20", "kronx:20", "", "kron:40:33554432", "kron:20:99999999999",
    };
    int scale = -1, ef = -1;
    uint64_t seed = 0;
    CHECK_OK(bb_kron_parse("kron:20", &scale, &ef, &seed));
    CHECK(scale == 20 && ef == 16 && seed == 1);
    CHECK_OK(bb_kron_parse("kron:10:8", &scale, &ef, &seed));
    CHECK(scale == 10 && ef == 8 && seed == 1);
    CHECK_OK(bb_kron_parse("kron:1:1:0", &scale, &ef, &seed));
    CHECK(scale == 1 && ef == 1 && seed == 0);
    CHECK_OK(bb_kron_parse("kron:40:16:18446744073709551615", &scale, &ef, &seed));
    CHECK(scale == 40 && ef == 16 && seed == UINT64_MAX);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        scale = -1;
        if (bb_kron_parse(bad[i], &scale, &ef, &seed) != BOXBFS_ERR_INVALID_ARG || scale != -1) {
            fprintf(stderr, "accepted bad spec \"%s\"\n", bad[i]);
            CHECK(0);
        }
        CHECK(strstr(boxbfs_last_error(), bad[i]) != NULL);   /* message quotes the spec */
    }
    bb_kron_parse("kron:20:0", &scale, &ef, &seed);
    CHECK(strstr(boxbfs_last_error(), "EDGEFACTOR") != NULL);
    bb_kron_parse("kron:x", &scale, &ef, &seed);
    CHECK(strstr(boxbfs_last_error(), "SCALE") != NULL);
    bb_kron_parse("kron:20:16:1:5", &scale, &ef, &seed);
    CHECK(strstr(boxbfs_last_error(), "unexpected \":5\"") != NULL);

    {
        bb_edges_t e;
        CHECK(bb_kron_generate(0, 16, 1, 1, &e) == BOXBFS_ERR_INVALID_ARG);
        CHECK(bb_kron_generate(41, 16, 1, 1, &e) == BOXBFS_ERR_INVALID_ARG);
        CHECK(bb_kron_generate(10, 0, 1, 1, &e) == BOXBFS_ERR_INVALID_ARG);
        CHECK(e.src == NULL && e.count == 0);
    }
}

static uint64_t checksum(const bb_edges_t *e)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (int64_t k = 0; k < e->count; k++) {
        h = (h ^ (uint64_t)e->src[k]) * UINT64_C(1099511628211);
        h = (h ^ (uint64_t)e->dst[k]) * UINT64_C(1099511628211);
    }
    return h;
}

static void test_determinism(void)
{
    const int threads[] = {1, 2, 3, 7};
    bb_edges_t ref, e;
    const int scale = 13, ef = 16;
    const int64_t n = INT64_C(1) << scale, m = ef * n;
    int64_t differ = 0;
    CHECK_OK(bb_kron_generate(scale, ef, 42, 1, &ref));
    if (ref.src == NULL) return;
    CHECK(ref.n == n && ref.count == m);
    for (int64_t k = 0; k < m; k++) {
        if (ref.src[k] < 0 || ref.src[k] >= n || ref.dst[k] < 0 || ref.dst[k] >= n) {
            CHECK(!"id out of range");
            break;
        }
    }
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        CHECK_OK(bb_kron_generate(scale, ef, 42, threads[t], &e));
        if (e.src == NULL) continue;
        CHECK(e.count == m && e.n == n);
        CHECK(memcmp(e.src, ref.src, (size_t)m * sizeof *e.src) == 0);
        CHECK(memcmp(e.dst, ref.dst, (size_t)m * sizeof *e.dst) == 0);
        bb_edges_free(&e);
    }
    /* another seed: (almost) every edge differs */
    CHECK_OK(bb_kron_generate(scale, ef, 43, 2, &e));
    if (e.src != NULL) {
        for (int64_t k = 0; k < m; k++) differ += e.src[k] != ref.src[k] || e.dst[k] != ref.dst[k];
        CHECK(differ > m * 99 / 100);
        bb_edges_free(&e);
    }
    bb_edges_free(&ref);

    /* Pinned output: kron:10:16:1 must hash to this value on every machine
     * and thread count (reproducibility is part of the generator's contract;
     * change the value only when the generator is changed on purpose). */
    CHECK_OK(bb_kron_generate(10, 16, 1, 3, &e));
    if (e.src != NULL) {
        uint64_t h = checksum(&e);
        if (h != UINT64_C(0x9948d540796d2e9e)) fprintf(stderr, "kron:10:16:1 checksum 0x%016llx\n", (unsigned long long)h);
        CHECK(h == UINT64_C(0x9948d540796d2e9e));
        bb_edges_free(&e);
    }
}

/* The scramble is a bijection of [0, 2^scale) for several scales and seeds,
 * and is not close to the identity. */
static void test_scramble(void)
{
    for (int scale = 1; scale <= 16; scale++) {
        for (uint64_t seed = 0; seed < 3; seed++) {
            bb_kron_keys_t keys;
            const uint64_t n = UINT64_C(1) << scale;
            unsigned char *hit = calloc(n, 1);
            uint64_t fixed = 0, hits = 0;
            if (hit == NULL) { CHECK(!"out of memory"); return; }
            bb_kron_keys(&keys, scale, seed);
            for (uint64_t v = 0; v < n; v++) {
                uint64_t w = bb_kron_scramble(&keys, v);
                if (w >= n) { CHECK(!"scrambled id out of range"); break; }
                hits += !hit[w];
                hit[w] = 1;
                fixed += w == v;
            }
            CHECK(hits == n);
            if (scale >= 10) CHECK(fixed < n / 64);
            free(hit);
        }
    }
}

/* Degree statistics of kron:14:16:1 (16384 vertices, 262144 edges). Observed
 * with this generator: 426154 arcs after dropping 97476 duplicate arcs and 329
 * self-loops; 3877 isolated vertices (23.7%); max degree 3709 against a mean
 * of 26.0 (143x); 3879 components, the largest 12505 vertices. The isolated
 * count matches the initiator's prediction: a vertex whose id has k one-bits
 * expects 2m * 0.76^(14-k) * 0.24^k endpoints, and summing
 * C(14,k) * exp(-that) gives about 3850. The bounds below are loose enough
 * for any correct Graph500 Kronecker generator at this scale. */
static void test_degrees(void)
{
    boxbfs_graph_t g = NULL;
    boxbfs_graph_stats_t s;
    CHECK_OK(boxbfs_graph_load("kron:14", NULL, &g));
    if (g == NULL) return;
    CHECK_OK(boxbfs_graph_stats(g, &s));
    fprintf(stderr,
            "kron:14: vertices %lld arcs %lld isolated %lld (%.1f%%) max degree %lld mean %.2f "
            "duplicates %lld self-loops %lld components %lld largest %lld\n",
            (long long)s.vertices, (long long)s.arcs, (long long)s.isolated,
            100.0 * (double)s.isolated / (double)s.vertices, (long long)s.degree_max,
            s.degree_mean, (long long)s.duplicate_arcs, (long long)s.self_loops,
            (long long)s.components, (long long)s.largest_component);
    CHECK(s.vertices == 16384 && s.input_edges == 16 * 16384);
    CHECK(s.arcs + s.duplicate_arcs + 2 * s.self_loops == 2 * s.input_edges);
    CHECK(s.arcs > 2 * s.input_edges * 8 / 10);
    CHECK((double)s.degree_max > 20.0 * s.degree_mean);   /* heavy tail */
    CHECK(s.isolated > s.vertices / 10 && s.isolated < s.vertices * 6 / 10);
    CHECK(s.largest_component > s.vertices / 2);
    CHECK(s.degree_min == 0);
    boxbfs_graph_free(g);
}

int main(void)
{
    test_parse();
    test_scramble();
    test_determinism();
    test_degrees();
    CHECK_DONE();
}
