/* The size limit every graph loader applies to what a file declares
 * (io.h: bb_io_max_vertices): a header field that feeds an allocation is
 * checked against it first. */
#include "config.h"

#include "io/io.h"

static int64_t max_vertices = BB_IO_MAX_VERTICES;

int64_t bb_io_max_vertices(void) { return max_vertices; }

void bb_io_set_max_vertices(int64_t max)
{
    max_vertices = max > 0 && max < BB_IO_MAX_VERTICES ? max : BB_IO_MAX_VERTICES;
}
