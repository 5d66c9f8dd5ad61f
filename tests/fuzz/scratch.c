/* The fuzz input as a file (fuzz.h: bb_fuzz_write): the loaders read paths,
 * so each input is written to a scratch file in a private folder under
 * $TMPDIR, overwritten by the next input and removed at exit. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "fuzz.h"

static char folder[4096];

/* Every scratch file's suffix, for the paths and the cleanup. */
static const char *const suffixes[] = {".mtx", ".txt", ".bbcsr", ".mtx.gz", ".txt.gz",
                                       ".copy.bbcsr"};
#define NSUFFIXES (sizeof suffixes / sizeof suffixes[0])
static char paths[NSUFFIXES][4200];

static void remove_folder(void)
{
    for (size_t i = 0; i < NSUFFIXES; i++) unlink(bb_fuzz_path(suffixes[i]));
    rmdir(folder);
}

void bb_fuzz_init(void)
{
    static int done;
    const char *tmp = getenv("TMPDIR");
    if (done) return;
    done = 1;
    bb_io_set_max_vertices(BB_FUZZ_MAX_VERTICES);
    setenv("BOXBFS_LOG", "error", 1);
    snprintf(folder, sizeof folder, "%s/boxbfs-fuzz.XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(folder) == NULL) {
        fprintf(stderr, "fuzz: cannot create a scratch folder %s: %s\n", folder, strerror(errno));
        abort();
    }
    atexit(remove_folder);
}

const char *bb_fuzz_path(const char *suffix)
{
    bb_fuzz_init();
    for (size_t i = 0; i < NSUFFIXES; i++) {
        if (strcmp(suffix, suffixes[i]) != 0) continue;
        if (paths[i][0] == '\0') snprintf(paths[i], sizeof paths[i], "%s/input%s", folder, suffix);
        return paths[i];
    }
    fprintf(stderr, "fuzz: no scratch file for '%s'\n", suffix);
    abort();
}

const char *bb_fuzz_write(const void *data, size_t size, const char *suffix)
{
    const char *path = bb_fuzz_path(suffix), *p = data;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
        abort();
    }
    while (size > 0) {
        ssize_t put = write(fd, p, size);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
            fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
            abort();
        }
        p += put;
        size -= (size_t)put;
    }
    close(fd);
    return path;
}
