/* A streaming JSON writer for the CLI's --json output: objects and arrays
 * nested up to 64 deep, two-space indentation, strings escaped (quotes,
 * backslash, control characters, invalid UTF-8 as U+FFFD), doubles in the
 * shortest form that reads back exactly, NaN and infinities as null. */
#include "config.h"

#include "cli/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boxbfs.h"

#define MAX_DEPTH ((int)(sizeof ((bb_json_t *)0)->first / sizeof(int)))

/* The first[] slot of the current depth; deeper levels share the last one
 * (the output stays valid JSON, only the comma bookkeeping gets coarser). */
static int *first_slot(bb_json_t *j)
{
    return &j->first[j->depth < MAX_DEPTH ? j->depth : MAX_DEPTH - 1];
}

static void indent(bb_json_t *j)
{
    fputc('\n', j->f);
    for (int d = 0; d < j->depth; d++) fputs("  ", j->f);
}

/* Length of the valid UTF-8 sequence at s, or 0 if the bytes there are not one
 * (overlong forms, surrogates and code points above U+10FFFF are invalid). */
static size_t utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    size_t len;
    unsigned cp, min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1fu; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0fu; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07u; min = 0x10000; }
    else return 0;
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xc0u) != 0x80u) return 0;   /* also stops at the terminating NUL */
        cp = (cp << 6) | (s[k] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

static void write_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p != '\0') {
        unsigned c = *p;
        size_t len;
        switch (c) {
        case '"': fputs("\\\"", f); p++; continue;
        case '\\': fputs("\\\\", f); p++; continue;
        case '\b': fputs("\\b", f); p++; continue;
        case '\f': fputs("\\f", f); p++; continue;
        case '\n': fputs("\\n", f); p++; continue;
        case '\r': fputs("\\r", f); p++; continue;
        case '\t': fputs("\\t", f); p++; continue;
        default: break;
        }
        if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
            p++;
            continue;
        }
        len = utf8_length(p);
        if (len == 0) {   /* JSON text must be UTF-8: replace the stray byte */
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        fwrite(p, 1, len, f);
        p += len;
    }
    fputc('"', f);
}

/* Comma, newline and indentation before an element, then "key": if any. */
static void element(bb_json_t *j, const char *key)
{
    int *first = first_slot(j);
    if (!*first) fputc(',', j->f);
    *first = 0;
    if (j->depth > 0) indent(j);
    if (key != NULL) {
        write_string(j->f, key);
        fputs(": ", j->f);
    }
    j->in_key = 0;
}

void bb_json_init(bb_json_t *j, FILE *f)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    for (int d = 0; d < MAX_DEPTH; d++) j->first[d] = 1;
}

static void begin(bb_json_t *j, const char *key, char open)
{
    element(j, key);
    fputc(open, j->f);
    j->depth++;
    *first_slot(j) = 1;
}

static void end(bb_json_t *j, char close)
{
    int empty;
    if (j->depth == 0) return;   /* unbalanced end: ignore rather than corrupt */
    empty = *first_slot(j);
    j->depth--;
    if (!empty) indent(j);
    fputc(close, j->f);
}

void bb_json_begin_object(bb_json_t *j, const char *key) { begin(j, key, '{'); }
void bb_json_end_object(bb_json_t *j) { end(j, '}'); }
void bb_json_begin_array(bb_json_t *j, const char *key) { begin(j, key, '['); }
void bb_json_end_array(bb_json_t *j) { end(j, ']'); }

void bb_json_string(bb_json_t *j, const char *key, const char *value)
{
    element(j, key);
    if (value == NULL) fputs("null", j->f);
    else write_string(j->f, value);
}

void bb_json_int(bb_json_t *j, const char *key, int64_t value)
{
    element(j, key);
    fprintf(j->f, "%" PRId64, value);
}

void bb_json_double(bb_json_t *j, const char *key, double value)
{
    char buf[32];
    element(j, key);
    if (!isfinite(value)) {
        fputs("null", j->f);
        return;
    }
    /* The shortest of 15..17 significant digits that reads back as value. */
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, value);
        if (strtod(buf, NULL) == value) break;
    }
    fputs(buf, j->f);
}

void bb_json_bool(bb_json_t *j, const char *key, int value)
{
    element(j, key);
    fputs(value ? "true" : "false", j->f);
}

void bb_json_provenance(bb_json_t *j)
{
    char date[32];
    time_t now = time(NULL);
    struct tm utc;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &utc));
    bb_json_string(j, "version", boxbfs_version());
    bb_json_string(j, "commit", bb_build_commit());
    bb_json_string(j, "date", date);
}

int bb_json_finish(bb_json_t *j)
{
    fputc('\n', j->f);
    if (fflush(j->f) != 0) return -1;
    return ferror(j->f) ? -1 : 0;
}
