/* Thread-local error messages, status strings and stderr logging. */
#include "config.h"

#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Thread_local char last_message[1024];

const char *boxbfs_status_string(boxbfs_status_t status)
{
    switch (status) {
    case BOXBFS_OK: return "success";
    case BOXBFS_ERR_INVALID_ARG: return "invalid argument";
    case BOXBFS_ERR_IO: return "input/output error";
    case BOXBFS_ERR_PARSE: return "parse error";
    case BOXBFS_ERR_NO_MEMORY: return "out of host memory";
    case BOXBFS_ERR_NO_DEVICE: return "no such device";
    case BOXBFS_ERR_DEVICE: return "device error";
    case BOXBFS_ERR_DEVICE_MEMORY: return "out of device memory";
    case BOXBFS_ERR_VALIDATION: return "validation failed";
    case BOXBFS_ERR_UNSUPPORTED: return "not supported";
    case BOXBFS_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

const char *boxbfs_last_error(void) { return last_message; }

const char *boxbfs_version(void) { return PACKAGE_VERSION; }

boxbfs_status_t bb_error_set(boxbfs_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return status;
}

void bb_error_copy(const char *message)
{
    if (message != last_message) snprintf(last_message, sizeof last_message, "%s", message);
}

static int log_threshold(void)
{
    const char *env = getenv("BOXBFS_LOG");
    if (env == NULL) return BB_LOG_WARN;
    if (strcmp(env, "error") == 0) return BB_LOG_ERROR;
    if (strcmp(env, "info") == 0) return BB_LOG_INFO;
    if (strcmp(env, "debug") == 0) return BB_LOG_DEBUG;
    return BB_LOG_WARN;
}

int bb_log_enabled(bb_log_level_t level) { return (int)level <= log_threshold(); }

/* A source path as the tree names it ("src/x.c"): the build names every
 * file after the same source folder as this one ("../src/x.c" out of the
 * tree, "/abs/path/src/x.c" where configure ran by its absolute path), so
 * what precedes "src/common/error.c" in this file's name precedes theirs. */
static const char *tree_path(const char *file)
{
    static const char self[] = __FILE__, tail[] = "src/common/error.c";
    const size_t root = sizeof self - sizeof tail;   /* the folder's length */
    if (sizeof self >= sizeof tail && strcmp(self + root, tail) == 0 &&
        strncmp(file, self, root) == 0)
        return file + root;
    return file;
}

void bb_log(bb_log_level_t level, int dev, const char *file, int line, const char *fmt, ...)
{
    /* an error reads as the command's own ("boxbfs: MESSAGE"); the others name their level */
    static const char *prefixes[] = {"", "warning: ", "info: ", "debug: "};
    char msg[1024], where[64] = "", place[300] = "";
    va_list ap;
    if (!bb_log_enabled(level)) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (dev >= 0) snprintf(where, sizeof where, "[dev %d] ", dev);
    /* the source line only where one debugs boxbfs (file NULL: a program's boxbfs_log) */
    if (file != NULL && bb_log_enabled(BB_LOG_DEBUG))
        snprintf(place, sizeof place, "%s:%d: ", tree_path(file), line);
    /* on a terminal, from the start of a cleared line: a progress line (the
     * CLI's elapsed time) may stand there, and is redrawn under it */
    fprintf(stderr, "%sboxbfs: %s%s%s%s\n", isatty(STDERR_FILENO) ? "\r\033[K" : "",
            prefixes[level], where, place, msg);
}

void boxbfs_log(boxbfs_log_level_t level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (fmt == NULL || level < BOXBFS_LOG_ERROR || level > BOXBFS_LOG_DEBUG) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bb_log((bb_log_level_t)level, -1, NULL, 0, "%s", msg);
}

boxbfs_status_t bb_malloc(size_t bytes, const char *what, void *ptr_p)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL)
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot allocate %zu bytes of host memory for %s",
                            bytes, what);
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

boxbfs_status_t bb_calloc(size_t count, size_t size, const char *what, void *ptr_p)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p == NULL)
        return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot allocate %zu x %zu bytes of host memory for %s",
                            count, size, what);
    *(void **)ptr_p = p;
    return BOXBFS_OK;
}

static void (*abort_hook)(void);

void boxbfs_abort_hook_set(void (*hook)(void)) { abort_hook = hook; }

void bb_abort_hook_run(void)
{
    if (abort_hook != NULL) abort_hook();
}
