/* Matrix Market loader: "%%MatrixMarket matrix coordinate FIELD SYMMETRY" with
 * FIELD pattern, real or integer (values are checked, then ignored) and
 * SYMMETRY general or symmetric; '%' comment and blank lines anywhere after the
 * banner; a square size line "n n entries"; exactly that many 1-based
 * entries "i j [value]". Vertex i is internal id i - 1 (id_base 1).
 * Direction: symmetric files and UNDIRECTED give an undirected graph; general
 * files are directed unless UNDIRECTED is asked. A symmetric file loaded as
 * DIRECTED stores each entry in both directions (symmetric means both arcs
 * exist), except diagonal entries, so it counts two input edges per entry. */
#include "config.h"

#include "io/io.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "io/reader.h"

/* Initial edge list capacity at most this many edges, and at most what the
 * file could hold (an entry "1 1\n" is 4 bytes): a size line that lies must
 * not make us allocate gigabytes before the first entry. */
#define MAX_PRESIZE ((int64_t)1 << 26)
#define MIN_ENTRY_BYTES 4u

typedef enum { FIELD_PATTERN, FIELD_REAL, FIELD_INTEGER } field_t;

/* Split the next blank-separated word of s (cut in place). */
static char *next_word(char **s)
{
    char *p = bb_reader_skip_ws(*s), *start = p;
    if (*p == '\0') return NULL;
    while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (*p != '\0') *p++ = '\0';
    *s = p;
    return start;
}

static boxbfs_status_t parse_banner(const bb_reader_t *r, char *line, field_t *field_p,
                                    int *symmetric_p)
{
    const char *path = r->path;
    char *s = line;
    char *tag = next_word(&s), *object = next_word(&s), *format = next_word(&s);
    char *field = next_word(&s), *symmetry = next_word(&s), *extra = next_word(&s);

    if (tag == NULL || strcasecmp(tag, "%%MatrixMarket") != 0)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: missing Matrix Market banner: the first line must be "
                            "'%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'", path);
    if (object == NULL || format == NULL || field == NULL || symmetry == NULL)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: incomplete banner: expected "
                            "'%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'", path);
    if (strcasecmp(object, "matrix") != 0)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: unsupported Matrix Market object '%s' (only 'matrix')", path,
                            object);
    if (strcasecmp(format, "coordinate") != 0) {
        if (strcasecmp(format, "array") == 0)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s:1: dense 'array' Matrix Market files are not supported, "
                                "a graph needs 'coordinate'", path);
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: unsupported Matrix Market format '%s' (only 'coordinate')",
                            path, format);
    }
    if (strcasecmp(field, "pattern") == 0) *field_p = FIELD_PATTERN;
    else if (strcasecmp(field, "real") == 0) *field_p = FIELD_REAL;
    else if (strcasecmp(field, "integer") == 0) *field_p = FIELD_INTEGER;
    else
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: unsupported field '%s' (pattern, real or integer)", path, field);
    if (strcasecmp(symmetry, "general") == 0) *symmetric_p = 0;
    else if (strcasecmp(symmetry, "symmetric") == 0) *symmetric_p = 1;
    else
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:1: unsupported symmetry '%s' (general or symmetric)", path,
                            symmetry);
    if (extra != NULL)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:1: unexpected token '%s' after the banner",
                            path, extra);
    return BOXBFS_OK;
}

/* Next line that is neither blank nor a '%' comment; NULL at the end. */
static boxbfs_status_t next_content_line(bb_reader_t *r, char **line_p, size_t *len_p)
{
    char *line;
    size_t len;
    for (;;) {
        BB_CHECK(bb_reader_next(r, &line, &len));
        if (line != NULL) {
            char *p = bb_reader_skip_ws(line);
            if ((*p == '\0' && p == line + len) || *p == '%') continue;
        }
        *line_p = line;
        *len_p = len;
        return BOXBFS_OK;
    }
}

static boxbfs_status_t check_value(const bb_reader_t *r, char **pp, field_t field)
{
    int64_t ivalue;
    char *p, *end;

    if (field == FIELD_PATTERN) return BOXBFS_OK;
    if (field == FIELD_INTEGER) return bb_reader_parse_i64(r, pp, "integer value", &ivalue);
    p = bb_reader_skip_ws(*pp);
    if (*p == '\0')
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: missing real value", r->path,
                            (long long)r->line);
    (void)strtod(p, &end);
    if (end == p || (*end != '\0' && *end != ' ' && *end != '\t')) {
        char *stop = p;
        while (*stop != '\0' && *stop != ' ' && *stop != '\t' && stop - p < 40) stop++;
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:%lld: non-numeric token '%.*s' (expected real value)", r->path,
                            (long long)r->line, (int)(stop - p), p);
    }
    *pp = end;
    return BOXBFS_OK;
}

boxbfs_status_t bb_io_load_mtx(const char *path, boxbfs_direction_t direction, int threads,
                               boxbfs_graph_t *graph_p)
{
    boxbfs_status_t st;
    bb_reader_t r;
    bb_edges_t edges;
    char *line, *p;
    size_t len;
    field_t field = FIELD_PATTERN;
    int symmetric = 0, mirror, directed;
    int64_t rows, cols, nnz, count = 0, size_line;
    const char *after;

    if (direction != BOXBFS_DIRECTION_DEFAULT && direction != BOXBFS_DIRECTION_UNDIRECTED &&
        direction != BOXBFS_DIRECTION_DIRECTED)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "unknown direction %d", (int)direction);
    BB_CHECK(bb_reader_open(&r, path));

    BB_CHECK_GOTO(bb_reader_next(&r, &line, &len), st, out_close);
    if (line == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s: empty file (expected a %%%%MatrixMarket banner)", path);
    BB_CHECK_GOTO(parse_banner(&r, line, &field, &symmetric), st, out_close);

    BB_CHECK_GOTO(next_content_line(&r, &line, &len), st, out_close);
    if (line == NULL)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s:%lld: missing size line 'rows columns entries' after the banner", path,
                     (long long)r.line);
    p = line;
    BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "row count", &rows), st, out_close);
    BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "column count", &cols), st, out_close);
    BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "entry count", &nnz), st, out_close);
    BB_CHECK_GOTO(bb_reader_expect_end(&r, p, line + len, "the size line 'rows columns entries'"),
                  st, out_close);
    if (rows != cols)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s:%lld: matrix is %lld x %lld, a graph needs a square matrix", path,
                     (long long)r.line, (long long)rows, (long long)cols);
    if (rows == 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s:%lld: matrix has 0 rows, a graph needs at least one vertex", path,
                     (long long)r.line);
    if (rows > bb_io_max_vertices())
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_close,
                     "%s:%lld: matrix has %lld rows, more than the %lld vertices boxbfs accepts",
                     path, (long long)r.line, (long long)rows, (long long)bb_io_max_vertices());
    size_line = r.line;

    mirror = symmetric && direction == BOXBFS_DIRECTION_DIRECTED;
    directed = symmetric ? direction == BOXBFS_DIRECTION_DIRECTED
                         : direction != BOXBFS_DIRECTION_UNDIRECTED;
    after = field == FIELD_PATTERN ? "the entry (pattern entries are 'row column')"
                                   : "the entry ('row column value')";
    {
        int64_t presize = nnz < MAX_PRESIZE ? nnz : MAX_PRESIZE;
        uint64_t fits = bb_reader_text_bound(&r) / MIN_ENTRY_BYTES + 1;
        if ((uint64_t)presize > fits) presize = (int64_t)fits;
        BB_CHECK_GOTO(bb_edges_init(&edges, mirror ? 2 * presize : presize), st, out_close);
    }
    edges.n = rows;

    for (;;) {
        int64_t i, j;
        BB_CHECK_GOTO(next_content_line(&r, &line, &len), st, out_edges);
        if (line == NULL) break;
        if (count == nnz)
            BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_edges,
                         "%s:%lld: more entries than the %lld declared on line %lld", path,
                         (long long)r.line, (long long)nnz, (long long)size_line);
        p = line;
        BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "row id", &i), st, out_edges);
        BB_CHECK_GOTO(bb_reader_parse_u64(&r, &p, "column id", &j), st, out_edges);
        if (i < 1 || i > rows || j < 1 || j > rows)
            BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_edges,
                         "%s:%lld: vertex %lld out of range [1, %lld]", path, (long long)r.line,
                         (long long)(i < 1 || i > rows ? i : j), (long long)rows);
        BB_CHECK_GOTO(check_value(&r, &p, field), st, out_edges);
        BB_CHECK_GOTO(bb_reader_expect_end(&r, p, line + len, after), st, out_edges);
        BB_CHECK_GOTO(bb_edges_push(&edges, i - 1, j - 1), st, out_edges);
        if (mirror && i != j) BB_CHECK_GOTO(bb_edges_push(&edges, j - 1, i - 1), st, out_edges);
        count++;
    }
    if (count < nnz)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out_edges,
                     "%s:%lld: expected %lld entries, found %lld (file truncated?)", path,
                     (long long)r.line, (long long)nnz, (long long)count);
    bb_reader_close(&r);
    /* bb_graph_build consumes the edge list, success or not. */
    return bb_graph_build(&edges, directed, threads, NULL, 1, bb_io_basename(path), graph_p);

out_edges:
    bb_edges_free(&edges);
out_close:
    bb_reader_close(&r);
    return st;
}
