/* Error reporting inside boxbfs: a thread-local detailed message written once,
 * where the problem is first seen, and the BB_CHECK / BB_FAIL_GOTO macros that
 * propagate a boxbfs_status_t through one exit path per function. Logging to
 * stderr with the level from BOXBFS_LOG (error, warn, info, debug). */
#ifndef BB_ERROR_H
#define BB_ERROR_H

#include "boxbfs.h"

/* Record a detailed message for status and return status. The message is
 * printf-formatted; it replaces any earlier one on this thread. */
boxbfs_status_t bb_error_set(boxbfs_status_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Copy another thread's message into this thread's (worker -> caller). */
void bb_error_copy(const char *message);

typedef enum { BB_LOG_ERROR = 0, BB_LOG_WARN = 1, BB_LOG_INFO = 2, BB_LOG_DEBUG = 3 } bb_log_level_t;
/* "boxbfs: warning: [dev D] message" on stderr ("info: ", "debug: "; an error
 * has no level word, as the command's own errors); dev < 0 omits the device.
 * Under BOXBFS_LOG=debug "file:line: " comes before the message (file NULL:
 * none, boxbfs_log). Levels as boxbfs_log_level_t's. */
void bb_log(bb_log_level_t level, int dev, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int bb_log_enabled(bb_log_level_t level);

#define BB_WARN(dev, ...) bb_log(BB_LOG_WARN, (dev), __FILE__, __LINE__, __VA_ARGS__)
#define BB_INFO(dev, ...) bb_log(BB_LOG_INFO, (dev), __FILE__, __LINE__, __VA_ARGS__)
#define BB_DEBUG(dev, ...) bb_log(BB_LOG_DEBUG, (dev), __FILE__, __LINE__, __VA_ARGS__)

/* Return the status of call if it failed (its message is already set). */
#define BB_CHECK(call)                                  \
    do {                                                \
        boxbfs_status_t bb_check_st_ = (call);          \
        if (bb_check_st_ != BOXBFS_OK) return bb_check_st_; \
    } while (0)

/* Store the status of call in st and jump to label if it failed. */
#define BB_CHECK_GOTO(call, st, label)                  \
    do {                                                \
        (st) = (call);                                  \
        if ((st) != BOXBFS_OK) goto label;              \
    } while (0)

/* Set a message, store code in st, jump to label. */
#define BB_FAIL_GOTO(st, code, label, ...)              \
    do {                                                \
        (st) = bb_error_set((code), __VA_ARGS__);       \
        goto label;                                     \
    } while (0)

/* malloc/calloc that set NO_MEMORY with the size and what it was for. */
boxbfs_status_t bb_malloc(size_t bytes, const char *what, void *ptr_p);
boxbfs_status_t bb_calloc(size_t count, size_t size, const char *what, void *ptr_p);

/* Run the hook of boxbfs_abort_hook_set (if any) before the process ends
 * without returning (an MPI rank's MPI_Abort). */
void bb_abort_hook_run(void);

#endif /* BB_ERROR_H */
