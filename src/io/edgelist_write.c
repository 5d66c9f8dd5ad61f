/* SNAP-style edge list writer: "# boxbfs edge list: NAME", "# Nodes: n Edges: m",
 * then "src<TAB>dst" in external ids, one line per stored arc of a directed
 * graph, one per edge (u <= v internal) of an undirected one. "-" writes to
 * stdout, a name ending in ".gz" is compressed. Vertices without edges cannot
 * be written in this format and are lost when the file is read back. */
#include "config.h"

#include "io/io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "common/error.h"

#define OUT_BUFFER_BYTES ((size_t)1 << 20)

typedef struct {
    const char *path;
    FILE *file;     /* plain file or stdout */
    gzFile gz;      /* compressed output */
    char buf[OUT_BUFFER_BYTES];
    size_t used;
} writer_t;

static boxbfs_status_t flush_out(writer_t *w)
{
    if (w->used == 0) return BOXBFS_OK;
    if (w->gz != NULL) {
        if (gzwrite(w->gz, w->buf, (unsigned)w->used) != (int)w->used) {
            int zerr = Z_OK;
            const char *msg = gzerror(w->gz, &zerr);
            return bb_error_set(BOXBFS_ERR_IO, "%s: write error: %s", w->path,
                                zerr == Z_ERRNO ? strerror(errno) : msg);
        }
    } else if (fwrite(w->buf, 1, w->used, w->file) != w->used) {
        return bb_error_set(BOXBFS_ERR_IO, "%s: write error: %s", w->path, strerror(errno));
    }
    w->used = 0;
    return BOXBFS_OK;
}

/* Append a decimal number (external ids may be any int64). */
static char *put_int(char *p, int64_t value)
{
    char digits[24];
    int len = 0;
    uint64_t v = value < 0 ? 0u - (uint64_t)value : (uint64_t)value;
    if (value < 0) *p++ = '-';
    do {
        digits[len++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    while (len > 0) *p++ = digits[--len];
    return p;
}

static boxbfs_status_t put_edge(writer_t *w, int64_t src, int64_t dst)
{
    char *p;
    if (w->used + 48 > sizeof w->buf) BB_CHECK(flush_out(w));
    p = w->buf + w->used;
    p = put_int(p, src);
    *p++ = '\t';
    p = put_int(p, dst);
    *p++ = '\n';
    w->used = (size_t)(p - w->buf);
    return BOXBFS_OK;
}

static boxbfs_status_t write_edges(writer_t *w, boxbfs_graph_t g)
{
    int64_t lines = 0;
    int len;

    /* Count first: the header states the number of lines that follow. */
    for (int64_t u = 0; u < g->n; u++)
        for (int64_t k = g->offsets[u]; k < g->offsets[u + 1]; k++)
            if (g->directed || u <= g->columns[k]) lines++;
    len = snprintf(w->buf, sizeof w->buf,
                   "# boxbfs edge list: %s\n# %s\n# Nodes: %lld Edges: %lld\n"
                   "# FromNodeId\tToNodeId\n",
                   g->name, g->directed ? "Directed graph" : "Undirected graph (each edge once)",
                   (long long)g->n, (long long)lines);
    w->used = len > 0 && (size_t)len < sizeof w->buf ? (size_t)len : 0;
    for (int64_t u = 0; u < g->n; u++) {
        int64_t eu = boxbfs_graph_external_id(g, u);
        for (int64_t k = g->offsets[u]; k < g->offsets[u + 1]; k++) {
            int64_t v = g->columns[k];
            if (g->directed || u <= v) BB_CHECK(put_edge(w, eu, boxbfs_graph_external_id(g, v)));
        }
    }
    return flush_out(w);
}

boxbfs_status_t bb_io_save_edgelist(boxbfs_graph_t graph, const char *path)
{
    boxbfs_status_t st;
    writer_t *w;
    size_t plen;

    if (graph == NULL || path == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "save edge list: %s is NULL",
                            graph == NULL ? "graph" : "path");
    BB_CHECK(bb_graph_require_whole(graph, "writing an edge list"));
    BB_CHECK(bb_calloc(1, sizeof *w, "the edge list write buffer", &w));
    w->path = path;
    plen = strlen(path);
    if (strcmp(path, "-") == 0) {
        w->file = stdout;
        w->path = "<stdout>";
    } else if (plen > 3 && strcmp(path + plen - 3, ".gz") == 0) {
        errno = 0;
        w->gz = gzopen(path, "wb");
        if (w->gz == NULL)
            BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_free, "%s: cannot create: %s", path,
                         errno ? strerror(errno) : "zlib could not open it");
    } else {
        w->file = fopen(path, "wb");
        if (w->file == NULL)
            BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_free, "%s: cannot create: %s", path,
                         strerror(errno));
    }

    st = write_edges(w, graph);
    if (w->gz != NULL) {
        int zerr = gzclose(w->gz);
        if (zerr != Z_OK && st == BOXBFS_OK)
            st = bb_error_set(BOXBFS_ERR_IO, "%s: write error while closing: %s", path,
                              zerr == Z_ERRNO ? strerror(errno) : "zlib error");
    } else if (w->file == stdout) {
        if (fflush(stdout) != 0 && st == BOXBFS_OK)
            st = bb_error_set(BOXBFS_ERR_IO, "%s: write error: %s", w->path, strerror(errno));
    } else if (fclose(w->file) != 0 && st == BOXBFS_OK) {
        st = bb_error_set(BOXBFS_ERR_IO, "%s: write error while closing: %s", path,
                          strerror(errno));
    }
out_free:
    free(w);
    return st;
}
