/* Wire bitmaps on the host [004 §5]: a segment of owner-local ids becomes a
 * bitmap of the owner's range when that is smaller than the list; and back
 * (a bottom-up frontier becomes the list a top-down level expands). */
#include "config.h"

#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

boxbfs_status_t bb_cpu_pack_bitmap(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   uint64_t count, uint32_t *bitmap, uint64_t nbits)
{
    (void)k;
    (void)stream;
    memset(bitmap, 0, ((nbits + 31) / 32) * sizeof(uint32_t));
    for (uint64_t i = 0; i < count; i++) bitmap[list[i] >> 5] |= 1u << (list[i] & 31);
    return BOXBFS_OK;
}

boxbfs_status_t bb_cpu_unpack_bitmap(const bb_kstate_t *k, void *stream, const uint32_t *bitmap,
                                     uint64_t nbits, uint32_t *list)
{
    uint64_t out = 0;
    (void)k;
    (void)stream;
    for (uint64_t w = 0; w < (nbits + 31) / 32; w++) {
        uint32_t bits = bitmap[w];
        while (bits) {
            uint64_t i = w * 32 + (uint64_t)__builtin_ctz(bits);
            bits &= bits - 1;
            if (i < nbits) list[out++] = (uint32_t)i;
        }
    }
    return BOXBFS_OK;
}
