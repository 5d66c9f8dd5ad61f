/* Binary CSR files (.bbcsr): a 384-byte header (magic, version, flags, sizes,
 * counters, name, a checksum of the header and one of the payload), then the
 * payload of little-endian 64-bit words, 8-byte aligned: offsets[n + 1],
 * columns[arcs], edge_credit[n], external[n] (when flag 2 is set). Loading
 * maps the file (MAP_PRIVATE) and points the graph into it; where mmap fails,
 * or BOXBFS_NO_MMAP is set in the environment, the arrays are read instead.
 * Every size, the checksums and the CSR invariants (an undirected graph's
 * rows symmetric among them) are checked before use, and every field that
 * feeds arithmetic is range-checked first (ids fit in [0, INT64_MAX], the
 * edge credits' sum cannot overflow). A slice (bb_io_load_binary_rows) reads
 * everything but the columns of the other rows, and checks the same except
 * the payload checksum and the symmetry, which need every row. */
#include "config.h"

#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/search.h"
#include "common/threads.h"
#include "graph/graph.h"

#define FORMAT_VERSION 1u
#define FLAG_DIRECTED 1u
#define FLAG_EXTERNAL 2u
#define HEADER_BYTES 384u
/* Arcs from which the row checks and the symmetry fingerprint run on every CPU. */
#define CHECK_PARALLEL_FROM ((int64_t)1 << 20)

static int check_threads(int64_t arcs)
{
    return arcs >= CHECK_PARALLEL_FROM ? bb_cpu_count() : 1;
}

static const char magic[12] = "BOXBFSCSR";   /* NUL-padded */

typedef struct {
    char magic[12];
    uint32_t version;
    uint32_t flags;
    uint32_t header_bytes;
    int64_t n, arcs, input_edges, id_base, self_loops, duplicate_arcs;
    uint64_t payload_bytes;
    uint64_t payload_checksum;   /* hash of the payload words */
    uint64_t header_checksum;    /* hash of this header with this field zero */
    char name[256];
    uint8_t reserved[32];        /* zero */
} file_header_t;

_Static_assert(sizeof(file_header_t) == HEADER_BYTES, "the .bbcsr header is 384 bytes");
_Static_assert(offsetof(file_header_t, n) == 24, "header field n at byte 24");
_Static_assert(offsetof(file_header_t, name) == 96, "header field name at byte 96");

/* ---- checksum: xxh64-style, four independent lanes over 64-bit words -------
 * (several GB/s: the lanes' multiplies overlap). Streaming over several
 * arrays gives the same value as one pass over their concatenation. */
#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull

typedef struct {
    uint64_t lane[4];
    uint64_t words;
} hash_t;

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t mix_round(uint64_t acc, uint64_t w) { return rotl64(acc + w * P2, 31) * P1; }

static void hash_init(hash_t *h)
{
    h->lane[0] = P1 + P2;
    h->lane[1] = P2;
    h->lane[2] = 0;
    h->lane[3] = 0 - P1;
    h->words = 0;
}

static void hash_update(hash_t *h, const int64_t *data, int64_t count)
{
    const uint64_t *w = (const uint64_t *)data;
    int64_t k = 0;
    uint64_t a, b, c, d;
    while (k < count && (h->words & 3) != 0) {
        h->lane[h->words & 3] = mix_round(h->lane[h->words & 3], w[k++]);
        h->words++;
    }
    a = h->lane[0];
    b = h->lane[1];
    c = h->lane[2];
    d = h->lane[3];
    for (; k + 4 <= count; k += 4) {
        a = mix_round(a, w[k]);
        b = mix_round(b, w[k + 1]);
        c = mix_round(c, w[k + 2]);
        d = mix_round(d, w[k + 3]);
        h->words += 4;
    }
    h->lane[0] = a;
    h->lane[1] = b;
    h->lane[2] = c;
    h->lane[3] = d;
    while (k < count) {
        h->lane[h->words & 3] = mix_round(h->lane[h->words & 3], w[k++]);
        h->words++;
    }
}

static uint64_t hash_final(const hash_t *h)
{
    uint64_t x = rotl64(h->lane[0], 1) + rotl64(h->lane[1], 7) + rotl64(h->lane[2], 12) +
                 rotl64(h->lane[3], 18);
    for (int i = 0; i < 4; i++) x = (x ^ mix_round(0, h->lane[i])) * P1 + P4;
    x += h->words * 8u;
    x ^= x >> 33;
    x *= P2;
    x ^= x >> 29;
    x *= P3;
    x ^= x >> 32;
    return x;
}

static uint64_t header_hash(const file_header_t *hdr)
{
    file_header_t copy = *hdr;
    int64_t words[HEADER_BYTES / 8];   /* the bytes as words, without type punning */
    hash_t h;
    copy.header_checksum = 0;
    memcpy(words, &copy, sizeof words);
    hash_init(&h);
    hash_update(&h, words, HEADER_BYTES / 8);
    return hash_final(&h);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* ---- loading ------------------------------------------------------------- */

/* Payload words for a header; 0 when the sizes overflow. */
static uint64_t payload_words(const file_header_t *h)
{
    const uint64_t limit = (uint64_t)1 << 58;   /* keeps every sum below 2^61 words */
    uint64_t n = (uint64_t)h->n, arcs = (uint64_t)h->arcs;
    if (n >= limit || arcs >= limit) return 0;
    return (n + 1) + arcs + n + ((h->flags & FLAG_EXTERNAL) ? n : 0);
}

static boxbfs_status_t check_header(const char *path, const file_header_t *h, int64_t file_bytes)
{
    uint64_t words, expect;
    uint32_t v = h->version;
    uint32_t swapped = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);

    if (memcmp(h->magic, magic, sizeof magic) != 0)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: bad magic at byte 0: not a boxbfs binary graph (.bbcsr)", path);
    if (v != FORMAT_VERSION) {
        if (swapped == FORMAT_VERSION)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s: written on a host of the other byte order (version field at "
                                "byte 12 is byte-swapped)", path);
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: unsupported format version %u (byte 12); this boxbfs reads "
                            "version %u", path, v, FORMAT_VERSION);
    }
    if (h->header_bytes != HEADER_BYTES)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: header size %u (byte 20), expected %u", path,
                            h->header_bytes, HEADER_BYTES);
    if (header_hash(h) != h->header_checksum)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: header checksum mismatch (bytes 0-383): the file is corrupt",
                            path);
    if ((h->flags & ~(FLAG_DIRECTED | FLAG_EXTERNAL)) != 0)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: unknown flags 0x%x (byte 16)", path,
                            h->flags & ~(FLAG_DIRECTED | FLAG_EXTERNAL));
    if (h->n <= 0 || h->arcs < 0 || h->input_edges < 0 || h->self_loops < 0 ||
        h->duplicate_arcs < 0)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: impossible sizes in the header: n %lld, arcs %lld, input edges "
                            "%lld, self-loops %lld, duplicate arcs %lld", path, (long long)h->n,
                            (long long)h->arcs, (long long)h->input_edges,
                            (long long)h->self_loops, (long long)h->duplicate_arcs);
    /* Vertex i is external id id_base + i (without an external array): every
     * id must fit in [0, INT64_MAX], and -1 means "no vertex". */
    if (h->id_base < 0)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: negative id base %lld (byte 48)", path,
                            (long long)h->id_base);
    if (h->id_base > INT64_MAX - (h->n - 1))
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: id base %lld (byte 48) + n %lld - 1 exceeds the largest vertex "
                            "id %lld", path, (long long)h->id_base, (long long)h->n,
                            (long long)INT64_MAX);
    if (h->n > bb_io_max_vertices())
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: %lld vertices (byte 24), more than the %lld "
                            "boxbfs accepts", path, (long long)h->n,
                            (long long)bb_io_max_vertices());
    if (memchr(h->name, '\0', sizeof h->name) == NULL)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: graph name (byte 96) is not terminated", path);
    words = payload_words(h);
    if (words == 0 || words * 8u != h->payload_bytes)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: payload size %llu (byte 72) does not match n %lld and arcs %lld",
                            path, (unsigned long long)h->payload_bytes, (long long)h->n,
                            (long long)h->arcs);
    expect = HEADER_BYTES + h->payload_bytes;
    if ((uint64_t)file_bytes < expect)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: truncated: the header describes %llu bytes, the file has %lld",
                            path, (unsigned long long)expect, (long long)file_bytes);
    if ((uint64_t)file_bytes > expect)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: %llu unexpected bytes after the payload (byte %llu)", path,
                            (unsigned long long)((uint64_t)file_bytes - expect),
                            (unsigned long long)expect);
    return BOXBFS_OK;
}

/* File position of word i of an array that starts at byte base. */
static unsigned long long byte_at(uint64_t base, int64_t i)
{
    return (unsigned long long)(base + 8u * (uint64_t)i);
}

/* The CSR invariants the engine relies on: a bad file must fail here, not
 * crash a search. Byte offsets name the first bad word. The offsets come
 * first: a slice's rows are chosen from them. */
static boxbfs_status_t check_offsets(const char *path, const struct boxbfs_graph *g)
{
    const int64_t n = g->n, *off = g->offsets;

    if (off[0] != 0 || off[n] != g->arcs)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: offsets must run from 0 to arcs %lld, found %lld .. %lld", path,
                            (long long)g->arcs, (long long)off[0], (long long)off[n]);
    for (int64_t v = 0; v < n; v++)
        if (off[v + 1] < off[v] || off[v + 1] > g->arcs)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s: offsets not monotone at vertex %lld (byte %llu): %lld then "
                                "%lld", path, (long long)v, byte_at(HEADER_BYTES, v + 1),
                                (long long)off[v], (long long)off[v + 1]);
    return BOXBFS_OK;
}

/* The row checks over threads, each on rows holding about the same arcs (of
 * a whole graph; a slice's split is uneven, its rows all covered):
 * its first bad arc (every column in [0, n), every row strictly ascending),
 * so that the lowest one of all is reported as one pass would. */
typedef struct {
    const struct boxbfs_graph *g;
    int64_t *bad;   /* per thread: the first bad global arc number k, -1 if none */
} rows_check_t;

static boxbfs_status_t check_rows(int tid, int nthreads, void *arg)
{
    rows_check_t *job = arg;
    const struct boxbfs_graph *g = job->g;
    const int64_t n = g->n, *off = g->offsets + g->row_lo, *col = g->columns;
    const int64_t base = g->columns_base;
    int64_t r0, r1;
    bb_rows_of_thread(off, g->row_hi - g->row_lo, tid, nthreads, &r0, &r1);
    job->bad[tid] = -1;
    for (int64_t r = r0; r < r1; r++)
        for (int64_t k = off[r]; k < off[r + 1]; k++) {
            int64_t c = col[k - base];
            if (c < 0 || c >= n || (k > off[r] && c <= col[k - 1 - base])) {
                job->bad[tid] = k;
                return BOXBFS_OK;
            }
        }
    return BOXBFS_OK;
}

/* The rest, on the rows the graph holds (k is a global arc number, its
 * column at columns[k - columns_base]). */
static boxbfs_status_t check_csr(const char *path, const struct boxbfs_graph *g)
{
    const int64_t n = g->n, *off = g->offsets, *col = g->columns, base = g->columns_base;
    const uint64_t col_base = HEADER_BYTES + 8u * (uint64_t)(n + 1);
    const uint64_t credit_base = col_base + 8u * (uint64_t)g->arcs;
    const uint64_t ext_base = credit_base + 8u * (uint64_t)n;
    int64_t credit = 0, bad = -1;

    if (g->row_hi > g->row_lo) {
        int threads = check_threads(off[g->row_hi] - off[g->row_lo]);
        rows_check_t job = {g, NULL};
        boxbfs_status_t st;
        BB_CHECK(bb_calloc((size_t)threads, sizeof *job.bad, "the row checks", &job.bad));
        st = bb_parallel_run(threads, check_rows, &job);
        for (int t = 0; t < threads && st == BOXBFS_OK && bad < 0; t++) bad = job.bad[t];
        free(job.bad);
        BB_CHECK(st);
    }
    if (bad >= 0) {   /* its row: the last v with off[v] <= bad */
        int64_t v = bb_lower_bound_i64(off, g->row_lo, g->row_hi + 1, bad + 1) - 1;
        int64_t c = col[bad - base];
        if (c < 0 || c >= n)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s: column %lld out of range [0, %lld) in the row of vertex "
                                "%lld (byte %llu)", path, (long long)c, (long long)n,
                                (long long)v, byte_at(col_base, bad));
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: row of vertex %lld not strictly ascending (byte %llu)", path,
                            (long long)v, byte_at(col_base, bad));
    }
    for (int64_t v = 0; v < n; v++) {
        if (g->edge_credit[v] < 0 || g->edge_credit[v] > g->input_edges)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s: edge credit %lld of vertex %lld (byte %llu) outside "
                                "[0, %lld]", path, (long long)g->edge_credit[v], (long long)v,
                                byte_at(credit_base, v), (long long)g->input_edges);
        /* credit <= input_edges so far: the sum cannot overflow */
        if (g->edge_credit[v] > g->input_edges - credit)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s: edge credits up to vertex %lld (byte %llu) exceed the "
                                "header's %lld input edges", path, (long long)v,
                                byte_at(credit_base, v), (long long)g->input_edges);
        credit += g->edge_credit[v];
    }
    if (credit != g->input_edges)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: edge credits sum to %lld, the header says %lld input edges", path,
                            (long long)credit, (long long)g->input_edges);
    if (g->external != NULL && g->external[0] < 0)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s: external id %lld of vertex 0 (byte %llu) is negative", path,
                            (long long)g->external[0], byte_at(ext_base, 0));
    if (g->external != NULL)
        for (int64_t v = 1; v < n; v++)
            if (g->external[v] <= g->external[v - 1])
                return bb_error_set(BOXBFS_ERR_PARSE,
                                    "%s: external ids not strictly ascending at vertex %lld "
                                    "(byte %llu)", path, (long long)v, byte_at(ext_base, v));
    return BOXBFS_OK;
}

/* An undirected graph stores each edge both ways: row v holds u exactly when
 * row u holds v (the search and its validation rely on it). Whole graphs
 * only: a slice holds the columns of its own rows.
 * First a fingerprint (over threads): every arc u -> v adds the hash of the pair
 * {u, v} when u < v and subtracts it when u > v, so the sum is 0 when the
 * graph is symmetric, and a missing reverse arc leaves a hash behind (the
 * rows have no duplicates). Only then, to name the arc, the exact pass: the
 * entries below u in row u must be, in order, the rows w < u that hold u, so
 * a cursor per row (next[u]) consumes them as those rows go by; it reads the
 * rows in random order, several times slower than the fingerprint. */
static inline uint64_t pair_hash(uint64_t lo, uint64_t hi)
{
    uint64_t x = lo * P1 + hi * P3;
    x ^= x >> 32;
    x *= P2;
    x ^= x >> 29;
    return x;
}

/* The fingerprint of a thread's rows (a sum: any split adds up the same). */
typedef struct {
    const struct boxbfs_graph *g;
    uint64_t *sum;   /* per thread */
} fingerprint_t;

static boxbfs_status_t fingerprint_rows(int tid, int nthreads, void *arg)
{
    fingerprint_t *job = arg;
    const int64_t *off = job->g->offsets, *col = job->g->columns;
    int64_t u0, u1;
    uint64_t sum = 0;
    bb_rows_of_thread(off, job->g->n, tid, nthreads, &u0, &u1);
    for (int64_t u = u0; u < u1; u++)
        for (int64_t k = off[u]; k < off[u + 1]; k++) {
            int64_t v = col[k];
            if (v > u) sum += pair_hash((uint64_t)u, (uint64_t)v);
            else if (v < u) sum -= pair_hash((uint64_t)v, (uint64_t)u);
        }
    job->sum[tid] = sum;
    return BOXBFS_OK;
}

static boxbfs_status_t check_symmetric(const char *path, const struct boxbfs_graph *g)
{
    const int64_t n = g->n, *off = g->offsets, *col = g->columns;
    const uint64_t col_base = HEADER_BYTES + 8u * (uint64_t)(n + 1);
    uint64_t sum = 0;
    int64_t *next, from = -1, to = -1, at = -1;
    int threads = check_threads(g->arcs);
    fingerprint_t job = {g, NULL};
    boxbfs_status_t st;

    BB_CHECK(bb_calloc((size_t)threads, sizeof *job.sum, "the symmetry check", &job.sum));
    st = bb_parallel_run(threads, fingerprint_rows, &job);
    for (int t = 0; t < threads; t++) sum += job.sum[t];
    free(job.sum);
    BB_CHECK(st);
    if (sum == 0) return BOXBFS_OK;

    BB_CHECK(bb_malloc((size_t)n * sizeof *next, "the symmetry check", &next));
    memcpy(next, off, (size_t)n * sizeof *next);
    for (int64_t u = 0; u < n && at < 0; u++) {
        if (next[u] < off[u + 1] && col[next[u]] < u) {   /* u -> w, w < u: no w -> u */
            from = u, to = col[next[u]], at = next[u];
            break;
        }
        for (int64_t k = off[u]; k < off[u + 1]; k++) {
            int64_t v = col[k];
            if (v <= u) continue;
            if (next[v] < off[v + 1] && col[next[v]] == u) {
                next[v]++;
                continue;
            }
            if (next[v] < off[v + 1] && col[next[v]] < u)   /* v -> w, w < u: no w -> v */
                from = v, to = col[next[v]], at = next[v];
            else
                from = u, to = v, at = k;
            break;
        }
    }
    free(next);
    if (at < 0) return BOXBFS_OK;   /* not reached: a symmetric graph sums to 0 exactly */
    return bb_error_set(BOXBFS_ERR_PARSE,
                        "%s: the graph is undirected (flags, byte 16) but arc %lld -> %lld "
                        "(byte %llu) has no reverse arc", path, (long long)from, (long long)to,
                        byte_at(col_base, at));
}

/* pread exactly bytes at offset. */
static boxbfs_status_t read_full(int fd, const char *path, void *buf, uint64_t bytes,
                                 uint64_t offset)
{
    char *p = buf;
    while (bytes > 0) {
        size_t chunk = bytes > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)bytes;
        ssize_t got = pread(fd, p, chunk, (off_t)offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            return bb_error_set(BOXBFS_ERR_IO, "%s: read error at byte %llu: %s", path,
                                (unsigned long long)offset, strerror(errno));
        if (got == 0)
            return bb_error_set(BOXBFS_ERR_PARSE, "%s: truncated: end of file at byte %llu", path,
                                (unsigned long long)offset);
        p += got;
        bytes -= (uint64_t)got;
        offset += (uint64_t)got;
    }
    return BOXBFS_OK;
}

/* Read one array of count words at *offset into a fresh block, hashing it on
 * the way (h may be NULL), and move *offset past it. */
static boxbfs_status_t read_array(int fd, const char *path, const char *what, int64_t count,
                                  uint64_t *offset, hash_t *h, int64_t **array_p)
{
    int64_t *a;
    boxbfs_status_t st;
    BB_CHECK(bb_malloc((size_t)count * sizeof *a, what, &a));
    st = read_full(fd, path, a, (uint64_t)count * 8u, *offset);
    if (st != BOXBFS_OK) {
        free(a);
        return st;
    }
    if (h != NULL) hash_update(h, a, count);
    *offset += (uint64_t)count * 8u;
    *array_p = a;
    return BOXBFS_OK;
}

/* Open path, read and check its header, and make a graph with the header's
 * sizes and no arrays yet. On failure nothing is left open. */
static boxbfs_status_t open_graph(const char *path, int *fd_p, file_header_t *h, off_t *size_p,
                                  boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_t g;
    struct stat sb;
    int fd;

    if (ends_with(path, ".gz"))
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "%s: compressed binary graphs are not supported, gunzip first", path);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return bb_error_set(BOXBFS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &sb) != 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_close, "%s: cannot stat: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_close, "%s: not a regular file", path);
    memset(h, 0, sizeof *h);
    if (sb.st_size > 0)
        BB_CHECK_GOTO(read_full(fd, path, h, (uint64_t)sb.st_size < HEADER_BYTES
                                                 ? (uint64_t)sb.st_size : HEADER_BYTES, 0),
                      st, out_close);
    if ((unsigned char)h->magic[0] == 0x1f && (unsigned char)h->magic[1] == 0x8b)
        BB_FAIL_GOTO(st, BOXBFS_ERR_UNSUPPORTED, out_close,
                     "%s: gzip data: compressed binary graphs are not supported, gunzip first",
                     path);
    if (sb.st_size < (off_t)sizeof magic || memcmp(h->magic, magic, sizeof magic) != 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s: bad magic at byte 0: not a boxbfs binary graph (.bbcsr)", path);
    if ((uint64_t)sb.st_size < HEADER_BYTES)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s: truncated: %lld bytes, shorter than the %u-byte header", path,
                     (long long)sb.st_size, HEADER_BYTES);
    BB_CHECK_GOTO(check_header(path, h, (int64_t)sb.st_size), st, out_close);

    BB_CHECK_GOTO(bb_calloc(1, sizeof *g, "graph", &g), st, out_close);
    g->n = h->n;
    g->arcs = h->arcs;
    g->input_edges = h->input_edges;
    g->directed = (h->flags & FLAG_DIRECTED) != 0;
    g->row_lo = 0;
    g->row_hi = h->n;
    g->columns_base = 0;
    g->id_base = h->id_base;
    g->self_loops = h->self_loops;
    g->duplicate_arcs = h->duplicate_arcs;
    memcpy(g->name, h->name, sizeof g->name);
    g->name[sizeof g->name - 1] = '\0';
    *fd_p = fd;
    *size_p = sb.st_size;
    *graph_p = g;
    return BOXBFS_OK;

out_close:
    close(fd);
    return st;
}

boxbfs_status_t bb_io_load_binary(const char *path, boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_t g = NULL;
    file_header_t h;
    off_t size;
    int fd;
    void *map = MAP_FAILED;
    hash_t hash;
    uint64_t checksum;
    const char *no_mmap = getenv("BOXBFS_NO_MMAP");

    BB_CHECK(open_graph(path, &fd, &h, &size, &g));
    hash_init(&hash);
    if (no_mmap == NULL || no_mmap[0] == '\0' || strcmp(no_mmap, "0") == 0)
        map = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
        /* Writable copy-on-write pages: the file never changes, the graph's
         * arrays behave like heap arrays. boxbfs_graph_free unmaps. */
        int64_t *words = (int64_t *)(void *)((char *)map + HEADER_BYTES);
        g->mapping = map;
        g->mapping_bytes = (size_t)size;
        g->offsets = words;
        g->columns = g->offsets + h.n + 1;
        g->edge_credit = g->columns + h.arcs;
        if (h.flags & FLAG_EXTERNAL) g->external = g->edge_credit + h.n;
        (void)madvise(map, (size_t)size, MADV_SEQUENTIAL);
        hash_update(&hash, words, (int64_t)(h.payload_bytes / 8u));
    } else {
        uint64_t offset = HEADER_BYTES;
        BB_CHECK_GOTO(read_array(fd, path, "CSR offsets", h.n + 1, &offset, &hash, &g->offsets), st,
                      out_graph);
        BB_CHECK_GOTO(read_array(fd, path, "CSR columns", h.arcs, &offset, &hash, &g->columns), st,
                      out_graph);
        BB_CHECK_GOTO(read_array(fd, path, "edge credits", h.n, &offset, &hash, &g->edge_credit),
                      st, out_graph);
        if (h.flags & FLAG_EXTERNAL)
            BB_CHECK_GOTO(read_array(fd, path, "external vertex ids", h.n, &offset, &hash,
                                     &g->external), st, out_graph);
    }
    checksum = hash_final(&hash);
    if (checksum != h.payload_checksum)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_graph,
                     "%s: payload checksum mismatch (stored 0x%016llx, computed 0x%016llx): the "
                     "file is corrupt", path, (unsigned long long)h.payload_checksum,
                     (unsigned long long)checksum);
    BB_CHECK_GOTO(check_offsets(path, g), st, out_graph);
    BB_CHECK_GOTO(check_csr(path, g), st, out_graph);
    if (!g->directed) BB_CHECK_GOTO(check_symmetric(path, g), st, out_graph);
    close(fd);
    *graph_p = g;
    return BOXBFS_OK;

out_graph:
    boxbfs_graph_free(g);   /* unmaps or frees what was read */
    close(fd);
    return st;
}

/* The payload checksum covers the whole file, which a slice does not read
 * (reading it all on every rank is what slices avoid): it is not verified
 * here. The header checksum and every size and CSR check on what is read
 * still are, so a bad file cannot crash a search; loading the whole file
 * (boxbfs info FILE) verifies the checksum. */
boxbfs_status_t bb_io_load_binary_rows(const char *path, bb_pick_rows_fn pick, void *arg,
                                       boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st = BOXBFS_OK;
    boxbfs_graph_t g = NULL;
    file_header_t h;
    off_t size;
    int fd;
    int64_t lo, hi;
    uint64_t col_at, offset;

    BB_CHECK(open_graph(path, &fd, &h, &size, &g));
    col_at = HEADER_BYTES + 8u * (uint64_t)(h.n + 1);   /* byte of column 0 */
    offset = HEADER_BYTES;
    BB_CHECK_GOTO(read_array(fd, path, "CSR offsets", h.n + 1, &offset, NULL, &g->offsets), st,
                  out_graph);
    BB_CHECK_GOTO(check_offsets(path, g), st, out_graph);
    offset = col_at + 8u * (uint64_t)h.arcs;
    BB_CHECK_GOTO(read_array(fd, path, "edge credits", h.n, &offset, NULL, &g->edge_credit), st,
                  out_graph);
    if (h.flags & FLAG_EXTERNAL)
        BB_CHECK_GOTO(read_array(fd, path, "external vertex ids", h.n, &offset, NULL,
                                 &g->external), st, out_graph);
    BB_CHECK_GOTO(pick(g->offsets, g->n, arg, &lo, &hi), st, out_graph);
    if (lo < 0 || lo > hi || hi > g->n)
        BB_FAIL_GOTO(st, BOXBFS_ERR_INTERNAL, out_graph,
                     "%s: rows [%lld, %lld) chosen for the slice are not a range of [0, %lld)",
                     path, (long long)lo, (long long)hi, (long long)g->n);
    g->row_lo = lo;
    g->row_hi = hi;
    g->columns_base = g->offsets[lo];
    offset = col_at + 8u * (uint64_t)g->columns_base;
    BB_CHECK_GOTO(read_array(fd, path, "CSR columns of the slice", g->offsets[hi] - g->offsets[lo],
                             &offset, NULL, &g->columns), st, out_graph);
    BB_CHECK_GOTO(check_csr(path, g), st, out_graph);
    close(fd);
    *graph_p = g;
    return BOXBFS_OK;

out_graph:
    boxbfs_graph_free(g);
    close(fd);
    return st;
}

/* ---- sealing a mutated image (fuzz harnesses) ------------------------------ */

void bb_io_binary_seal(void *image, size_t size)
{
    file_header_t h;
    int64_t *words;
    size_t nwords;
    hash_t hash;
    if (image == NULL || size < HEADER_BYTES) return;
    memcpy(&h, image, sizeof h);
    nwords = (size - HEADER_BYTES) / 8u;
    hash_init(&hash);
    if (nwords > 0) {   /* the payload may sit at any alignment in the caller's buffer */
        words = malloc(nwords * 8u);
        if (words == NULL) return;
        memcpy(words, (char *)image + HEADER_BYTES, nwords * 8u);
        hash_update(&hash, words, (int64_t)nwords);
        free(words);
    }
    h.payload_checksum = hash_final(&hash);
    h.header_checksum = header_hash(&h);
    memcpy(image, &h, sizeof h);
}

/* ---- saving -------------------------------------------------------------- */

static boxbfs_status_t write_full(int fd, const char *path, const void *buf, uint64_t bytes)
{
    const char *p = buf;
    while (bytes > 0) {
        size_t chunk = bytes > ((size_t)1 << 30) ? ((size_t)1 << 30) : (size_t)bytes;
        ssize_t put = write(fd, p, chunk);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0)
            return bb_error_set(BOXBFS_ERR_IO, "%s: write error: %s", path, strerror(errno));
        p += put;
        bytes -= (uint64_t)put;
    }
    return BOXBFS_OK;
}

boxbfs_status_t bb_io_save_binary(boxbfs_graph_t graph, const char *path)
{
    boxbfs_status_t st = BOXBFS_OK;
    const struct boxbfs_graph *g = graph;
    file_header_t h;
    hash_t hash;
    struct stat sb;
    int fd, regular;

    if (g == NULL || path == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "save binary graph: %s is NULL",
                            g == NULL ? "graph" : "path");
    if (ends_with(path, ".gz"))
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "%s: compressed binary graphs are not supported, write a .bbcsr file",
                            path);
    BB_CHECK(bb_graph_require_whole(g, "writing a binary graph"));
    if (g->loaded != NULL)   /* the format keeps external ids ascending */
        return bb_error_set(BOXBFS_ERR_UNSUPPORTED,
                            "%s: graph %s is relabeled (its vertex order is not the one loaded): "
                            "save it before boxbfs_graph_relabel_by_degree", path, g->name);
    memset(&h, 0, sizeof h);
    memcpy(h.magic, magic, sizeof magic);
    h.version = FORMAT_VERSION;
    h.flags = (g->directed ? FLAG_DIRECTED : 0u) | (g->external != NULL ? FLAG_EXTERNAL : 0u);
    h.header_bytes = HEADER_BYTES;
    h.n = g->n;
    h.arcs = g->arcs;
    h.input_edges = g->input_edges;
    h.id_base = g->id_base;
    h.self_loops = g->self_loops;
    h.duplicate_arcs = g->duplicate_arcs;
    snprintf(h.name, sizeof h.name, "%s", g->name);
    h.payload_bytes = 8u * payload_words(&h);
    hash_init(&hash);
    hash_update(&hash, g->offsets, g->n + 1);
    hash_update(&hash, g->columns, g->arcs);
    hash_update(&hash, g->edge_credit, g->n);
    if (g->external != NULL) hash_update(&hash, g->external, g->n);
    h.payload_checksum = hash_final(&hash);
    h.header_checksum = header_hash(&h);

    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return bb_error_set(BOXBFS_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    BB_CHECK_GOTO(write_full(fd, path, &h, sizeof h), st, out_fail);
    BB_CHECK_GOTO(write_full(fd, path, g->offsets, 8u * (uint64_t)(g->n + 1)), st, out_fail);
    BB_CHECK_GOTO(write_full(fd, path, g->columns, 8u * (uint64_t)g->arcs), st, out_fail);
    BB_CHECK_GOTO(write_full(fd, path, g->edge_credit, 8u * (uint64_t)g->n), st, out_fail);
    if (g->external != NULL)
        BB_CHECK_GOTO(write_full(fd, path, g->external, 8u * (uint64_t)g->n), st, out_fail);
    if (close(fd) != 0) {
        fd = -1;
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_fail, "%s: write error: %s", path, strerror(errno));
    }
    return BOXBFS_OK;

out_fail:
    if (fd >= 0) close(fd);
    if (regular) unlink(path);   /* no half-written graph left behind */
    return st;
}
