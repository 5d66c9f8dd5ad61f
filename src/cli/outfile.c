/* The load-and-write step of gen and convert. A regular OUT (or one not there
 * yet) is written under a temporary name next to it and renamed into place,
 * so a failure never leaves a partial file; stdout, devices and pipes are
 * written in place, since renaming over them would replace them. */
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

/* Create an empty file "OUT.tmp-PID-K[.gz]" next to out (O_EXCL: never
 * someone else's file); the writers pick compression by the name, so a .gz
 * OUT keeps its suffix. *tmp_p gets the name (caller frees). */
static boxbfs_status_t create_temporary(const char *out, char **tmp_p)
{
    size_t size = strlen(out) + 48;
    char *tmp = malloc(size);
    if (tmp == NULL)
        return bb_cli_status(BOXBFS_ERR_NO_MEMORY, "cannot allocate %zu bytes for a temporary file name",
                             size);
    for (int k = 0; k < 100; k++) {
        int fd;
        snprintf(tmp, size, "%s.tmp-%ld-%d%s", out, (long)getpid(), k,
                 bb_ends_with(out, ".gz") ? ".gz" : "");
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd);
            *tmp_p = tmp;
            return BOXBFS_OK;
        }
        if (errno != EEXIST) {
            boxbfs_status_t st = bb_cli_status(BOXBFS_ERR_IO,
                                               "cannot write %s: cannot create %s: %s", out,
                                               tmp, strerror(errno));
            free(tmp);
            return st;
        }
    }
    free(tmp);
    return bb_cli_status(BOXBFS_ERR_IO, "cannot write %s: no free temporary name next to it", out);
}

int bb_cli_write_graph(const char *command, const char *spec, const char *out,
                       const boxbfs_load_options_t *opts, int generate)
{
    boxbfs_graph_t graph = NULL;
    boxbfs_status_t st;
    struct stat sb;
    char *tmp = NULL;
    const char *path;
    double t0, t_loaded;
    int rc = BB_EXIT_OK;

    if (strcmp(out, "-") != 0 && (stat(out, &sb) != 0 || S_ISREG(sb.st_mode)))
        BB_CHECK_GOTO(create_temporary(out, &tmp), st, out_fail);   /* before the long load */
    path = tmp != NULL ? tmp : out;

    t0 = bb_now_s();
    BB_CHECK_GOTO(bb_cli_load_graph(generate ? "generating" : "loading", spec, opts, &graph), st,
                  out_fail);
    t_loaded = bb_now_s();

    if (bb_ends_with(out, ".bbcsr")) BB_CHECK_GOTO(boxbfs_graph_save(graph, path), st, out_fail);
    else BB_CHECK_GOTO(boxbfs_graph_save_edgelist(graph, path), st, out_fail);
    if (tmp != NULL && rename(tmp, out) != 0) {
        st = bb_cli_status(BOXBFS_ERR_IO, "cannot rename %s to %s: %s", tmp, out, strerror(errno));
        goto out_fail;
    }
    fprintf(stderr, "boxbfs: %s: %s -> %s: %lld vertices, %lld input edges, %lld arcs, %s; "
            "%s in %.3f s, written in %.3f s\n",
            command, boxbfs_graph_name(graph), strcmp(out, "-") == 0 ? "<stdout>" : out,
            (long long)boxbfs_graph_vertices(graph), (long long)boxbfs_graph_input_edges(graph),
            (long long)boxbfs_graph_arcs(graph),
            boxbfs_graph_is_directed(graph) ? "directed" : "undirected",
            generate ? "generated" : "loaded", t_loaded - t0, bb_now_s() - t_loaded);
    goto out_free;

out_fail:
    rc = bb_cli_fail(st);
    if (tmp != NULL) unlink(tmp);   /* still there: the rename did not happen */
out_free:
    free(tmp);
    boxbfs_graph_free(graph);
    return rc;
}
