/* Buffered line reader over zlib (gzopen reads plain files as they are) and
 * hand-written integer parsers for the text loaders. Blocks of 4 MiB go
 * straight from gzread into the buffer; a line is found with memchr and cut in
 * place, so a million-line file costs a few copies of partial lines only. */
#include "config.h"

#include "io/reader.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"

#define BLOCK_BYTES ((size_t)4 << 20)
#define MAX_LINE_BYTES ((size_t)64 << 20)
#define TOKEN_SHOWN 40

const char *bb_io_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

boxbfs_status_t bb_reader_open(bb_reader_t *reader, const char *path)
{
    bb_reader_t r;
    boxbfs_status_t st;
    struct stat sb;

    memset(&r, 0, sizeof r);
    r.path = path;
    r.cap = BLOCK_BYTES;
    BB_CHECK(bb_malloc(r.cap + 1, "the file read buffer", &r.buf));
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_free_buf, "%s: cannot open: %s", path,
                     strerror(EISDIR));
    errno = 0;
    r.gz = gzopen(path, "rb");
    if (r.gz == NULL) {
        int err = errno;
        BB_FAIL_GOTO(st, err == ENOMEM ? BOXBFS_ERR_NO_MEMORY : BOXBFS_ERR_IO, out_free_buf,
                     "%s: cannot open: %s", path, err ? strerror(err) : "zlib could not open it");
    }
    /* zlib's own input buffer; inflate writes straight into ours. */
    gzbuffer(r.gz, 1u << 18);
    *reader = r;
    return BOXBFS_OK;

out_free_buf:
    free(r.buf);
    return st;
}

void bb_reader_close(bb_reader_t *reader)
{
    if (reader->gz != NULL) gzclose(reader->gz);
    free(reader->buf);
    reader->gz = NULL;
    reader->buf = NULL;
}

/* gzread returned got <= 0: decide between end of input and an error. zlib
 * reports a truncated gzip stream as a short read with Z_BUF_ERROR, not as -1. */
static boxbfs_status_t read_failed(bb_reader_t *r, int got)
{
    int zerr = Z_OK;
    const char *zmsg = gzerror(r->gz, &zerr);
    int64_t line = r->line + 1;

    if (zerr == Z_OK && got == 0) return BOXBFS_OK;
    if (zerr == Z_ERRNO)
        return bb_error_set(BOXBFS_ERR_IO, "%s:%lld: read error: %s", r->path, (long long)line,
                            strerror(errno));
    if (zerr == Z_MEM_ERROR)
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "%s:%lld: out of memory while decompressing",
                            r->path, (long long)line);
    /* gzerror prefixes the path: drop it, ours is already there. */
    if (zmsg != NULL && strncmp(zmsg, r->path, strlen(r->path)) == 0 &&
        strncmp(zmsg + strlen(r->path), ": ", 2) == 0)
        zmsg += strlen(r->path) + 2;
    if (zerr == Z_BUF_ERROR || zerr == Z_DATA_ERROR)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: truncated or corrupt gzip data (%s)",
                            r->path, (long long)line, zmsg);
    return bb_error_set(BOXBFS_ERR_IO, "%s:%lld: read error: %s", r->path, (long long)line,
                        zmsg != NULL ? zmsg : "unknown zlib error");
}

boxbfs_status_t bb_reader_next(bb_reader_t *reader, char **line_p, size_t *len_p)
{
    bb_reader_t *r = reader;
    char *s;
    size_t len;

    for (;;) {
        size_t avail = r->end - r->start;
        char *nl;
        int got;

        s = r->buf + r->start;
        nl = avail ? memchr(s, '\n', avail) : NULL;
        if (nl != NULL) {
            len = (size_t)(nl - s);
            r->start += len + 1;
            break;
        }
        if (r->eof) {
            if (avail == 0) {
                *line_p = NULL;
                *len_p = 0;
                return BOXBFS_OK;
            }
            /* Last line without a newline: the spare byte holds the NUL. */
            len = avail;
            r->start = r->end;
            break;
        }
        if (r->start > 0) {
            memmove(r->buf, s, avail);
            r->start = 0;
            r->end = avail;
        }
        if (r->end == r->cap) {
            size_t cap = r->cap * 2;
            char *grown;
            if (r->cap >= MAX_LINE_BYTES)
                return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: line longer than %zu MiB",
                                    r->path, (long long)(r->line + 1), MAX_LINE_BYTES >> 20);
            grown = realloc(r->buf, cap + 1);
            if (grown == NULL)
                return bb_error_set(BOXBFS_ERR_NO_MEMORY,
                                    "cannot allocate %zu bytes of host memory for a long line",
                                    cap + 1);
            r->buf = grown;
            r->cap = cap;
        }
        {
            size_t want = r->cap - r->end;
            if (want > (size_t)INT_MAX) want = (size_t)INT_MAX;
            got = gzread(r->gz, r->buf + r->end, (unsigned)want);
        }
        if (got <= 0) {
            BB_CHECK(read_failed(r, got));
            r->eof = 1;
        } else {
            r->end += (size_t)got;
        }
    }
    r->line++;
    s[len] = '\0';
    if (len > 0 && s[len - 1] == '\r') s[--len] = '\0';
    *line_p = s;
    *len_p = len;
    return BOXBFS_OK;
}

static int token_end(char c)
{
    return c == '\0' || c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Copy the token at p for a message: at most TOKEN_SHOWN bytes, unprintable
 * bytes as '?', "..." when cut. */
static void show_token(const char *p, char *out, size_t out_bytes)
{
    size_t i = 0;
    while (!token_end(p[i]) && i < TOKEN_SHOWN && i + 4 < out_bytes) {
        unsigned char c = (unsigned char)p[i];
        out[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
        i++;
    }
    if (!token_end(p[i]) && i + 4 <= out_bytes) {
        memcpy(out + i, "...", 3);
        i += 3;
    }
    out[i] = '\0';
}

/* Parse the digits at p into a magnitude; *end_p gets the first byte after
 * them, *overflow_p is set when the value exceeds limit. */
static uint64_t parse_digits(const char *p, uint64_t limit, const char **end_p, int *overflow_p)
{
    uint64_t v = 0;
    int overflow = 0;
    while ((unsigned)(*p - '0') < 10u) {
        unsigned d = (unsigned)(*p - '0');
        if (!overflow && v > (limit - d) / 10u) overflow = 1;
        if (!overflow) v = v * 10u + d;
        p++;
    }
    *end_p = p;
    *overflow_p = overflow;
    return v;
}

static boxbfs_status_t parse_int(const bb_reader_t *r, char **pp, const char *what, int allow_sign,
                                 int64_t *value_p)
{
    char *p = bb_reader_skip_ws(*pp);
    char shown[TOKEN_SHOWN + 8];
    const char *digits = p, *end;
    int negative = 0, overflow;
    uint64_t limit = (uint64_t)INT64_MAX, v;

    if (*p == '\0')
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: missing %s", r->path, (long long)r->line,
                            what);
    if (*p == '-' || (*p == '+' && allow_sign)) {
        negative = *p == '-';
        digits = p + 1;
    }
    if (negative && allow_sign) limit += 1u;
    v = parse_digits(digits, limit, &end, &overflow);
    show_token(p, shown, sizeof shown);
    if (end == digits || !token_end(*end))
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: non-numeric token '%s' (expected %s)",
                            r->path, (long long)r->line, shown, what);
    if (negative && !allow_sign)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: negative %s %s", r->path,
                            (long long)r->line, what, shown);
    if (overflow)
        return bb_error_set(BOXBFS_ERR_PARSE,
                            "%s:%lld: number too large: %s (%s must fit in 64 bits)", r->path,
                            (long long)r->line, shown, what);
    *pp = (char *)end;
    if (negative)
        *value_p = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
    else
        *value_p = (int64_t)v;
    return BOXBFS_OK;
}

boxbfs_status_t bb_reader_parse_u64(const bb_reader_t *reader, char **pp, const char *what,
                                    int64_t *value_p)
{
    /* Fast path for the common case: digits then a blank or the end. */
    const char *p = *pp, *end;
    int overflow;
    uint64_t v;
    while (*p == ' ' || *p == '\t') p++;
    v = parse_digits(p, (uint64_t)INT64_MAX, &end, &overflow);
    if (end != p && !overflow && token_end(*end)) {
        *pp = (char *)end;
        *value_p = (int64_t)v;
        return BOXBFS_OK;
    }
    return parse_int(reader, pp, what, 0, value_p);
}

boxbfs_status_t bb_reader_parse_i64(const bb_reader_t *reader, char **pp, const char *what,
                                    int64_t *value_p)
{
    return parse_int(reader, pp, what, 1, value_p);
}

boxbfs_status_t bb_reader_expect_end(const bb_reader_t *reader, const char *p,
                                     const char *line_end, const char *after)
{
    char shown[TOKEN_SHOWN + 8];
    p = bb_reader_skip_ws((char *)p);
    if (*p != '\0') {
        show_token(p, shown, sizeof shown);
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: unexpected token '%s' after %s",
                            reader->path, (long long)reader->line, shown, after);
    }
    if (p != line_end)
        return bb_error_set(BOXBFS_ERR_PARSE, "%s:%lld: NUL byte inside a text line (binary file?)",
                            reader->path, (long long)reader->line);
    return BOXBFS_OK;
}
