/* Status strings, thread-local messages and the abortable barrier. */
#include "config.h"

#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "common/error.h"
#include "common/threads.h"

static boxbfs_status_t fail_on_two(int tid, int n, void *arg)
{
    (void)n;
    (void)arg;
    if (tid == 2) return bb_error_set(BOXBFS_ERR_DEVICE, "thread %d failed", tid);
    return BOXBFS_OK;
}

static boxbfs_status_t barrier_user(int tid, int n, void *arg)
{
    bb_barrier_t *b = arg;
    (void)n;
    if (tid == 1) {
        bb_barrier_abort(b);   /* a failing worker: the others must not hang */
        return BOXBFS_OK;
    }
    for (int i = 0; i < 5; i++)
        if (bb_barrier_wait(b)) break;
    return BOXBFS_OK;
}

int main(void)
{
    bb_barrier_t b;
    for (int s = 0; s >= -10; s--) CHECK(strlen(boxbfs_status_string((boxbfs_status_t)s)) > 0);
    CHECK(strcmp(boxbfs_status_string(BOXBFS_ERR_PARSE), "parse error") == 0);
    CHECK(bb_error_set(BOXBFS_ERR_IO, "x.mtx: %s", "gone") == BOXBFS_ERR_IO);
    CHECK(strcmp(boxbfs_last_error(), "x.mtx: gone") == 0);
    CHECK(bb_parallel_run(4, fail_on_two, NULL) == BOXBFS_ERR_DEVICE);
    CHECK(strcmp(boxbfs_last_error(), "thread 2 failed") == 0);
    CHECK_OK(bb_barrier_init(&b, 3));
    CHECK_OK(bb_parallel_run(3, barrier_user, &b));
    bb_barrier_destroy(&b);
    CHECK(strcmp(boxbfs_version(), PACKAGE_VERSION) == 0);
    CHECK_DONE();
}
