/* Fuzz harness: binary CSR files (.bbcsr, src/io/binary.c). The input is the
 * file, with its checksums rewritten (bb_io_binary_seal) so that mutations
 * reach the size, id and CSR checks behind them. Three loads must agree: the
 * mmap path, the read path (BOXBFS_NO_MMAP) and an MPI rank's slice
 * (bb_io_load_binary_rows, rows [n/3, n - n/3)), whose rows are the whole
 * graph's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "io/io.h"
#include "fuzz.h"

const char bb_fuzz_format[] = "bbcsr";

static boxbfs_status_t middle_third(const int64_t *offsets, int64_t n, void *arg, int64_t *lo_p,
                                    int64_t *hi_p)
{
    (void)offsets;
    (void)arg;
    *lo_p = n / 3;
    *hi_p = n - n / 3;
    return BOXBFS_OK;
}

static void disagree(const char *what, const char *path)
{
    fprintf(stderr, "fuzz: %s: %s\n", path, what);
    abort();
}

/* The slice holds the same rows, offsets and ids as the whole graph. */
static void check_slice(boxbfs_graph_t whole, boxbfs_graph_t slice, const char *path)
{
    const int64_t n = whole->n;
    if (slice->n != n || slice->arcs != whole->arcs || slice->row_lo != n / 3 ||
        slice->row_hi != n - n / 3 || slice->columns_base != whole->offsets[n / 3] ||
        memcmp(slice->offsets, whole->offsets, (size_t)(n + 1) * 8) != 0 ||
        memcmp(slice->edge_credit, whole->edge_credit, (size_t)n * 8) != 0)
        disagree("the slice's sizes, offsets or credits differ from the whole graph's", path);
    for (int64_t k = whole->offsets[n / 3]; k < whole->offsets[n - n / 3]; k++)
        if (slice->columns[k - slice->columns_base] != whole->columns[k])
            disagree("the slice's columns differ from the whole graph's", path);
    for (int64_t v = 0; v < n; v++)
        if (boxbfs_graph_external_id(slice, v) != boxbfs_graph_external_id(whole, v))
            disagree("the slice's external ids differ from the whole graph's", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    boxbfs_graph_t mapped = NULL, read = NULL, slice = NULL;
    boxbfs_status_t st_map, st_read, st_slice;
    char message[1024];
    uint8_t *image;
    const char *path;

    bb_fuzz_init();
    if ((image = malloc(size + 1)) == NULL) abort();
    if (size > 0) memcpy(image, data, size);
    bb_io_binary_seal(image, size);
    path = bb_fuzz_write(image, size, ".bbcsr");
    free(image);

    unsetenv("BOXBFS_NO_MMAP");
    st_map = boxbfs_graph_load(path, NULL, &mapped);
    snprintf(message, sizeof message, "%s", boxbfs_last_error());
    setenv("BOXBFS_NO_MMAP", "1", 1);
    st_read = boxbfs_graph_load(path, NULL, &read);
    unsetenv("BOXBFS_NO_MMAP");
    if (st_map != st_read || (st_map != BOXBFS_OK && strcmp(message, boxbfs_last_error()) != 0)) {
        fprintf(stderr, "fuzz: mmap: %d %s\nfuzz: read: %d %s\n", (int)st_map, message,
                (int)st_read, boxbfs_last_error());
        disagree("the mmap and read paths disagree", path);
    }
    /* A slice skips the payload checksum (it reads its rows only), so it may
     * accept a file the whole load refuses, never the other way round. */
    st_slice = bb_io_load_binary_rows(path, middle_third, NULL, &slice);
    if (st_map != BOXBFS_OK) {
        bb_fuzz_check_refusal(st_map, path);
        if (st_slice != BOXBFS_OK) bb_fuzz_check_refusal(st_slice, path);
        boxbfs_graph_free(slice);
        return 0;
    }
    if (st_slice != BOXBFS_OK) {
        fprintf(stderr, "fuzz: slice: %s\n", boxbfs_last_error());
        disagree("the whole file loads, its slice does not", path);
    }
    check_slice(mapped, slice, path);
    bb_fuzz_check_graph(mapped);
    if (memcmp(read->offsets, mapped->offsets, (size_t)(mapped->n + 1) * 8) != 0)
        disagree("the mmap and read paths give different graphs", path);
    boxbfs_graph_free(slice);
    boxbfs_graph_free(read);
    boxbfs_graph_free(mapped);
    return 0;
}
