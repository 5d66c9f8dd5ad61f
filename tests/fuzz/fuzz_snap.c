/* Fuzz harness: SNAP edge lists through boxbfs_graph_load (src/io/snap.c
 * and the line reader). The input is the file; its size picks the direction
 * asked for, so one corpus covers all three (bb_fuzz_text_file). */
#include "config.h"

#include "fuzz.h"

const char bb_fuzz_format[] = "snap";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bb_fuzz_text_file(data, size, ".txt");
    return 0;
}
