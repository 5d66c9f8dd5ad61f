/* bench_gen: time the Graph500 Kronecker generator and the CSR builder
 * separately (monotonic clock), REPEATS times, and print the medians.
 *   tools/bench_gen [SCALE [THREADS [REPEATS]]]   (defaults 20, online CPUs, 3)
 * Output as nccl-tests: '#' header lines, a fixed-width table, key: value. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boxbfs.h"
#include "common/threads.h"
#include "common/timer.h"
#include "graph/graph.h"

#define EDGEFACTOR 16
#define SEED 1

static int parse_int(const char *text, const char *what, int lo, int hi, int *value_p)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "bench_gen: %s \"%s\" must be an integer in [%d, %d]\n", what, text, lo, hi);
        return -1;
    }
    *value_p = (int)v;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

int main(int argc, char **argv)
{
    int scale = 20, threads = bb_cpu_count(), repeats = 3, rc = 0;
    double *gen_s, *build_s, *total_s;
    if (argc > 4 || (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))) {
        fprintf(stderr, "usage: bench_gen [SCALE [THREADS [REPEATS]]]  (defaults 20, %d, 3)\n",
                bb_cpu_count());
        return 1;
    }
    if ((argc > 1 && parse_int(argv[1], "SCALE", 1, 40, &scale) != 0) ||
        (argc > 2 && parse_int(argv[2], "THREADS", 1, 1024, &threads) != 0) ||
        (argc > 3 && parse_int(argv[3], "REPEATS", 1, 1000, &repeats) != 0))
        return 1;
    gen_s = calloc((size_t)repeats * 3, sizeof *gen_s);
    if (gen_s == NULL) {
        fprintf(stderr, "bench_gen: out of memory\n");
        return 3;
    }
    build_s = gen_s + repeats;
    total_s = build_s + repeats;

    printf("# bench_gen: Graph500 Kronecker generator + CSR builder, boxbfs %s\n", boxbfs_version());
    printf("# scale %d  edgefactor %d  seed %d  threads %d  repeats %d  (online CPUs %d)\n", scale,
           EDGEFACTOR, SEED, threads, repeats, bb_cpu_count());
    printf("# times in seconds (monotonic clock); rate = input edges / total time\n");
    printf("# %6s %12s %14s %14s %12s %12s %12s %14s\n", "repeat", "vertices", "input_edges",
           "arcs", "generate_s", "build_s", "total_s", "Medges_per_s");
    for (int r = 0; r < repeats; r++) {
        bb_edges_t edges;
        boxbfs_graph_t graph = NULL;
        boxbfs_status_t st;
        double t0 = bb_now_s(), t1, t2;
        st = bb_kron_generate(scale, EDGEFACTOR, SEED, threads, &edges);
        t1 = bb_now_s();
        if (st == BOXBFS_OK) st = bb_graph_build(&edges, 0, threads, NULL, 0, "bench", &graph);
        t2 = bb_now_s();
        if (st != BOXBFS_OK) {
            fprintf(stderr, "bench_gen: %s: %s\n", boxbfs_status_string(st), boxbfs_last_error());
            rc = 3;
            goto out;
        }
        gen_s[r] = t1 - t0;
        build_s[r] = t2 - t1;
        total_s[r] = t2 - t0;
        printf("  %6d %12" PRId64 " %14" PRId64 " %14" PRId64 " %12.4f %12.4f %12.4f %14.2f\n", r,
               boxbfs_graph_vertices(graph), boxbfs_graph_input_edges(graph),
               boxbfs_graph_arcs(graph), gen_s[r], build_s[r], total_s[r],
               (double)boxbfs_graph_input_edges(graph) / total_s[r] / 1e6);
        fflush(stdout);
        boxbfs_graph_free(graph);
    }
    printf("median_generate_s: %.4f\n", median(gen_s, repeats));
    printf("median_build_s: %.4f\n", median(build_s, repeats));
    printf("median_total_s: %.4f\n", median(total_s, repeats));
out:
    free(gen_s);
    return rc;
}
