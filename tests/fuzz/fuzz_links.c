/* Fuzz harness: link descriptions (topology/links.c) and the inline
 * BW,LATENCY form (peer/link_model.c). The input is the description's text
 * (up to its first NUL byte), and its first line is also tried as
 * --link-model. Whatever is accepted must model every exchange in a finite,
 * non-negative time (--throttle sleeps for it): every figure resolved for 1
 * to 5 devices is finite, bandwidths at least 1 B/s, latencies in
 * (0, 3600 s], and the left-right time of a round with 2^40 bytes per copy
 * is finite. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer/traffic.h"
#include "topology/topology.h"
#include "fuzz.h"

const char bb_fuzz_format[] = "links";

#define MAX_DEV 5

static void bad(const char *what, double value)
{
    fprintf(stderr, "fuzz: links: %s %g\n", what, value);
    abort();
}

static void check_figures(double bw, double lat)
{
    if (!isfinite(bw) || bw < BB_LINK_MIN_BANDWIDTH_BPS) bad("accepted bandwidth", bw);
    if (!isfinite(lat) || !(lat > 0) || lat > BB_LINK_MAX_LATENCY_S) bad("accepted latency", lat);
}

static void check_times(const bb_linkmat_t *L)
{
    static uint64_t bytes[MAX_DEV * MAX_DEV];
    int n = L->ndev, perm[MAX_DEV];
    double t;
    for (int i = 0; i < n * n; i++) bytes[i] = (i % (n + 1)) ? (uint64_t)1 << 40 : 0;
    for (int s = 0; s < n; s++) {
        if (!isfinite(L->pool[s]) || L->pool[s] < 0) bad("slot pool", L->pool[s]);
        for (int d = 0; d < n; d++)
            if (s != d) check_figures(L->bw[s * n + d], L->lat[s * n + d]);
    }
    t = bb_linkmat_leftright_s(L, bytes);
    if (!isfinite(t) || t < 0) bad("modeled round time", t);
    bb_topo_ring_order(L, perm);
    for (int i = 0; i < n; i++)
        if (perm[i] < 0 || perm[i] >= n) bad("ring order entry", perm[i]);
}

static void check_description(boxbfs_links_t l)
{
    for (int ndev = 1; ndev <= MAX_DEV; ndev++) {
        bb_linkmat_t L;
        if (bb_links_resolve(l, ndev, NULL, &L) != BOXBFS_OK) continue;   /* a pair uncovered */
        check_times(&L);
        bb_linkmat_free(&L);
    }
    for (int s = 0; s < MAX_DEV; s++)
        for (int d = 0; d < MAX_DEV; d++) {
            double bw, lat;
            int shared;
            if (s != d && boxbfs_links_pair(l, s, d, &bw, &lat, &shared) == BOXBFS_OK)
                check_figures(bw, lat);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), line[160];
    boxbfs_links_t l = NULL;
    boxbfs_link_model_t m;
    boxbfs_status_t st;
    size_t first = 0;

    bb_fuzz_init();
    if (text == NULL) abort();
    if (size > 0) memcpy(text, data, size);
    text[size] = '\0';

    st = boxbfs_links_parse(text, "fuzz.links", &l);
    if (st == BOXBFS_OK) {
        check_description(l);
        boxbfs_links_free(l);
    } else if (st != BOXBFS_ERR_PARSE && st != BOXBFS_ERR_NO_MEMORY) {
        bad("unexpected status", st);
    } else if (st == BOXBFS_ERR_PARSE && strncmp(boxbfs_last_error(), "fuzz.links", 10) != 0) {
        fprintf(stderr, "fuzz: links: the message does not name the file: %s\n",
                boxbfs_last_error());
        abort();
    }

    while (first < sizeof line - 1 && text[first] != '\0' && text[first] != '\n') first++;
    memcpy(line, text, first);
    line[first] = '\0';
    if (boxbfs_link_model_parse(line, &m) == BOXBFS_OK) {
        bb_linkmat_t L;
        check_figures(m.bandwidth_Bps, m.latency_s);
        if (bb_linkmat_uniform(&L, 3, &m) != BOXBFS_OK) abort();
        check_times(&L);
        bb_linkmat_free(&L);
    }
    free(text);
    return 0;
}
