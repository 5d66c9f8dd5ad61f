/* Fuzz harness: gzip framing in the line reader (src/io/reader.c), under both
 * text loaders. The first byte is a mode, the rest the data:
 *   bit 0     1: a Matrix Market file (.mtx.gz), 0: a SNAP edge list (.txt.gz)
 *   bit 1     1: the data is the file as it is (raw gzip bytes)
 *             0: the data is text, gzip-compressed here into members, so that
 *                mutations of the text reach the parsers through valid
 *                gzip, and the framing around the members is varied:
 *   bits 2-3  members - 1: the text is cut into 1 to 4 members
 *   bit 4     one byte (the text's first) follows the last member
 *   bits 5-7  that many bytes (0-7) cut off the end of the last member */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "fuzz.h"

const char bb_fuzz_format[] = "gzip";

/* Compress text into one gzip member appended at out + *used. */
static void add_member(const uint8_t *text, size_t len, uint8_t *out, size_t cap, size_t *used)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* a small window and little memory: the inputs are a few KB, and the
     * compressor's state is allocated for every member */
    if (deflateInit2(&z, 6, Z_DEFLATED, 16 + 9, 1, Z_DEFAULT_STRATEGY) != Z_OK) abort();
    z.next_in = (Bytef *)text;
    z.avail_in = (uInt)len;
    z.next_out = out + *used;
    z.avail_out = (uInt)(cap - *used);
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();   /* cap is deflateBound's */
    *used = cap - z.avail_out;
    deflateEnd(&z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    boxbfs_load_options_t opts = {0};
    const char *path, *suffix;
    uint8_t mode;

    bb_fuzz_init();
    if (size < 1) return 0;
    mode = data[0];
    data++;
    size--;
    suffix = (mode & 1) ? ".mtx.gz" : ".txt.gz";
    if (mode & 2) {
        path = bb_fuzz_write(data, size, suffix);
    } else {
        int members = 1 + ((mode >> 2) & 3), cut = (mode >> 5) & 7;
        size_t cap = 64 + (size_t)members * (64 + size + size / 1000 + 64), used = 0, from = 0;
        uint8_t *out = malloc(cap);
        if (out == NULL) abort();
        for (int m = 0; m < members; m++) {
            size_t to = m == members - 1 ? size : size * (size_t)(m + 1) / (size_t)members;
            add_member(data + from, to - from, out, cap, &used);
            from = to;
        }
        used = (size_t)cut < used ? used - (size_t)cut : 0;
        if ((mode & 16) && size > 0) out[used++] = data[0];
        path = bb_fuzz_write(out, used, suffix);
        free(out);
    }
    opts.threads = 1;
    bb_fuzz_load(path, &opts);
    return 0;
}
