/* Output files written whole or not at all: the load-and-write step of gen
 * and convert, and bfs's --output, --json and --traffic-csv (bb_outfile_t).
 * A regular OUT (or one not there yet) is written under a temporary name next
 * to it and renamed into place, so a failure never leaves a partial file;
 * stdout, devices and pipes are written in place, since renaming over them
 * would replace them. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "common/timer.h"

/* Temporary files not renamed or removed yet: removed at exit and on SIGTERM,
 * SIGINT, SIGHUP (mpirun ends the other ranks with SIGTERM when one fails). */
enum { MAX_LIVE = 8 };
static char *volatile live[MAX_LIVE];

static void remove_live(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] != NULL) unlink(live[i]);
}

static void on_signal(int sig)
{
    remove_live();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void track(char *tmp, int on)
{
    static int installed;
    if (!installed) {
        installed = 1;
        atexit(remove_live);
        boxbfs_abort_hook_set(remove_live);
        for (int i = 0; i < 3; i++) {
            int sig = i == 0 ? SIGTERM : i == 1 ? SIGINT : SIGHUP;
            struct sigaction old;
            if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL) signal(sig, on_signal);
        }
    }
    for (int i = 0; i < MAX_LIVE; i++) {
        if (on && live[i] == NULL) {
            live[i] = tmp;
            return;
        }
        if (!on && live[i] == tmp) live[i] = NULL;
    }
}

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
            track(tmp, 1);
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

/* 1 when out is renamed into place (a regular file or none yet), 0 when
 * written in place ("-", a device, a pipe). */
static int renamed_into_place(const char *out)
{
    struct stat sb;
    return strcmp(out, "-") != 0 && (stat(out, &sb) != 0 || S_ISREG(sb.st_mode));
}

int bb_outfile_open(bb_outfile_t *o, const char *path)
{
    boxbfs_status_t st;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    if (renamed_into_place(path) && (st = create_temporary(path, &o->tmp)) != BOXBFS_OK) {
        bb_cli_fail(st);
        return -1;
    }
    o->f = fopen(o->tmp != NULL ? o->tmp : path, "w");
    if (o->f == NULL) {
        bb_cli_error("%s: cannot open for writing: %s", o->tmp != NULL ? o->tmp : path,
                     strerror(errno));
        bb_outfile_discard(o);
        return -1;
    }
    return 0;
}

int bb_outfile_commit(bb_outfile_t *o)
{
    int bad;
    if (o->f == NULL) return -1;
    bad = ferror(o->f) != 0;
    bad |= o->f != stdout ? fclose(o->f) != 0 : fflush(o->f) != 0;
    o->f = NULL;
    if (bad) {
        bb_cli_error("%s: write failed", o->path);
    } else if (o->tmp != NULL && rename(o->tmp, o->path) != 0) {
        bb_cli_error("cannot rename %s to %s: %s", o->tmp, o->path, strerror(errno));
        bad = 1;
    }
    if (bad && o->tmp != NULL) unlink(o->tmp);
    track(o->tmp, 0);
    free(o->tmp);
    o->tmp = NULL;
    return bad ? -1 : 0;
}

void bb_outfile_discard(bb_outfile_t *o)
{
    if (o->f != NULL && o->f != stdout) fclose(o->f);
    if (o->f == stdout) fflush(stdout);
    if (o->tmp != NULL) unlink(o->tmp);
    track(o->tmp, 0);
    free(o->tmp);
    o->tmp = NULL;
    o->f = NULL;
}

int bb_cli_write_graph(const char *command, const char *spec, const char *out,
                       const boxbfs_load_options_t *opts, int generate)
{
    boxbfs_graph_t graph = NULL;
    boxbfs_status_t st;
    char *tmp = NULL;
    const char *path;
    double t0, t_loaded;
    int rc = BB_EXIT_OK;

    if (renamed_into_place(out))
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
    track(tmp, 0);
    free(tmp);
    boxbfs_graph_free(graph);
    return rc;
}
