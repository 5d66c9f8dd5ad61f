/* Fuzz harness: SNAP edge lists through boxbfs_graph_load (src/io/snap.c
 * and the line reader). The input is the file; its size picks the direction
 * asked for, so one corpus covers all three. */
#include "config.h"

#include "fuzz.h"

const char bb_fuzz_format[] = "snap";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const boxbfs_direction_t directions[] = {
        BOXBFS_DIRECTION_DEFAULT, BOXBFS_DIRECTION_UNDIRECTED, BOXBFS_DIRECTION_DIRECTED};
    boxbfs_load_options_t opts = {0};
    boxbfs_graph_t g = NULL;
    boxbfs_status_t st;
    const char *path;

    bb_fuzz_init();
    path = bb_fuzz_write(data, size, ".txt");
    opts.direction = directions[size % 3];
    opts.threads = 1;
    st = boxbfs_graph_load(path, &opts, &g);
    if (st != BOXBFS_OK) {
        bb_fuzz_check_refusal(st, path);
        return 0;
    }
    bb_fuzz_check_graph(g);
    boxbfs_graph_free(g);
    return 0;
}
