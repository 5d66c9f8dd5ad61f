/* "boxbfs gen SPEC OUT": generate (kron:SCALE[:EF[:SEED]]) or load a graph and
 * write it, as a binary CSR when OUT ends in .bbcsr, else as a SNAP-style edge
 * list ("-" for stdout, compressed when OUT ends in .gz). A regular OUT is
 * written under a temporary name and renamed into place, so a failure never
 * leaves a partial file. One summary line goes to stderr. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const bb_load_cmd_t gen_cmd = {
    .command = "gen",
    .usage = "usage: boxbfs gen SPEC OUT [options]\n"
             "\n"
             "Generate SPEC (kron:SCALE[:EDGEFACTOR[:SEED]], Graph500 Kronecker) or load\n"
             "it from a file (.mtx, .bbcsr, SNAP edge list, any of them .gz), and write\n"
             "it to OUT: a binary CSR when OUT ends in .bbcsr, otherwise a SNAP edge\n"
             "list (tab-separated, '#' header) compressed when OUT ends in .gz; '-'\n"
             "writes the edge list to stdout.\n"
             "\n"
             "options:\n"
             "  --directed       make the graph directed (generated graphs and files\n"
             "                   without a stated direction are undirected by default)\n"
             "  --undirected     make the graph undirected\n"
             "  --threads N      threads for generating and building (default 0: all CPUs)\n"
             "  --help           show this help\n",
    .max_positional = 2,
    .too_many = "give SPEC and OUT only",
};

int bb_cmd_gen(int argc, char **argv)
{
    bb_load_args_t args;
    const char *spec, *out;
    struct stat sb;
    int rc;

    rc = bb_cli_parse_load_args(&gen_cmd, argc, argv, &args);
    if (rc != BB_ARGS_GO_ON) return rc;
    spec = args.positional[0];
    out = args.positional[1];
    if (spec == NULL)
        return bb_cli_usage_error("gen", "missing SPEC and OUT: e.g. boxbfs gen kron:16 g.bbcsr");
    if (out == NULL)
        return bb_cli_usage_error("gen", "missing OUT: a .bbcsr file, an edge list file, or - "
                                  "for stdout");
    if (strcmp(spec, "-") == 0)
        return bb_cli_usage_error("gen", "SPEC cannot be stdin ('-'): give kron:SCALE or a file");
    if (bb_ends_with(out, ".bbcsr.gz"))
        return bb_cli_usage_error("gen", "OUT must not be a compressed .bbcsr: binary graphs are "
                                  "written as plain .bbcsr");
    if (bb_ends_with(out, ".mtx") || bb_ends_with(out, ".mtx.gz"))
        return bb_cli_usage_error("gen", "cannot write Matrix Market: name OUT .bbcsr (binary) "
                                  "or e.g. .txt (edge list)");
    if (strcmp(out, "-") != 0 && stat(out, &sb) == 0 && S_ISDIR(sb.st_mode))
        return bb_cli_usage_error("gen", "OUT '%.300s' is a directory", out);
    bb_cli_note_direction(spec, &args.load);

    return bb_cli_write_graph("gen", spec, out, &args.load, strncmp(spec, "kron:", 5) == 0);
}
