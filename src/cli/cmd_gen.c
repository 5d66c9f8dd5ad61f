/* "boxbfs gen SPEC OUT": generate (kron:SCALE[:EF[:SEED]]) or load a graph and
 * write it, as a binary CSR when OUT ends in .bbcsr, else as a SNAP-style edge
 * list ("-" for stdout, compressed when OUT ends in .gz). A regular OUT is
 * written under a temporary name and renamed into place, so a failure never
 * leaves a partial file. One summary line goes to stderr. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/timer.h"
#include "io/io.h"

static void usage(FILE *f)
{
    fputs("usage: boxbfs gen SPEC OUT [options]\n"
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
          f);
}

static int usage_error(const char *what)
{
    bb_cli_error("gen: %s", what);
    fputs("Try 'boxbfs gen --help'.\n", stderr);
    return BB_EXIT_USAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Create an empty file "OUT.tmp-PID-K[.gz]" next to out (O_EXCL: never
 * someone else's file); the writers pick compression by the name, so a .gz
 * OUT keeps its suffix. *tmp_p gets the name (caller frees). */
static boxbfs_status_t create_temporary(const char *out, char **tmp_p)
{
    size_t size = strlen(out) + 48;
    char *tmp;
    BB_CHECK(bb_malloc(size, "a temporary file name", &tmp));
    for (int k = 0; k < 100; k++) {
        int fd;
        snprintf(tmp, size, "%s.tmp-%ld-%d%s", out, (long)getpid(), k,
                 ends_with(out, ".gz") ? ".gz" : "");
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd);
            *tmp_p = tmp;
            return BOXBFS_OK;
        }
        if (errno != EEXIST) {
            boxbfs_status_t st = bb_error_set(BOXBFS_ERR_IO,
                                              "cannot write %s: cannot create %s: %s", out,
                                              tmp, strerror(errno));
            free(tmp);
            return st;
        }
    }
    free(tmp);
    return bb_error_set(BOXBFS_ERR_IO, "cannot write %s: no free temporary name next to it", out);
}

int bb_cmd_gen(int argc, char **argv)
{
    boxbfs_load_options_t opts = {BOXBFS_DIRECTION_DEFAULT, 0};
    const char *spec = NULL, *out = NULL;
    boxbfs_graph_t graph = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    bb_progress_t progress;
    struct stat sb;
    char label[320], *tmp = NULL;
    double t0, t_loaded;
    int positional_only = 0, binary, rc = BB_EXIT_OK;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (spec == NULL) {
                spec = arg;
            } else if (out == NULL) {
                out = arg;
            } else {
                char msg[160];
                snprintf(msg, sizeof msg, "unexpected argument '%.100s': give SPEC and OUT only",
                         arg);
                return usage_error(msg);
            }
        } else if (strcmp(arg, "--") == 0) {
            positional_only = 1;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return BB_EXIT_OK;
        } else if (strcmp(arg, "--directed") == 0 || strcmp(arg, "--undirected") == 0) {
            boxbfs_direction_t d = arg[2] == 'd' ? BOXBFS_DIRECTION_DIRECTED
                                                 : BOXBFS_DIRECTION_UNDIRECTED;
            if (opts.direction != BOXBFS_DIRECTION_DEFAULT && opts.direction != d)
                return usage_error("--directed and --undirected exclude each other");
            opts.direction = d;
        } else if ((v = bb_opt_value(argc, argv, &i, "--threads", &missing)) != NULL || missing) {
            int64_t t;
            if (missing || bb_parse_i64(v, 0, 65536, &t) != 0)
                return usage_error("--threads needs a whole number in [0, 65536] (0: all CPUs)");
            opts.threads = (int)t;
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown option '%.100s'", arg);
            return usage_error(msg);
        }
    }
    if (spec == NULL) return usage_error("missing SPEC and OUT: e.g. boxbfs gen kron:16 g.bbcsr");
    if (out == NULL)
        return usage_error("missing OUT: a .bbcsr file, an edge list file, or - for stdout");
    if (strcmp(spec, "-") == 0)
        return usage_error("SPEC cannot be stdin ('-'): give kron:SCALE or a file");
    if (ends_with(out, ".bbcsr.gz"))
        return usage_error("OUT must not be a compressed .bbcsr: binary graphs are written "
                           "as plain .bbcsr");
    if (ends_with(out, ".mtx") || ends_with(out, ".mtx.gz"))
        return usage_error("cannot write Matrix Market: name OUT .bbcsr (binary) or e.g. "
                           ".txt (edge list)");
    if (strcmp(out, "-") != 0 && stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        char msg[400];
        snprintf(msg, sizeof msg, "OUT '%.300s' is a directory", out);
        return usage_error(msg);
    }
    binary = ends_with(out, ".bbcsr");
    if (opts.direction != BOXBFS_DIRECTION_DEFAULT &&
        (ends_with(spec, ".bbcsr") || ends_with(spec, ".bbcsr.gz")))
        bb_cli_error("note: %s has no effect on %s: a .bbcsr file records its own direction",
                     opts.direction == BOXBFS_DIRECTION_DIRECTED ? "--directed" : "--undirected",
                     spec);

    /* A regular OUT (or none yet) is replaced by rename; stdout, devices and
     * pipes are written in place: renaming over them would replace them. */
    if (strcmp(out, "-") != 0 && (stat(out, &sb) != 0 || S_ISREG(sb.st_mode)))
        BB_CHECK_GOTO(create_temporary(out, &tmp), st, out_fail);   /* before the long load */

    t0 = bb_now_s();
    snprintf(label, sizeof label, "%s %.300s",
             strncmp(spec, "kron:", 5) == 0 ? "generating" : "loading", spec);
    bb_progress_start(&progress, label, 0);
    bb_progress_update(&progress, 0);
    st = boxbfs_graph_load(spec, &opts, &graph);
    bb_progress_end(&progress);
    if (st != BOXBFS_OK) goto out_fail;
    t_loaded = bb_now_s();

    if (binary) BB_CHECK_GOTO(boxbfs_graph_save(graph, tmp != NULL ? tmp : out), st, out_fail);
    else BB_CHECK_GOTO(bb_io_save_edgelist(graph, tmp != NULL ? tmp : out), st, out_fail);
    if (tmp != NULL && rename(tmp, out) != 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_fail, "cannot rename %s to %s: %s", tmp, out,
                     strerror(errno));
    fprintf(stderr, "boxbfs: gen: %s -> %s: %lld vertices, %lld input edges, %lld arcs, %s; "
            "%s in %.3f s, written in %.3f s\n",
            boxbfs_graph_name(graph), strcmp(out, "-") == 0 ? "<stdout>" : out,
            (long long)boxbfs_graph_vertices(graph), (long long)boxbfs_graph_input_edges(graph),
            (long long)boxbfs_graph_arcs(graph),
            boxbfs_graph_is_directed(graph) ? "directed" : "undirected",
            strncmp(spec, "kron:", 5) == 0 ? "generated" : "loaded", t_loaded - t0,
            bb_now_s() - t_loaded);
    goto out_free;

out_fail:
    rc = bb_cli_fail(st);
    if (tmp != NULL) unlink(tmp);
out_free:
    free(tmp);
    boxbfs_graph_free(graph);
    return rc;
}
