/* Replay driver for the fuzz harnesses: runs the harness's
 * LLVMFuzzerTestOneInput over every file of its seed corpus and its past
 * regressions (tests/fuzz/corpus/<format>/ and tests/fuzz/regress/<format>/
 * under $FUZZ_DATA, which make check sets), or over the files and folders
 * given as arguments. Built by the normal build, so make check (and CI's
 * ASan+UBSan build) replays every input; a harness that finds a broken
 * invariant abort()s, a sanitizer stops the run. Exit 0, or 99 when an input
 * cannot be read. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Run the harness on one file, its bytes in a block of exactly their size
 * (so that ASan sees any read past the end). Returns 0, or -1 if unreadable. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    uint8_t *data;
    size_t size;
    if (f == NULL || fstat(fileno(f), &sb) != 0) {
        fprintf(stderr, "replay: %s: cannot open: %s\n", path, strerror(errno));
        if (f != NULL) fclose(f);
        return -1;
    }
    size = (size_t)sb.st_size;
    data = malloc(size > 0 ? size : 1);
    if (data == NULL || fread(data, 1, size, f) != size) {
        fprintf(stderr, "replay: %s: cannot read\n", path);
        free(data);
        fclose(f);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int skip_name(const struct dirent *e) { return e->d_name[0] != '.'; }

/* Every file of a folder, in name order, or the path itself if a file.
 * Adds the inputs run to *count. Returns 0 or -1. */
static int replay_path(const char *path, int *count)
{
    struct dirent **names;
    struct stat sb;
    int n, failed = 0;
    char child[4200];
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (replay_file(path) != 0) return -1;
        (*count)++;
        return 0;
    }
    n = scandir(path, &names, skip_name, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        snprintf(child, sizeof child, "%s/%s", path, names[i]->d_name);
        if (replay_path(child, count) != 0) failed = 1;
        free(names[i]);
    }
    free(names);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = getenv("FUZZ_DATA");
    static const char *const kinds[] = {"corpus", "regress"};
    char path[4200];
    int count = 0, failed = 0;

    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (replay_path(argv[i], &count) != 0) failed = 1;
        printf("replayed %d %s inputs\n", count, bb_fuzz_format);
        return failed ? 99 : 0;
    }
    if (dir == NULL || dir[0] == '\0') dir = "tests/fuzz";
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct stat sb;
        int before = count;
        snprintf(path, sizeof path, "%s/%s/%s", dir, kinds[k], bb_fuzz_format);
        if (stat(path, &sb) != 0) {
            if (k == 0) {   /* the seed corpus must be there */
                fprintf(stderr, "replay: %s: %s (set FUZZ_DATA to tests/fuzz)\n", path,
                        strerror(errno));
                return 99;
            }
            continue;
        }
        if (replay_path(path, &count) != 0) failed = 1;
        printf("%s: %d inputs\n", path, count - before);
    }
    return failed ? 99 : 0;
}
