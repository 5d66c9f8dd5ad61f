/* boxbfs: the command-line entry point; dispatches to the subcommands. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: boxbfs COMMAND [ARGS]\n"
            "\n"
            "commands:\n"
            "  bfs [GRAPH]      multi-device BFS from many roots, Graph500 report (default GRAPH kron:20)\n"
            "  gen SPEC OUT     write a generated or loaded graph as an edge list or .bbcsr file\n"
            "  convert IN OUT   convert a graph file to the binary CSR format (.bbcsr)\n"
            "  info GRAPH       vertices, edges, degree statistics, components\n"
            "  bc [GRAPH]       betweenness centrality (Brandes), sources split over the devices\n"
            "  topo             devices, peer access, link types; --probe measures every pair\n"
            "  msbfs GRAPH      concurrent multi-source BFS (iBFS): many sources per pass, in groups\n"
            "\n"
            "GRAPH is kron:SCALE[:EDGEFACTOR[:SEED]], a Matrix Market file (.mtx), a SNAP edge\n"
            "list, or a .bbcsr file; .gz files are read directly. 'boxbfs COMMAND --help' for more.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return BB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return BB_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("boxbfs %s (commit %s)\n", boxbfs_version(), bb_build_commit());
        return BB_EXIT_OK;
    }
    if (strcmp(argv[1], "bfs") == 0) return bb_cmd_bfs(argc - 1, argv + 1);
    if (strcmp(argv[1], "gen") == 0) return bb_cmd_gen(argc - 1, argv + 1);
    if (strcmp(argv[1], "convert") == 0) return bb_cmd_convert(argc - 1, argv + 1);
    if (strcmp(argv[1], "info") == 0) return bb_cmd_info(argc - 1, argv + 1);
    if (strcmp(argv[1], "topo") == 0) return bb_cmd_topo(argc - 1, argv + 1);
    if (strcmp(argv[1], "bc") == 0) return bb_cmd_bc(argc - 1, argv + 1);
    if (strcmp(argv[1], "msbfs") == 0) return bb_cmd_msbfs(argc - 1, argv + 1);
    bb_cli_error("unknown command '%s' (commands: bfs, gen, convert, info, topo, msbfs, bc; see boxbfs --help)", argv[1]);
    return BB_EXIT_USAGE;
}
