/* "boxbfs convert IN OUT": read any input boxbfs loads (Matrix Market, SNAP
 * edge list, .gz, kron: spec, .bbcsr) and write it as a binary CSR file that
 * later loads with one read. The file is written under a temporary name next
 * to OUT and renamed into place, so a failure never leaves a partial OUT. */
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

static void usage(FILE *f)
{
    fputs("usage: boxbfs convert IN OUT.bbcsr [options]\n"
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
          f);
}

static int usage_error(const char *what)
{
    bb_cli_error("convert: %s", what);
    fputs("Try 'boxbfs convert --help'.\n", stderr);
    return BB_EXIT_USAGE;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Create an empty file "OUT.tmp-PID-K" next to out (O_EXCL: never someone
 * else's file); *tmp_p gets its name (caller frees). */
static boxbfs_status_t create_temporary(const char *out, char **tmp_p)
{
    size_t size = strlen(out) + 48;
    char *tmp;
    BB_CHECK(bb_malloc(size, "a temporary file name", &tmp));
    for (int k = 0; k < 100; k++) {
        int fd;
        snprintf(tmp, size, "%s.tmp-%ld-%d", out, (long)getpid(), k);
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

int bb_cmd_convert(int argc, char **argv)
{
    boxbfs_load_options_t opts = {BOXBFS_DIRECTION_DEFAULT, 0};
    const char *in = NULL, *out = NULL;
    boxbfs_graph_t graph = NULL;
    boxbfs_status_t st = BOXBFS_OK;
    bb_progress_t progress;
    struct stat sb;
    char label[320], *tmp = NULL;
    double t0, t_loaded;
    int positional_only = 0, rc = BB_EXIT_OK;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int missing = 0;
        if (positional_only || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (in == NULL) {
                in = arg;
            } else if (out == NULL) {
                out = arg;
            } else {
                char msg[160];
                snprintf(msg, sizeof msg, "unexpected argument '%.100s': give IN and OUT only",
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
    if (in == NULL)
        return usage_error("missing IN and OUT: give an input graph and an output .bbcsr file");
    if (out == NULL) return usage_error("missing OUT: give the output .bbcsr file");
    if (ends_with(out, ".bbcsr.gz"))
        return usage_error("OUT must not be compressed: binary graphs are written as plain .bbcsr");
    if (!ends_with(out, ".bbcsr") || strlen(out) == strlen(".bbcsr") ||
        ends_with(out, "/.bbcsr")) {
        char msg[400];
        snprintf(msg, sizeof msg, "OUT '%.300s' must be a file name ending in .bbcsr", out);
        return usage_error(msg);
    }
    if (stat(out, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        char msg[400];
        snprintf(msg, sizeof msg, "OUT '%.300s' is a directory", out);
        return usage_error(msg);
    }
    if (opts.direction != BOXBFS_DIRECTION_DEFAULT &&
        (ends_with(in, ".bbcsr") || ends_with(in, ".bbcsr.gz")))
        bb_cli_error("note: %s has no effect on %s: a .bbcsr file records its own direction",
                     opts.direction == BOXBFS_DIRECTION_DIRECTED ? "--directed" : "--undirected",
                     in);

    /* A regular OUT (or none yet) is replaced by rename; anything else (a
     * device, a pipe) is written in place: renaming over it would replace it. */
    if (stat(out, &sb) != 0 || S_ISREG(sb.st_mode))
        BB_CHECK_GOTO(create_temporary(out, &tmp), st, out_fail);   /* before the long load */

    t0 = bb_now_s();
    snprintf(label, sizeof label, "loading %.300s", in);
    bb_progress_start(&progress, label, 0);
    bb_progress_update(&progress, 0);
    st = boxbfs_graph_load(in, &opts, &graph);
    bb_progress_end(&progress);
    if (st != BOXBFS_OK) goto out_fail;
    t_loaded = bb_now_s();

    BB_CHECK_GOTO(boxbfs_graph_save(graph, tmp != NULL ? tmp : out), st, out_fail);
    if (tmp != NULL && rename(tmp, out) != 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_IO, out_fail, "cannot rename %s to %s: %s", tmp, out,
                     strerror(errno));
    fprintf(stderr, "boxbfs: convert: %s -> %s: %lld vertices, %lld input edges, %lld arcs, %s; "
            "loaded in %.3f s, written in %.3f s\n",
            boxbfs_graph_name(graph), out, (long long)boxbfs_graph_vertices(graph),
            (long long)boxbfs_graph_input_edges(graph), (long long)boxbfs_graph_arcs(graph),
            boxbfs_graph_is_directed(graph) ? "directed" : "undirected", t_loaded - t0,
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
