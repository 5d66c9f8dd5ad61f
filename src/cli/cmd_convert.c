/* "boxbfs convert IN OUT": read any input boxbfs loads (Matrix Market, SNAP
 * edge list, .gz, kron: spec, .bbcsr) and write it as a binary CSR file that
 * later loads with one read. The file is written under a temporary name next
 * to OUT and renamed into place, so a failure never leaves a partial OUT. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const bb_load_cmd_t convert_cmd = {
    .command = "convert",
    .usage = "usage: boxbfs convert IN OUT.bbcsr [options]\n"
             "\n"
             "Convert IN, a file (.mtx, SNAP edge list, .bbcsr, any of them .gz) or\n"
             "kron:SCALE[:EF[:SEED]], to the binary CSR format. OUT must end in .bbcsr;\n"
             "it is replaced only once the whole file has been written.\n"
             "\n"
             "options:\n"
             "  --directed       read IN as a directed graph\n"
             "  --undirected     read IN as an undirected graph\n"
             "                   (default: the format's own: Matrix Market symmetry,\n"
             "                   undirected otherwise)\n"
             "  --threads N      threads for generating and building (default 0: all CPUs)\n"
             "  --help           show this help\n",
    .max_positional = 2,
    .too_many = "give IN and OUT only",
};

int bb_cmd_convert(int argc, char **argv)
{
    bb_load_args_t args;
    const char *in, *out;
    struct stat sb;
    int rc;

    rc = bb_cli_parse_load_args(&convert_cmd, argc, argv, &args);
    if (rc != BB_ARGS_GO_ON) return rc;
    in = args.positional[0];
    out = args.positional[1];
    if (in == NULL)
        return bb_cli_usage_error("convert", "missing IN and OUT: give an input graph and an "
                                  "output .bbcsr file");
    if (out == NULL)
        return bb_cli_usage_error("convert", "missing OUT: give the output .bbcsr file");
    if (bb_ends_with(out, ".bbcsr.gz"))
        return bb_cli_usage_error("convert", "OUT must not be compressed: binary graphs are "
                                  "written as plain .bbcsr");
    if (!bb_ends_with(out, ".bbcsr") || strlen(out) == strlen(".bbcsr") ||
        bb_ends_with(out, "/.bbcsr"))
        return bb_cli_usage_error("convert", "OUT '%.300s' must be a file name ending in .bbcsr",
                                  out);
    if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
        return bb_cli_usage_error("convert", "OUT '%.300s' is a directory", out);
    bb_cli_note_direction(in, &args.load);

    return bb_cli_write_graph("convert", in, out, &args.load, 0);
}
