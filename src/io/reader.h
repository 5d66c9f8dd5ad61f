/* Buffered line reader for the text loaders: reads plain or gzip files (one
 * or more gzip members; nothing else may follow the last) in large blocks,
 * hands out one line at a time (LF or CRLF, last line with or without a
 * newline) with its line number, and parses integers by hand with
 * "file:line: what is wrong" messages (status PARSE). */
#ifndef BB_IO_READER_H
#define BB_IO_READER_H

#include <stddef.h>
#include <stdint.h>

#include <zlib.h>

#include "boxbfs.h"

typedef struct {
    int fd, has_fd;     /* has_fd: fd is open (a zeroed reader has none) */
    const char *path;   /* borrowed: must outlive the reader */
    uint64_t text_bound;   /* bb_reader_text_bound */
    /* gzip input (gzip = 1: the file starts with the gzip magic 1f 8b) */
    int gzip;
    int z_ready;        /* inflateInit2 succeeded: inflateEnd on close */
    int member_done;    /* inflate reached the end of a member */
    z_stream z;
    unsigned char *in;  /* compressed bytes, z.next_in points into it */
    size_t in_cap;
    int in_eof;         /* read() reported the end of the file */
    uint64_t in_read;   /* bytes read from the file so far */
    /* text */
    char *buf;          /* block buffer, one spare byte for a terminating NUL */
    size_t cap;         /* bytes in buf, spare byte excluded */
    size_t start, end;  /* unread data is buf[start, end) */
    int eof;            /* the input ended */
    int64_t line;       /* number of the line last returned (1-based), 0 before */
} bb_reader_t;

/* Open path (plain or gzip, recognized by content) into *reader, which must
 * stay where it is until closed (zlib's state points back into it). Returns
 * OK, IO (cannot open: "path: cannot open: reason"), NO_MEMORY. */
boxbfs_status_t bb_reader_open(bb_reader_t *reader, const char *path);
/* An upper bound on the bytes of text the file can hold (the file's size, or
 * 1032 times it for gzip, deflate's largest ratio); UINT64_MAX when unknown.
 * For presizing from a header that may lie. */
uint64_t bb_reader_text_bound(const bb_reader_t *reader);
/* Close and release; safe on a reader whose open failed or was zeroed. */
void bb_reader_close(bb_reader_t *reader);

/* Next line, without its "\n" or "\r\n", NUL-terminated and writable (the
 * parsers may cut it). *line_p is NULL at the end of the input. The line stays
 * valid until the next call. Returns OK, IO (read error), PARSE (truncated or
 * corrupt gzip data, bytes after the last gzip member that do not start
 * another, a line longer than 64 MiB; the message names the line being
 * read), NO_MEMORY. */
boxbfs_status_t bb_reader_next(bb_reader_t *reader, char **line_p, size_t *len_p);

/* Skip blanks (spaces, tabs, a stray '\r'). */
static inline char *bb_reader_skip_ws(char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f') p++;
    return p;
}

/* Parse an unsigned decimal token at *pp (leading blanks skipped) into
 * [0, INT64_MAX]; the token must end at a blank or the end of the line. On
 * success *pp points after the token. what names the field in messages
 * ("row id"): "path:line: missing row id", "non-numeric token 'x1' (expected
 * row id)", "negative row id -3", "number too large: 9999... (row id)".
 * Returns OK or PARSE. */
boxbfs_status_t bb_reader_parse_u64(const bb_reader_t *reader, char **pp, const char *what,
                                    int64_t *value_p);
/* The same for an optionally signed decimal in [INT64_MIN, INT64_MAX]. */
boxbfs_status_t bb_reader_parse_i64(const bb_reader_t *reader, char **pp, const char *what,
                                    int64_t *value_p);

/* After the last field of a line (p, the line ends at line_end): only blanks
 * may follow. "path:line: unexpected token 'x' after WHAT", or a NUL byte
 * inside the line. Returns OK or PARSE. */
boxbfs_status_t bb_reader_expect_end(const bb_reader_t *reader, const char *p,
                                     const char *line_end, const char *after);

/* The last path component, for graph names. */
const char *bb_io_basename(const char *path);

#endif /* BB_IO_READER_H */
