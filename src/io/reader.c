/* Buffered line reader and hand-written integer parsers for the text loaders.
 * Plain files go straight from read() into the block buffer; gzip files
 * (recognized by the magic 1f 8b at byte 0) through inflate, member after
 * member, and anything after the last member that is not another member is
 * an error (zlib's gzread would drop it silently, and with it edges). A line
 * is found with memchr and cut in place, so a million-line file costs a few
 * copies of partial lines only. */
#include "config.h"

#include "io/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

#define BLOCK_BYTES ((size_t)4 << 20)   /* text buffer, a power of two */
#define SMALL_BLOCK_BYTES ((size_t)4 << 10)
#define IN_BYTES ((size_t)256 << 10)    /* compressed input buffer */
#define MAX_LINE_BYTES ((size_t)64 << 20)
#define DEFLATE_MAX_RATIO 1032u         /* deflate never expands data more than this */
#define TOKEN_SHOWN 40

const char *bb_io_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/* read() up to want bytes into dst; *got_p = 0 at the end of the file. */
static boxbfs_status_t read_some(bb_reader_t *r, void *dst, size_t want, size_t *got_p)
{
    for (;;) {
        ssize_t got = read(r->fd, dst, want);
        if (got >= 0) {
            r->in_read += (uint64_t)got;
            *got_p = (size_t)got;
            return BOXBFS_OK;
        }
        if (errno != EINTR)
            return bb_error_set(BOXBFS_ERR_IO, "%s:%lld: read error: %s", r->path,
                                (long long)(r->line + 1), strerror(errno));
    }
}

/* Smallest power of two >= bytes within [SMALL_BLOCK_BYTES, BLOCK_BYTES]:
 * small files get small buffers; line growth doubles up to MAX_LINE_BYTES. */
static size_t block_for(uint64_t bytes)
{
    size_t cap = SMALL_BLOCK_BYTES;
    while (cap < BLOCK_BYTES && (uint64_t)cap < bytes) cap *= 2;
    return cap;
}

boxbfs_status_t bb_reader_open(bb_reader_t *reader, const char *path)
{
    /* Built in place: zlib's state points back at its z_stream. */
    bb_reader_t *r = reader;
    boxbfs_status_t st = BOXBFS_OK;
    struct stat sb;
    unsigned char head[2];
    size_t have = 0, got;
    int zst;

    memset(r, 0, sizeof *r);
    r->path = path;
    r->text_bound = UINT64_MAX;
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0) {
        int err = errno;
        return bb_error_set(err == ENOMEM ? BOXBFS_ERR_NO_MEMORY : BOXBFS_ERR_IO,
                            "%s: cannot open: %s", path, strerror(err));
    }
    r->has_fd = 1;
    if (fstat(r->fd, &sb) != 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_close, "%s: cannot stat: %s", path, strerror(errno));
    if (S_ISDIR(sb.st_mode))
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_close, "%s: cannot open: %s", path, strerror(EISDIR));
    /* The first two bytes tell gzip from plain text. */
    do {
        BB_CHECK_GOTO(read_some(r, head + have, sizeof head - have, &got), st, out_close);
        have += got;
    } while (got > 0 && have < sizeof head);
    r->gzip = have == 2 && head[0] == 0x1f && head[1] == 0x8b;
    if (S_ISREG(sb.st_mode)) {
        uint64_t bytes = (uint64_t)sb.st_size;
        r->text_bound = !r->gzip ? bytes
                        : bytes > UINT64_MAX / DEFLATE_MAX_RATIO ? UINT64_MAX
                                                                 : bytes * DEFLATE_MAX_RATIO;
    }
    /* gzip text comes in blocks of at most IN_BYTES (as zlib's gzread gave
     * it): 1032 x a small file would still be megabytes */
    r->cap = block_for(r->gzip && r->text_bound > IN_BYTES ? IN_BYTES : r->text_bound);
    BB_CHECK_GOTO(bb_malloc(r->cap + 1, "the file read buffer", &r->buf), st, out_close);
    if (!r->gzip) {
        memcpy(r->buf, head, have);
        r->end = have;
        return BOXBFS_OK;
    }
    r->in_cap = S_ISREG(sb.st_mode) && (uint64_t)sb.st_size < IN_BYTES
                   ? ((size_t)sb.st_size > sizeof head ? (size_t)sb.st_size : sizeof head)
                   : IN_BYTES;
    BB_CHECK_GOTO(bb_malloc(r->in_cap, "the gzip input buffer", &r->in), st, out_close);
    memcpy(r->in, head, sizeof head);
    r->z.next_in = r->in;
    r->z.avail_in = sizeof head;
    zst = inflateInit2(&r->z, 16 + MAX_WBITS);   /* 16: gzip framing only */
    if (zst != Z_OK)
        BB_FAIL_GOTO(st, zst == Z_MEM_ERROR ? BOXBFS_ERR_NO_MEMORY : BOXBFS_ERR_INTERNAL, out_close,
                     "%s: cannot start decompressing: %s", path,
                     r->z.msg != NULL ? r->z.msg : "zlib error");
    r->z_ready = 1;
    return BOXBFS_OK;

out_close:
    bb_reader_close(r);
    return st;
}

uint64_t bb_reader_text_bound(const bb_reader_t *reader) { return reader->text_bound; }

void bb_reader_close(bb_reader_t *reader)
{
    if (reader->z_ready) inflateEnd(&reader->z);
    if (reader->has_fd) close(reader->fd);
    free(reader->in);
    free(reader->buf);
    reader->z_ready = 0;
    reader->has_fd = 0;
    reader->in = NULL;
    reader->buf = NULL;
}

/* Top up the compressed input: the unread bytes move to the front and the
 * file's next bytes follow them. */
static boxbfs_status_t refill(bb_reader_t *r)
{
    size_t keep = r->z.avail_in, got;
    if (keep > 0 && r->z.next_in != r->in) memmove(r->in, r->z.next_in, keep);
    BB_CHECK(read_some(r, r->in + keep, r->in_cap - keep, &got));
    if (got == 0) r->in_eof = 1;
    r->z.next_in = r->in;
    r->z.avail_in = (uInt)(keep + got);
    return BOXBFS_OK;
}

/* Byte of the file where decompression stands, for messages. */
static unsigned long long compressed_at(const bb_reader_t *r)
{
    return (unsigned long long)(r->in_read - r->z.avail_in);
}

/* Up to want bytes of text into dst; *got_p = 0 at the end of the input. */
static boxbfs_status_t fill(bb_reader_t *r, char *dst, size_t want, size_t *got_p)
{
    long long line = (long long)(r->line + 1);   /* the line being read */

    if (!r->gzip) return read_some(r, dst, want, got_p);
    if (want > UINT_MAX) want = UINT_MAX;
    for (;;) {
        size_t made;
        uInt before;
        int zst;

        if (!r->in_eof && (r->z.avail_in == 0 || (r->member_done && r->z.avail_in < 2)))
            BB_CHECK(refill(r));
        if (r->member_done) {   /* between members: the end, or another member */
            if (r->z.avail_in == 0) {
                *got_p = 0;
                return BOXBFS_OK;
            }
            if (r->z.avail_in < 2 || r->z.next_in[0] != 0x1f || r->z.next_in[1] != 0x8b)
                return bb_error_set(BOXBFS_ERR_PARSE,
                                    "%s:%lld: unexpected data after the end of the gzip data "
                                    "(byte %llu of the file is not the start of another gzip "
                                    "member)", r->path, line, compressed_at(r));
            if (inflateReset(&r->z) != Z_OK)
                return bb_error_set(BOXBFS_ERR_INTERNAL, "%s: cannot restart zlib", r->path);
            r->member_done = 0;
        }
        before = r->z.avail_in;
        r->z.next_out = (Bytef *)dst;
        r->z.avail_out = (uInt)want;
        zst = inflate(&r->z, Z_NO_FLUSH);
        made = want - r->z.avail_out;
        if (zst == Z_MEM_ERROR)
            return bb_error_set(BOXBFS_ERR_NO_MEMORY, "%s:%lld: out of memory while decompressing",
                                r->path, line);
        if (zst != Z_OK && zst != Z_STREAM_END && zst != Z_BUF_ERROR)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s:%lld: truncated or corrupt gzip data (%s, near byte %llu of "
                                "the file)", r->path, line,
                                r->z.msg != NULL ? r->z.msg : "invalid data", compressed_at(r));
        if (zst == Z_STREAM_END) r->member_done = 1;
        if (made > 0) {
            *got_p = made;
            return BOXBFS_OK;
        }
        if (zst == Z_STREAM_END) continue;
        if (r->z.avail_in == 0 && r->in_eof)
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s:%lld: truncated or corrupt gzip data (unexpected end of file "
                                "at byte %llu)", r->path, line, compressed_at(r));
        if (r->z.avail_in == before && r->z.avail_in > 0)   /* no progress: never loop */
            return bb_error_set(BOXBFS_ERR_PARSE,
                                "%s:%lld: truncated or corrupt gzip data (zlib stalled near byte "
                                "%llu of the file)", r->path, line, compressed_at(r));
    }
}

boxbfs_status_t bb_reader_next(bb_reader_t *reader, char **line_p, size_t *len_p)
{
    bb_reader_t *r = reader;
    char *s;
    size_t len;

    for (;;) {
        size_t avail = r->end - r->start, got;
        char *nl;

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
        BB_CHECK(fill(r, r->buf + r->end, r->cap - r->end, &got));
        if (got == 0) r->eof = 1;
        r->end += got;
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
