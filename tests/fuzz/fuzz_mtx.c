/* Fuzz harness: Matrix Market files through boxbfs_graph_load (src/io/mtx.c
 * and the line reader). The input is the file; its size picks the direction
 * asked for, so one corpus covers all three (bb_fuzz_text_file). */
#include "config.h"

#include "fuzz.h"

const char bb_fuzz_format[] = "mtx";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bb_fuzz_text_file(data, size, ".mtx");
    return 0;
}
