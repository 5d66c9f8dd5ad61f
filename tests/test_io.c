/* Graph file formats (src/io/): Matrix Market, SNAP and binary loaders on the
 * small fixtures in tests/data (LF, CRLF, no final newline, gzip), every kind
 * of bad input with its status and "file:line" message, binary and edge list
 * round trips (mmap and read paths), and, where $SHARED_DATASETS exists, the
 * vertex and edge counts of the real datasets listed in its SOURCES.md. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "boxbfs.h"
#include "common/search.h"
#include "graph/graph.h"
#include "io/io.h"

#include "check.h"

typedef enum { FMT_MTX, FMT_SNAP, FMT_BIN } format_t;

static char datadir[4096];
static char tmpdir[64];
static char created[64][4200];
static int ncreated;

static const char *data_path(const char *name)
{
    static char buf[4][4200];
    static int next;
    char *p = buf[next++ & 3];
    snprintf(p, sizeof buf[0], "%s/%s", datadir, name);
    return p;
}

/* A file in this test's temporary folder, removed at the end. */
static const char *tmp_path(const char *name)
{
    for (int i = 0; i < ncreated; i++) {
        const char *slash = strrchr(created[i], '/');
        if (strcmp(slash + 1, name) == 0) return created[i];
    }
    if (ncreated == 64) {
        fprintf(stderr, "too many temporary files\n");
        exit(99);
    }
    snprintf(created[ncreated], sizeof created[0], "%s/%s", tmpdir, name);
    return created[ncreated++];
}

static void find_datadir(void)
{
    const char *env = getenv("TESTDATA");
    struct stat sb;
    if (env != NULL && env[0] != '\0') {
        snprintf(datadir, sizeof datadir, "%s", env);
        return;
    }
    /* Run by hand: the data next to this source file, else ./tests/data. */
    snprintf(datadir, sizeof datadir, "%s", __FILE__);
    if (strrchr(datadir, '/') != NULL) {
        strcpy(strrchr(datadir, '/'), "/data");
        if (stat(datadir, &sb) == 0) return;
    }
    snprintf(datadir, sizeof datadir, "tests/data");
}

static boxbfs_status_t load(format_t fmt, const char *path, boxbfs_direction_t dir,
                            boxbfs_graph_t *g_p)
{
    switch (fmt) {
    case FMT_MTX: return bb_io_load_mtx(path, dir, 2, g_p);
    case FMT_SNAP: return bb_io_load_snap(path, dir, 2, g_p);
    case FMT_BIN: return bb_io_load_binary(path, g_p);
    }
    return BOXBFS_ERR_INTERNAL;
}

static boxbfs_graph_t load_ok(format_t fmt, const char *path, boxbfs_direction_t dir)
{
    boxbfs_graph_t g = NULL;
    boxbfs_status_t st = load(fmt, path, dir, &g);
    if (st != BOXBFS_OK) {
        fprintf(stderr, "loading %s: %s: %s\n", path, boxbfs_status_string(st),
                boxbfs_last_error());
        check_failures++;
        return NULL;
    }
    return g;
}

/* Loading must fail with want, leave *graph_p alone, and name the file, the
 * line (line > 0: "path:line:") and the problem (fragment). */
static void expect_error(format_t fmt, const char *path, boxbfs_status_t want, long line,
                         const char *fragment)
{
    boxbfs_graph_t g = NULL;
    boxbfs_status_t st = load(fmt, path, BOXBFS_DIRECTION_DEFAULT, &g);
    const char *msg = boxbfs_last_error();
    char prefix[4300];
    int ok = st == want && g == NULL && strstr(msg, path) != NULL && strstr(msg, fragment) != NULL;
    if (line > 0) {
        snprintf(prefix, sizeof prefix, "%s:%ld: ", path, line);
        ok = ok && strstr(msg, prefix) != NULL;
    }
    if (!ok) {
        fprintf(stderr, "bad input %s: got %s \"%s\", want %s with line %ld and \"%s\"\n", path,
                boxbfs_status_string(st), msg, boxbfs_status_string(want), line, fragment);
        check_failures++;
    }
    if (st == BOXBFS_OK) boxbfs_graph_free(g);
}

static int64_t external_of(boxbfs_graph_t g, int64_t v)
{
    return g->external != NULL ? g->external[v] : v + g->id_base;
}

static int64_t internal_of(boxbfs_graph_t g, int64_t ext)
{
    for (int64_t v = 0; v < g->n; v++)
        if (external_of(g, v) == ext) return v;
    return -1;
}

/* The neighbors of external vertex ext, as external ids, are exactly want[]
 * (ascending external order equals ascending internal order). */
static int row_is(boxbfs_graph_t g, int64_t ext, const int64_t *want, int64_t count)
{
    int64_t v = internal_of(g, ext);
    if (v < 0) return 0;
    if (g->offsets[v + 1] - g->offsets[v] != count) return 0;
    for (int64_t k = 0; k < count; k++)
        if (external_of(g, g->columns[g->offsets[v] + k]) != want[k]) return 0;
    return 1;
}

#define ROW(g, ext, ...)                                                            \
    do {                                                                            \
        const int64_t row_want_[] = {__VA_ARGS__};                                  \
        CHECK(row_is((g), (ext), row_want_, (int64_t)(sizeof row_want_ / sizeof row_want_[0]))); \
    } while (0)
#define ROW_EMPTY(g, ext) CHECK(row_is((g), (ext), NULL, 0))

/* Basic invariants of any loaded graph. */
static void check_csr(boxbfs_graph_t g)
{
    int64_t credit = 0;
    CHECK(g->offsets[0] == 0 && g->offsets[g->n] == g->arcs);
    for (int64_t v = 0; v < g->n; v++) {
        CHECK(g->offsets[v] <= g->offsets[v + 1]);
        credit += g->edge_credit[v];
        if (v > 0 && g->external != NULL) CHECK(g->external[v] > g->external[v - 1]);
    }
    CHECK(credit == g->input_edges);
}

static void check_small_mtx(boxbfs_graph_t g, const char *name)
{
    if (g == NULL) return;
    check_csr(g);
    CHECK(g->n == 5 && g->arcs == 10 && g->input_edges == 5 && !g->directed);
    CHECK(g->external == NULL && g->id_base == 1);
    CHECK(strcmp(g->name, name) == 0);
    ROW(g, 1, 2, 3);
    ROW(g, 2, 1, 3);
    ROW(g, 3, 1, 2, 4);
    ROW(g, 4, 3, 5);
    ROW(g, 5, 4);
    boxbfs_graph_free(g);
}

static void test_mtx(void)
{
    boxbfs_graph_t g;

    check_small_mtx(load_ok(FMT_MTX, data_path("io_small.mtx"), BOXBFS_DIRECTION_DEFAULT),
                    "io_small.mtx");
    check_small_mtx(load_ok(FMT_MTX, data_path("io_small.mtx"), BOXBFS_DIRECTION_UNDIRECTED),
                    "io_small.mtx");
    check_small_mtx(load_ok(FMT_MTX, data_path("io_crlf.mtx"), BOXBFS_DIRECTION_DEFAULT),
                    "io_crlf.mtx");
    check_small_mtx(load_ok(FMT_MTX, data_path("io_small.mtx.gz"), BOXBFS_DIRECTION_DEFAULT),
                    "io_small.mtx.gz");

    /* symmetric + DIRECTED: both arcs of every entry, two input edges each */
    g = load_ok(FMT_MTX, data_path("io_small.mtx"), BOXBFS_DIRECTION_DIRECTED);
    if (g != NULL) {
        check_csr(g);
        CHECK(g->n == 5 && g->arcs == 10 && g->input_edges == 10 && g->directed);
        ROW(g, 3, 1, 2, 4);
        ROW(g, 5, 4);
        boxbfs_graph_free(g);
    }

    /* general integer, lower-case banner: directed, self-loop and duplicate */
    g = load_ok(FMT_MTX, data_path("io_general.mtx"), BOXBFS_DIRECTION_DEFAULT);
    if (g != NULL) {
        check_csr(g);
        CHECK(g->n == 4 && g->arcs == 3 && g->input_edges == 5 && g->directed);
        CHECK(g->self_loops == 1 && g->duplicate_arcs == 1);
        ROW(g, 1, 2);
        ROW(g, 2, 3);
        ROW(g, 3, 1);
        ROW_EMPTY(g, 4);
        boxbfs_graph_free(g);
    }
    g = load_ok(FMT_MTX, data_path("io_general.mtx"), BOXBFS_DIRECTION_UNDIRECTED);
    if (g != NULL) {
        check_csr(g);
        CHECK(g->n == 4 && g->arcs == 6 && g->input_edges == 5 && !g->directed);
        ROW(g, 1, 2, 3);
        ROW(g, 2, 1, 3);
        ROW(g, 3, 1, 2);
        ROW_EMPTY(g, 4);
        boxbfs_graph_free(g);
    }
    g = load_ok(FMT_MTX, data_path("io_real.mtx"), BOXBFS_DIRECTION_DEFAULT);
    if (g != NULL) {
        CHECK(g->n == 3 && g->arcs == 3 && g->directed);
        ROW(g, 1, 2);
        ROW(g, 2, 3);
        ROW(g, 3, 2);
        boxbfs_graph_free(g);
    }
}

/* io_gaps.txt: 6 input edges, 7-100 given in both directions. Read back from
 * an edge list written by boxbfs, it has 5 undirected edges. */
static void check_gaps(boxbfs_graph_t g, int directed, int64_t input_edges)
{
    static const int64_t ids[] = {7, 10, 20, 30, 100};
    if (g == NULL) return;
    check_csr(g);
    CHECK(g->n == 5 && g->input_edges == input_edges && g->directed == directed);
    CHECK(g->id_base == 0);
    CHECK(g->external != NULL);
    if (g->external != NULL)
        for (int i = 0; i < 5; i++) CHECK(g->external[i] == ids[i]);
    if (directed) {
        CHECK(g->arcs == 6);
        ROW(g, 7, 100);
        ROW(g, 10, 7, 20);
        ROW(g, 20, 30);
        ROW(g, 30, 10);
        ROW(g, 100, 7);
    } else {
        CHECK(g->arcs == 10 && g->duplicate_arcs == 2 * (input_edges - 5));
        ROW(g, 7, 10, 100);
        ROW(g, 10, 7, 20, 30);
        ROW(g, 20, 10, 30);
        ROW(g, 30, 10, 20);
        ROW(g, 100, 7);
    }
    boxbfs_graph_free(g);
}

static void test_snap(void)
{
    boxbfs_graph_t g;

    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DEFAULT), 0, 6);
    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_UNDIRECTED), 0, 6);
    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DIRECTED), 1, 6);
    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps_crlf.txt"), BOXBFS_DIRECTION_DEFAULT), 0, 6);
    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps_crlf.txt"), BOXBFS_DIRECTION_DIRECTED), 1, 6);
    check_gaps(load_ok(FMT_SNAP, data_path("io_gaps.txt.gz"), BOXBFS_DIRECTION_DEFAULT), 0, 6);
    /* gzip members one after the other (cat a.gz b.gz c.gz) are one file */
    check_gaps(load_ok(FMT_SNAP, data_path("io_members.txt.gz"), BOXBFS_DIRECTION_DEFAULT), 0, 6);

    /* ids exactly 0..n-1: no external array needed */
    g = load_ok(FMT_SNAP, data_path("io_dense.txt"), BOXBFS_DIRECTION_DEFAULT);
    if (g != NULL) {
        check_csr(g);
        CHECK(g->n == 4 && g->arcs == 10 && g->input_edges == 5 && !g->directed);
        CHECK(g->external == NULL && g->id_base == 0);
        CHECK(strcmp(g->name, "io_dense.txt") == 0);
        ROW(g, 0, 1, 2, 3);
        ROW(g, 3, 0, 2);
        boxbfs_graph_free(g);
    }

    /* huge, sparse ids (sort path), INT64_MAX included */
    {
        const char *path = tmp_path("sparse.txt");
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f != NULL) {
            fprintf(f, "1000000000000 3\n3 1000000000007\n9223372036854775807 3\n");
            fclose(f);
            g = load_ok(FMT_SNAP, path, BOXBFS_DIRECTION_DIRECTED);
            if (g != NULL) {
                check_csr(g);
                CHECK(g->n == 4 && g->arcs == 3 && g->external != NULL);
                if (g->external != NULL)
                    CHECK(g->external[0] == 3 && g->external[1] == 1000000000000LL &&
                          g->external[2] == 1000000000007LL && g->external[3] == INT64_MAX);
                ROW(g, 3, 1000000000007LL);
                ROW(g, INT64_MAX, 3);
                boxbfs_graph_free(g);
            }
        }
    }
}

static void test_bad_text(void)
{
    static const struct {
        const char *file;
        format_t fmt;
        boxbfs_status_t status;
        long line;
        const char *fragment;
    } cases[] = {
        {"bad_banner.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 1, "missing Matrix Market banner"},
        {"bad_array.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 1, "dense 'array'"},
        {"bad_complex.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 1, "unsupported field 'complex'"},
        {"bad_skew.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 1, "unsupported symmetry 'skew-symmetric'"},
        {"bad_nonsquare.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 3, "matrix is 5 x 6, a graph needs"},
        {"bad_size.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 3, "missing entry count"},
        {"bad_truncated.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 4, "expected 4 entries, found 2"},
        {"bad_extra.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 5, "more entries than the 2 declared on"},
        {"bad_range.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 3, "vertex 9 out of range [1, 5]"},
        {"bad_zero.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 4, "vertex 0 out of range [1, 5]"},
        {"bad_token.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 4, "non-numeric token 'x1'"},
        {"bad_column.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 4, "missing column id"},
        {"bad_empty.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 0, "empty file"},
        {"bad_truncated.mtx.gz", FMT_MTX, BOXBFS_ERR_PARSE, 11, "truncated or corrupt gzip"},
        /* issue 16: header fields that feed allocations, gzip framing */
        {"bad_rows.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 3,
         "matrix has 2199023255552 rows, more than the 1099511627776 vertices boxbfs accepts"},
        {"bad_entries.mtx", FMT_MTX, BOXBFS_ERR_PARSE, 4,
         "expected 9223372036854775807 entries, found 1"},
        {"bad_trailing.txt.gz", FMT_SNAP, BOXBFS_ERR_PARSE, 3,
         "unexpected data after the end of the gzip data (byte 28 of the file is not the start "
         "of another gzip member)"},
        {"bad_negative.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 3, "negative target vertex id -3"},
        {"bad_token.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 2, "non-numeric token 'x1'"},
        {"bad_third.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 3, "unexpected token '1' after the two"},
        {"bad_large.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 2, "number too large"},
        {"bad_comments.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 0, ": no edges"},
        {"bad_empty.txt", FMT_SNAP, BOXBFS_ERR_PARSE, 0, ": no edges"},
        {"no_such_file.mtx", FMT_MTX, BOXBFS_ERR_IO, 0, "cannot open"},
        {"no_such_file.txt", FMT_SNAP, BOXBFS_ERR_IO, 0, "cannot open"},
        {"no_such_file.bbcsr", FMT_BIN, BOXBFS_ERR_IO, 0, "cannot open"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].fmt, data_path(cases[i].file), cases[i].status, cases[i].line,
                     cases[i].fragment);

    /* Errors found inside a CRLF file and on a last line without newline. */
    {
        const char *path = tmp_path("bad_crlf.mtx");
        FILE *f = fopen(path, "wb");
        if (f != NULL) {
            fputs("%%MatrixMarket matrix coordinate pattern general\r\n3 3 2\r\n1 2\r\n3 4", f);
            fclose(f);
            expect_error(FMT_MTX, path, BOXBFS_ERR_PARSE, 4, "vertex 4 out of range [1, 3]");
        }
        path = tmp_path("bad_nul.txt");
        f = fopen(path, "wb");
        if (f != NULL) {
            fwrite("1 2\n3 4\0junk\n", 1, 13, f);
            fclose(f);
            expect_error(FMT_SNAP, path, BOXBFS_ERR_PARSE, 2, "NUL byte");
        }
    }
    /* gzip cut in the middle of the deflate stream */
    {
        const char *path = tmp_path("cut.mtx.gz");
        gzFile gz = gzopen(path, "wb");
        CHECK(gz != NULL);
        if (gz != NULL) {
            gzprintf(gz, "%%%%MatrixMarket matrix coordinate pattern general\n4000 4000 4000\n");
            for (int i = 1; i <= 4000; i++) gzprintf(gz, "%d %d\n", i, (i * 7919) % 4000 + 1);
            gzclose(gz);
            CHECK(truncate(path, 6000) == 0);
            expect_error(FMT_MTX, path, BOXBFS_ERR_PARSE, 0, "truncated or corrupt gzip");
        }
    }
    /* The vertex limit (lowered by the fuzz harnesses) applies to every format. */
    bb_io_set_max_vertices(4);
    expect_error(FMT_MTX, data_path("io_small.mtx"), BOXBFS_ERR_PARSE, 4,
                 "matrix has 5 rows, more than the 4 vertices boxbfs accepts");
    expect_error(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_ERR_PARSE, 0,
                 "5 distinct vertex ids, more than the 4 vertices boxbfs accepts");
    bb_io_set_max_vertices(0);   /* back to the default */
    CHECK(bb_io_max_vertices() == BB_IO_MAX_VERTICES);
    /* Through the public loader, which picks the format by suffix. */
    {
        boxbfs_graph_t g = NULL;
        CHECK(boxbfs_graph_load(data_path("bad_range.mtx"), NULL, &g) == BOXBFS_ERR_PARSE);
        CHECK(g == NULL && strstr(boxbfs_last_error(), "bad_range.mtx:3: vertex 9") != NULL);
    }
}

/* ---- binary ---------------------------------------------------------------- */

static int same_graph(boxbfs_graph_t a, boxbfs_graph_t b)
{
    if (a->n != b->n || a->arcs != b->arcs || a->input_edges != b->input_edges ||
        a->directed != b->directed || a->id_base != b->id_base || a->self_loops != b->self_loops ||
        a->duplicate_arcs != b->duplicate_arcs || strcmp(a->name, b->name) != 0)
        return 0;
    if ((a->external == NULL) != (b->external == NULL)) return 0;
    if (memcmp(a->offsets, b->offsets, (size_t)(a->n + 1) * 8) != 0) return 0;
    if (a->arcs > 0 && memcmp(a->columns, b->columns, (size_t)a->arcs * 8) != 0) return 0;
    if (memcmp(a->edge_credit, b->edge_credit, (size_t)a->n * 8) != 0) return 0;
    if (a->external != NULL && memcmp(a->external, b->external, (size_t)a->n * 8) != 0) return 0;
    return 1;
}

static void round_trip(boxbfs_graph_t g, const char *name)
{
    const char *path = tmp_path(name);
    boxbfs_graph_t back;
    if (g == NULL) return;
    CHECK_OK(bb_io_save_binary(g, path));
    back = load_ok(FMT_BIN, path, BOXBFS_DIRECTION_DEFAULT);
    if (back != NULL) {
        CHECK(same_graph(g, back));
        CHECK(back->mapping != NULL && back->mapping_bytes > 0);
        boxbfs_graph_free(back);
    }
    setenv("BOXBFS_NO_MMAP", "1", 1);   /* the read() path */
    back = load_ok(FMT_BIN, path, BOXBFS_DIRECTION_DEFAULT);
    unsetenv("BOXBFS_NO_MMAP");
    if (back != NULL) {
        CHECK(same_graph(g, back));
        CHECK(back->mapping == NULL);
        boxbfs_graph_free(back);
    }
}

static void round_trip_file(format_t fmt, const char *file, boxbfs_direction_t dir,
                            const char *name)
{
    boxbfs_graph_t g = load_ok(fmt, data_path(file), dir);
    round_trip(g, name);
    boxbfs_graph_free(g);
}

static int copy_file(const char *from, const char *to, long cut_bytes, const char *append)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[1 << 14];
    long total, done = 0;
    size_t got;
    if (in == NULL || out == NULL) goto fail;
    fseek(in, 0, SEEK_END);
    total = ftell(in) - cut_bytes;
    rewind(in);
    while (done < total && (got = fread(buf, 1, sizeof buf, in)) > 0) {
        if ((long)got > total - done) got = (size_t)(total - done);
        fwrite(buf, 1, got, out);
        done += (long)got;
    }
    if (append != NULL) fputs(append, out);
    fclose(in);
    return fclose(out) == 0 ? 0 : -1;
fail:
    if (in != NULL) fclose(in);
    if (out != NULL) fclose(out);
    return -1;
}

static void patch_file(const char *path, long offset, const void *bytes, size_t count)
{
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, bytes, count, offset) == (ssize_t)count);
    if (fd >= 0) close(fd);
}

/* gzip framing: a gzip member followed by bytes that start no other member
 * (gzread dropped them silently, and the edges in them), a stray byte, a
 * second member cut after its magic, a cut trailer, reserved header flags. */
static void test_gzip_framing(void)
{
    const char *path = tmp_path("garbage.txt.gz");
    CHECK(copy_file(data_path("io_gaps.txt.gz"), path, 0, "\x1f") == 0);
    expect_error(FMT_SNAP, path, BOXBFS_ERR_PARSE, 0, "unexpected data after the end of the gzip");
    CHECK(copy_file(data_path("io_gaps.txt.gz"), path, 0, "\x1f\x8b") == 0);
    expect_error(FMT_SNAP, path, BOXBFS_ERR_PARSE, 0, "truncated or corrupt gzip data");
    CHECK(copy_file(data_path("io_gaps.txt.gz"), path, 4, NULL) == 0);
    expect_error(FMT_SNAP, path, BOXBFS_ERR_PARSE, 0, "truncated or corrupt gzip data");
    patch_file(path, 3, "\xe0", 1);
    expect_error(FMT_SNAP, path, BOXBFS_ERR_PARSE, 1, "truncated or corrupt gzip data");
}

/* Save a graph with one in-memory defect; the checksums are right, so the
 * loader's structural checks must find it. */
static void expect_structure_error(int defect, const char *fragment)
{
    boxbfs_graph_t g = load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DEFAULT);
    const char *path = tmp_path("defect.bbcsr");
    if (g == NULL) return;
    switch (defect) {
    case 0: g->columns[3] = g->n + 5; break;                     /* column out of range */
    case 1: g->columns[1] = g->columns[0]; break;                /* row not ascending */
    case 2: g->offsets[2] = g->offsets[3] + 1; break;            /* offsets not monotone */
    case 3: g->input_edges += 1; break;                          /* credits do not add up */
    case 4: g->external[4] = g->external[3]; break;              /* external ids repeat */
    case 5: g->id_base = -1; break;                              /* ids below 0 */
    case 6: g->external[0] = -1; break;                          /* "no vertex" as an id */
    case 8: g->columns[8] = 3; break;                            /* 30 -> 20 gone: 30 -> 30 */
    case 9: g->columns[9] = 3; break;                            /* 100 -> 7 gone: 100 -> 30 */
    case 7:                                                      /* credits overflow */
        g->input_edges = INT64_MAX;
        g->edge_credit[0] = g->edge_credit[1] = INT64_MAX;
        break;
    }
    CHECK_OK(bb_io_save_binary(g, path));
    expect_error(FMT_BIN, path, BOXBFS_ERR_PARSE, 0, fragment);
    boxbfs_graph_free(g);
}

/* The row checks and the symmetry fingerprint of a graph with 2^20 arcs or
 * more run over threads (io/binary.c): a defect is named as one pass names
 * it, and of two in different threads' rows the one in the lower row. */
static void test_binary_large(void)
{
    const char *path = tmp_path("large.bbcsr");
    for (int defect = 0; defect < 3; defect++) {
        boxbfs_graph_t g = NULL;
        int64_t v, k, col_base;
        char want[200];
        CHECK_OK(boxbfs_graph_load("kron:16", NULL, &g));
        if (g == NULL) return;
        CHECK(g->arcs >= (int64_t)1 << 20 && !g->directed);
        col_base = 384 + 8 * (g->n + 1);
        v = bb_lower_bound_i64(g->offsets, 0, g->n + 1, g->arcs / 10 * 3);   /* a third in */
        while (g->offsets[v + 1] - g->offsets[v] < 2) v++;
        k = g->offsets[v] + 1;
        switch (defect) {
        case 0:   /* out of range, and in the last row (another thread's) a repeat */
            g->columns[k] = g->n + 5;
            g->columns[g->arcs - 1] = g->columns[g->arcs - 2];
            snprintf(want, sizeof want, "column %lld out of range [0, %lld) in the row of vertex "
                     "%lld (byte %lld)", (long long)(g->n + 5), (long long)g->n, (long long)v,
                     (long long)(col_base + 8 * k));
            break;
        case 1:   /* a repeat, and in the last row a column out of range */
            g->columns[k] = g->columns[k - 1];
            g->columns[g->arcs - 1] = g->n;
            snprintf(want, sizeof want, "row of vertex %lld not strictly ascending (byte %lld)",
                     (long long)v, (long long)(col_base + 8 * k));
            break;
        default:   /* a row's last column one higher: ascending, in range, not symmetric */
            k = g->offsets[v + 1] - 1;
            while (g->columns[k] + 1 >= g->n) k = g->offsets[++v + 1] - 1;
            g->columns[k]++;
            snprintf(want, sizeof want, "has no reverse arc");
            break;
        }
        CHECK_OK(bb_io_save_binary(g, path));
        expect_error(FMT_BIN, path, BOXBFS_ERR_PARSE, 0, want);
        boxbfs_graph_free(g);
    }
}

static void test_binary(void)
{
    boxbfs_graph_t g;
    const char *good = tmp_path("good.bbcsr"), *bad = tmp_path("bad.bbcsr");
    uint32_t version = 2;

    round_trip_file(FMT_MTX, "io_small.mtx", BOXBFS_DIRECTION_DEFAULT, "a.bbcsr");
    round_trip_file(FMT_MTX, "io_general.mtx", BOXBFS_DIRECTION_DEFAULT, "b.bbcsr");
    round_trip_file(FMT_SNAP, "io_gaps.txt", BOXBFS_DIRECTION_DIRECTED, "c.bbcsr");
    round_trip_file(FMT_SNAP, "io_dense.txt", BOXBFS_DIRECTION_DEFAULT, "d.bbcsr");

    g = load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DEFAULT);
    if (g == NULL) return;
    CHECK_OK(bb_io_save_binary(g, good));

    /* external ids survive the round trip */
    {
        boxbfs_graph_t back = load_ok(FMT_BIN, good, BOXBFS_DIRECTION_DEFAULT);
        if (back != NULL) {
            CHECK(same_graph(g, back));
            CHECK(back->external != NULL && back->external[4] == 100);
            ROW(back, 10, 7, 20, 30);
            boxbfs_graph_free(back);
        }
    }

    CHECK(copy_file(good, bad, 0, NULL) == 0);
    patch_file(bad, 0, "X", 1);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "bad magic");

    CHECK(copy_file(good, bad, 0, NULL) == 0);
    patch_file(bad, 12, &version, sizeof version);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "unsupported format version 2");

    CHECK(copy_file(good, bad, 0, NULL) == 0);
    patch_file(bad, 24, "\x07", 1);   /* n */
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "header checksum mismatch");

    CHECK(copy_file(good, bad, 0, NULL) == 0);
    patch_file(bad, 384 + 8 * 6 + 8, "\x01", 1);   /* a column id */
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "payload checksum mismatch");
    setenv("BOXBFS_NO_MMAP", "1", 1);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "payload checksum mismatch");
    unsetenv("BOXBFS_NO_MMAP");

    CHECK(copy_file(good, bad, 8, NULL) == 0);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "truncated");
    CHECK(copy_file(good, bad, 0, "trailing") == 0);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "unexpected bytes after the payload");
    CHECK(copy_file(good, bad, 0, NULL) == 0);
    CHECK(truncate(bad, 100) == 0);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "shorter than the 384-byte header");
    CHECK(truncate(bad, 0) == 0);
    expect_error(FMT_BIN, bad, BOXBFS_ERR_PARSE, 0, "bad magic");
    expect_error(FMT_BIN, data_path("io_small.mtx"), BOXBFS_ERR_PARSE, 0, "bad magic");
    expect_error(FMT_BIN, data_path("io_small.mtx.gz"), BOXBFS_ERR_UNSUPPORTED, 0, "gunzip first");
    {
        const char *gz = tmp_path("good.bbcsr.gz");
        CHECK(copy_file(good, gz, 0, NULL) == 0);
        expect_error(FMT_BIN, gz, BOXBFS_ERR_UNSUPPORTED, 0,
                     "compressed binary graphs are not supported, gunzip first");
        CHECK(bb_io_save_binary(g, gz) == BOXBFS_ERR_UNSUPPORTED);
    }

    expect_structure_error(0, "out of range [0, 5)");
    expect_structure_error(1, "not strictly ascending");
    expect_structure_error(2, "offsets not monotone");
    expect_structure_error(3, "edge credits sum to 6, the header says 7");
    expect_structure_error(4, "external ids not strictly ascending");
    expect_structure_error(5, "negative id base -1 (byte 48)");
    expect_structure_error(6, "external id -1 of vertex 0 (byte 552) is negative");
    expect_structure_error(7, "edge credits up to vertex 1 (byte 520) exceed the header's");

    /* issue 16: every id of the file must fit in [0, INT64_MAX] (an id base
     * near INT64_MAX made external ids overflow: --output printed negative
     * ids), and the credits must not overflow while they are summed */
    expect_error(FMT_BIN, data_path("bad_id_base.bbcsr"), BOXBFS_ERR_PARSE, 0,
                 "id base 9223372036854775806 (byte 48) + n 5 - 1 exceeds the largest vertex id");
    expect_error(FMT_BIN, data_path("bad_id_negative.bbcsr"), BOXBFS_ERR_PARSE, 0,
                 "negative id base -3 (byte 48)");
    expect_error(FMT_BIN, data_path("bad_credit_sum.bbcsr"), BOXBFS_ERR_PARSE, 0,
                 "edge credits up to vertex 1 (byte 520) exceed the header's 9223372036854775807");
    expect_error(FMT_BIN, data_path("bad_external.bbcsr"), BOXBFS_ERR_PARSE, 0,
                 "external id -7 of vertex 0 (byte 552) is negative");
    /* found by tests/fuzz/fuzz_bbcsr: the directed flag cleared on a directed
     * graph's rows; the reference BFS's tree then failed validation */
    expect_error(FMT_BIN, data_path("bad_asymmetric.bbcsr"), BOXBFS_ERR_PARSE, 0,
                 "the graph is undirected (flags, byte 16) but arc 0 -> 1 (byte 424) has no "
                 "reverse arc");
    expect_structure_error(8, "but arc 2 -> 3 (byte 480) has no reverse arc");
    expect_structure_error(9, "but arc 0 -> 4 (byte 440) has no reverse arc");
    {   /* the largest id base that fits: the last vertex is INT64_MAX */
        boxbfs_graph_t top = load_ok(FMT_MTX, data_path("io_small.mtx"), BOXBFS_DIRECTION_DEFAULT);
        const char *path = tmp_path("top.bbcsr");
        if (top != NULL) {
            boxbfs_graph_t back;
            int64_t v = -1;
            top->id_base = INT64_MAX - 4;
            CHECK_OK(bb_io_save_binary(top, path));
            back = load_ok(FMT_BIN, path, BOXBFS_DIRECTION_DEFAULT);
            if (back != NULL) {
                CHECK(boxbfs_graph_external_id(back, 4) == INT64_MAX);
                CHECK(boxbfs_graph_external_id(back, 0) == INT64_MAX - 4);
                CHECK_OK(boxbfs_graph_internal_id(back, INT64_MAX, &v));
                CHECK(v == 4);
                boxbfs_graph_free(back);
            }
            top->id_base = INT64_MAX - 3;
            CHECK_OK(bb_io_save_binary(top, path));
            expect_error(FMT_BIN, path, BOXBFS_ERR_PARSE, 0, "exceeds the largest vertex id");
            boxbfs_graph_free(top);
        }
    }

    /* write failures */
    CHECK(bb_io_save_binary(g, "/nonexistent-dir/g.bbcsr") == BOXBFS_ERR_IO);
    CHECK(strstr(boxbfs_last_error(), "/nonexistent-dir/g.bbcsr: cannot create") != NULL);
    if (access("/dev/full", W_OK) == 0) {
        CHECK(bb_io_save_binary(g, "/dev/full") == BOXBFS_ERR_IO);
        CHECK(strstr(boxbfs_last_error(), "/dev/full: write error") != NULL);
    }
    boxbfs_graph_free(g);
}

/* ---- edge list writer ------------------------------------------------------- */

static void test_edgelist(void)
{
    boxbfs_graph_t g, back;
    const char *txt = tmp_path("out.txt"), *gz = tmp_path("out.txt.gz");
    const char *dtxt = tmp_path("outd.txt"), *mtxt = tmp_path("outm.txt");
    char line[256];
    FILE *f;

    g = load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DEFAULT);
    if (g == NULL) return;
    CHECK_OK(bb_io_save_edgelist(g, txt));
    f = fopen(txt, "r");
    CHECK(f != NULL);
    if (f != NULL) {
        int lines = 0, header = 0;
        while (fgets(line, sizeof line, f) != NULL) {
            if (strcmp(line, "# boxbfs edge list: io_gaps.txt\n") == 0) header++;
            if (strcmp(line, "# Nodes: 5 Edges: 5\n") == 0) header++;
            if (line[0] != '#') lines++;
        }
        fclose(f);
        CHECK(header == 2 && lines == 5);
    }
    check_gaps(load_ok(FMT_SNAP, txt, BOXBFS_DIRECTION_DEFAULT), 0, 5);
    CHECK_OK(bb_io_save_edgelist(g, gz));
    check_gaps(load_ok(FMT_SNAP, gz, BOXBFS_DIRECTION_DEFAULT), 0, 5);
    boxbfs_graph_free(g);

    g = load_ok(FMT_SNAP, data_path("io_gaps.txt"), BOXBFS_DIRECTION_DIRECTED);
    if (g != NULL) {
        CHECK_OK(bb_io_save_edgelist(g, dtxt));
        check_gaps(load_ok(FMT_SNAP, dtxt, BOXBFS_DIRECTION_DIRECTED), 1, 6);
        boxbfs_graph_free(g);
    }

    /* Matrix Market ids are written 1-based and come back as external ids. */
    g = load_ok(FMT_MTX, data_path("io_small.mtx"), BOXBFS_DIRECTION_DEFAULT);
    if (g != NULL) {
        CHECK_OK(bb_io_save_edgelist(g, mtxt));
        back = load_ok(FMT_SNAP, mtxt, BOXBFS_DIRECTION_DEFAULT);
        if (back != NULL) {
            CHECK(back->n == 5 && back->arcs == 10 && back->external != NULL);
            CHECK(back->external != NULL && back->external[0] == 1 && back->external[4] == 5);
            ROW(back, 3, 1, 2, 4);
            boxbfs_graph_free(back);
        }

        /* "-" is stdout: redirect it to a file for the check */
        {
            const char *out = tmp_path("stdout.txt");
            int saved = dup(STDOUT_FILENO), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            fflush(stdout);
            if (saved >= 0 && fd >= 0) {
                dup2(fd, STDOUT_FILENO);
                CHECK_OK(bb_io_save_edgelist(g, "-"));
                fflush(stdout);
                dup2(saved, STDOUT_FILENO);
                back = load_ok(FMT_SNAP, out, BOXBFS_DIRECTION_DEFAULT);
                if (back != NULL) {
                    CHECK(back->n == 5 && back->arcs == 10);
                    boxbfs_graph_free(back);
                }
            }
            if (fd >= 0) close(fd);
            if (saved >= 0) close(saved);
        }

        CHECK(bb_io_save_edgelist(g, "/nonexistent-dir/g.txt") == BOXBFS_ERR_IO);
        CHECK(strstr(boxbfs_last_error(), "/nonexistent-dir/g.txt: cannot create") != NULL);
        if (access("/dev/full", W_OK) == 0) {
            CHECK(bb_io_save_edgelist(g, "/dev/full") == BOXBFS_ERR_IO);
            CHECK(strstr(boxbfs_last_error(), "/dev/full: write error") != NULL);
        }
        boxbfs_graph_free(g);
    }
}

/* ---- real datasets ------------------------------------------------------------ */

static void test_datasets(void)
{
    static const struct {
        const char *file;
        format_t fmt;
        boxbfs_direction_t dir;
        int64_t n, input_edges, arcs;
        int directed;
    } sets[] = {
        /* counts from shared/datasets/SOURCES.md */
        {"chesapeake.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 39, 170, 340, 0},
        {"delaunay_n10.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 1024, 3056, 6112, 0},
        {"delaunay_n12.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 4096, 12264, 24528, 0},
        {"delaunay_n14.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 16384, 49122, 98244, 0},
        {"luxembourg_osm.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 114599, 119666, 239332, 0},
        {"USA-road-FLA.mtx.gz", FMT_MTX, BOXBFS_DIRECTION_DEFAULT, 1070376, 1343951, 2687902, 0},
        /* every edge appears in both directions: 183,831 undirected edges */
        {"email-Enron.txt.gz", FMT_SNAP, BOXBFS_DIRECTION_DEFAULT, 36692, 367662, 367662, 0},
        {"facebook_combined.txt.gz", FMT_SNAP, BOXBFS_DIRECTION_DEFAULT, 4039, 88234, 176468, 0},
        {"wiki-Vote.txt.gz", FMT_SNAP, BOXBFS_DIRECTION_DIRECTED, 7115, 103689, 103689, 1},
        /* 100,762 undirected pairs */
        {"wiki-Vote.txt.gz", FMT_SNAP, BOXBFS_DIRECTION_DEFAULT, 7115, 103689, 201524, 0},
    };
    const char *dir = getenv("SHARED_DATASETS");
    struct stat sb;
    char path[4200];

    if (dir == NULL || dir[0] == '\0' || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "note: $SHARED_DATASETS not set or absent, real datasets skipped\n");
        return;
    }
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        boxbfs_graph_t g;
        snprintf(path, sizeof path, "%s/%s", dir, sets[i].file);
        if (stat(path, &sb) != 0) {
            fprintf(stderr, "note: %s missing, skipped\n", path);
            continue;
        }
        g = load_ok(sets[i].fmt, path, sets[i].dir);
        if (g == NULL) continue;
        if (g->n != sets[i].n || g->input_edges != sets[i].input_edges || g->arcs != sets[i].arcs ||
            g->directed != sets[i].directed) {
            fprintf(stderr, "%s: n %lld input edges %lld arcs %lld directed %d, "
                    "want %lld %lld %lld %d\n", path, (long long)g->n, (long long)g->input_edges,
                    (long long)g->arcs, g->directed,
                    (long long)sets[i].n, (long long)sets[i].input_edges, (long long)sets[i].arcs,
                    sets[i].directed);
            check_failures++;
        }
        check_csr(g);
        if (strcmp(sets[i].file, "wiki-Vote.txt.gz") == 0) {
            /* ids 3..8297 with gaps, kept as external ids */
            CHECK(g->external != NULL && g->external[0] == 3 && g->external[g->n - 1] == 8297);
            if (sets[i].directed) round_trip(g, "wiki.bbcsr");
        }
        boxbfs_graph_free(g);
    }
}

int main(void)
{
    find_datadir();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_io.XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        return 99;
    }
    test_mtx();
    test_snap();
    test_bad_text();
    test_binary();
    test_binary_large();
    test_gzip_framing();
    test_edgelist();
    test_datasets();
    for (int i = 0; i < ncreated; i++) unlink(created[i]);
    rmdir(tmpdir);
    CHECK_DONE();
}
