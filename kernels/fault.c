/* Fault injection for tests (kernels/fault.h): a device-operations table in
 * front of a backend's whose alloc, copy, peer-copy and kernel entries count
 * their calls and fail the one BOXBFS_FAULT names, then forward (and one in
 * front of its 2D kernels, bb_fault_wrap_grid2d). Devices are
 * recorded at open (handle, stream, ordinal, backend) so that every entry,
 * kernels included (they get a stream), knows its device and its backend. */
#include "config.h"

#include "kernels/fault.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"

typedef enum { F_ALLOC, F_COPY, F_LAUNCH, F_PEER_COPY, F_RANK, F_LEVEL, F_WAKE } fault_kind_t;

static struct {
    char text[96];          /* BOXBFS_FAULT as given (for the message) */
    fault_kind_t kind;
    long long nth;          /* the call that fails, from 1 */
    int dev;                /* device ordinal, -1: any */
    int rank;               /* rank:R */
    atomic_llong calls;
} spec;
static atomic_int my_rank = -1;

/* Devices opened through a wrapper. */
enum { MAX_DEVS = 1024 };
static struct {
    bb_device_t *dev;
    void *stream;
    int ordinal;
    const bb_device_ops_t *base;
} devs[MAX_DEVS];
static pthread_mutex_t devs_lock = PTHREAD_MUTEX_INITIALIZER;

/* The entry of a device (by handle, or by stream where handle is NULL). */
static int find_dev(const bb_device_t *dev, const void *stream, const bb_device_ops_t **base_p)
{
    int ordinal = -2;
    pthread_mutex_lock(&devs_lock);
    for (int i = 0; i < MAX_DEVS && ordinal == -2; i++) {
        if (devs[i].base == NULL) continue;
        if (dev != NULL ? devs[i].dev == dev : devs[i].stream == stream) {
            ordinal = devs[i].ordinal;
            *base_p = devs[i].base;
        }
    }
    pthread_mutex_unlock(&devs_lock);
    return ordinal;
}

void bb_fault_set_rank(int rank) { atomic_store(&my_rank, rank); }

int32_t bb_fault_level(const bb_device_t *dev)
{
    const bb_device_ops_t *base = NULL;
    int ordinal = find_dev(dev, NULL, &base);
    if (base == NULL || spec.kind != F_LEVEL || (spec.dev >= 0 && spec.dev != ordinal)) return -1;
    return (int32_t)spec.nth;
}

static const char *kind_name(fault_kind_t k)
{
    static const char *const names[] = {"allocation", "copy", "kernel launch", "peer copy",
                                        "kernel launch", "device search level", "wake"};
    return names[k];
}

/* Count a call of kind on device ordinal; fail the one the spec names. */
static boxbfs_status_t hit(fault_kind_t kind, int ordinal, const char *what)
{
    int match = spec.kind == kind || (spec.kind == F_RANK && kind == F_LAUNCH &&
                                      atomic_load(&my_rank) == spec.rank);
    if (!match || (spec.dev >= 0 && spec.dev != ordinal)) return BOXBFS_OK;
    if (atomic_fetch_add(&spec.calls, 1) + 1 != spec.nth) return BOXBFS_OK;
    if (spec.kind == F_RANK)
        return bb_error_set(BOXBFS_ERR_DEVICE, "injected fault (BOXBFS_FAULT=%s): rank %d: %s "
                            "(kernel launch %lld) on device %d failed", spec.text, spec.rank,
                            what, spec.nth, ordinal);
    return bb_error_set(kind == F_ALLOC ? BOXBFS_ERR_DEVICE_MEMORY : BOXBFS_ERR_DEVICE,
                        "injected fault (BOXBFS_FAULT=%s): %s (%s %lld) on device %d failed",
                        spec.text, what, kind_name(kind), spec.nth, ordinal);
}

/* The base of a device and the verdict on this call. */
#define FAULT_DEV(kind, dev, stream, what)                                       \
    const bb_device_ops_t *base = NULL;                                          \
    int ordinal_ = find_dev((dev), (stream), &base);                             \
    if (base == NULL)                                                            \
        return bb_error_set(BOXBFS_ERR_INTERNAL, "fault injection: unknown device"); \
    BB_CHECK(hit((kind), ordinal_, (what)))

static boxbfs_status_t f_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    FAULT_DEV(F_ALLOC, dev, NULL, "device allocation");
    return base->alloc(dev, bytes, ptr_p);
}

static boxbfs_status_t f_host_alloc(bb_device_t *dev, size_t bytes, void **ptr_p)
{
    FAULT_DEV(F_ALLOC, dev, NULL, "pinned host allocation");
    return base->host_alloc(dev, bytes, ptr_p);
}

static boxbfs_status_t f_copy_h2d(bb_device_t *dev, void *dst, const void *src, size_t bytes)
{
    FAULT_DEV(F_COPY, dev, NULL, "host-to-device copy");
    return base->copy_h2d(dev, dst, src, bytes);
}

static boxbfs_status_t f_copy_d2h(bb_device_t *dev, void *dst, const void *src, size_t bytes)
{
    FAULT_DEV(F_COPY, dev, NULL, "device-to-host copy");
    return base->copy_d2h(dev, dst, src, bytes);
}

static boxbfs_status_t f_peer_copy(bb_device_t *dst_dev, void *dst, bb_device_t *src_dev,
                                   const void *src, size_t bytes)
{
    FAULT_DEV(F_PEER_COPY, src_dev, NULL, "peer copy");   /* issued on the source's stream */
    return base->peer_copy(dst_dev, dst, src_dev, src, bytes);
}

static void f_close(bb_device_t *dev)
{
    const bb_device_ops_t *base = NULL;
    pthread_mutex_lock(&devs_lock);
    for (int i = 0; i < MAX_DEVS; i++) {
        if (devs[i].base != NULL && devs[i].dev == dev) {
            base = devs[i].base;
            devs[i].base = NULL;
            break;
        }
    }
    pthread_mutex_unlock(&devs_lock);
    if (base != NULL) base->close(dev);
}

/* Kernels: one counted launch each, found by their stream. */
#define KERNEL(name, params, args)                                               \
    static boxbfs_status_t f_##name params                                       \
    {                                                                            \
        FAULT_DEV(F_LAUNCH, NULL, stream, "kernel " #name);                      \
        return base->kernels.name args;                                          \
    }
KERNEL(reset, (const bb_kstate_t *k, void *stream, uint64_t root), (k, stream, root))
KERNEL(expand, (const bb_kstate_t *k, void *stream, uint64_t c, int f, int x), (k, stream, c, f, x))
KERNEL(contract, (const bb_kstate_t *k, void *stream, uint64_t count), (k, stream, count))
KERNEL(expand_atomic, (const bb_kstate_t *k, void *stream, uint64_t c, int x, int32_t l),
       (k, stream, c, x, l))
KERNEL(pack_bitmap, (const bb_kstate_t *k, void *stream, const uint32_t *list, uint64_t count,
                     uint32_t *bitmap, uint64_t nbits), (k, stream, list, count, bitmap, nbits))
KERNEL(unpack_bitmap, (const bb_kstate_t *k, void *stream, const uint32_t *bitmap, uint64_t nbits,
                       uint32_t *list), (k, stream, bitmap, nbits, list))
KERNEL(update_list, (const bb_kstate_t *k, void *stream, const uint32_t *list,
                     const uint32_t *parents, uint64_t count, int src, int32_t l),
       (k, stream, list, parents, count, src, l))
KERNEL(update_bitmap, (const bb_kstate_t *k, void *stream, const uint32_t *bitmap, uint64_t nbits,
                       int src, int32_t l), (k, stream, bitmap, nbits, src, l))
KERNEL(gather_requests, (const bb_kstate_t *k, void *stream), (k, stream))
KERNEL(gather_answer, (const bb_kstate_t *k, void *stream, uint32_t *req, uint64_t count,
                       uint64_t lo), (k, stream, req, count, lo))
KERNEL(gather_apply, (const bb_kstate_t *k, void *stream, const uint32_t *req,
                      const uint32_t *resp, uint64_t count, uint64_t lo),
       (k, stream, req, resp, count, lo))
KERNEL(gather_recompute, (const bb_kstate_t *k, void *stream, const bb_level_set_t *sent,
                          const uint32_t *bits, uint32_t *prefix, uint32_t *slots, uint64_t count),
       (k, stream, sent, bits, prefix, slots, count))
KERNEL(bottom_up, (const bb_kstate_t *k, void *stream, int32_t l), (k, stream, l))
KERNEL(mark_frontier, (const bb_kstate_t *k, void *stream), (k, stream))
KERNEL(small_levels, (const bb_kstate_t *k, void *stream, const bb_loop_params_t *p), (k, stream, p))

/* wake:N[:dev D]: device ordinal (any, or D) comes to its N-th wake a
 * second after the others gave up waiting for it (their meeting's timeout,
 * timeout_ns), as a device held up elsewhere would. */
static void late(int ordinal, uint64_t timeout_ns)
{
    if (spec.kind == F_WAKE && (spec.dev < 0 || spec.dev == ordinal) &&
        atomic_fetch_add(&spec.calls, 1) + 1 == spec.nth) {
        const uint64_t ns = timeout_ns + 1000000000ull;
        struct timespec t = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
        while (nanosleep(&t, &t) != 0) {}
    }
}

/* The wake before a search across devices: a launch like any kernel's, and
 * a wake (late). */
static boxbfs_status_t f_peers_wake(const bb_kstate_t *k, void *stream, const bb_loop_peers_t *p)
{
    FAULT_DEV(F_LAUNCH, NULL, stream, "kernel peers_wake");
    late(ordinal_, p->timeout_ns);
    return base->kernels.peers_wake(k, stream, p);
}

/* The device search: a launch like any kernel's; level:L[:dev D] makes the
 * device (any, or ordinal D) fail as it starts level L of the search
 * (bb_search_t.fault_level), so that its peers see it while they wait. */
static boxbfs_status_t f_search(const bb_kstate_t *k, void *stream, bb_search_t *s, void **cache,
                                uint64_t *first_rows, uint32_t first)
{
    FAULT_DEV(F_LAUNCH, NULL, stream, "kernel search");
    if (spec.kind == F_LEVEL && (spec.dev < 0 || spec.dev == ordinal_))
        s->fault_level = (int32_t)spec.nth;
    return base->kernels.search(k, stream, s, cache, first_rows, first);
}

/* One wrapped table per backend (cpu, cuda): open must know its base. */
enum { SLOTS = 2 };
static bb_device_ops_t wrapped[SLOTS];
static const bb_device_ops_t *wrapped_base[SLOTS];
static pthread_mutex_t wrap_lock = PTHREAD_MUTEX_INITIALIZER;
/* The 2D kernels of each wrapped backend, and their counting table. */
static const bb_grid2d_ops_t *g2_base[SLOTS];
static bb_grid2d_ops_t g2_wrapped[SLOTS];

/* The 2D kernels of the backend whose device table is base. */
static const bb_grid2d_ops_t *g2_of(const bb_device_ops_t *base)
{
    const bb_grid2d_ops_t *g2 = NULL;
    pthread_mutex_lock(&wrap_lock);
    for (int i = 0; i < SLOTS && g2 == NULL; i++)
        if (wrapped_base[i] == base) g2 = g2_base[i];
    pthread_mutex_unlock(&wrap_lock);
    return g2;
}

/* The 2D kernels: one counted launch each, found by their stream. */
#define G2KERNEL(name, params, args)                                             \
    static boxbfs_status_t g2_##name params                                      \
    {                                                                            \
        FAULT_DEV(F_LAUNCH, NULL, stream, "2D kernel " #name);                   \
        const bb_grid2d_ops_t *g2 = g2_of(base);                                 \
        if (g2 == NULL)                                                          \
            return bb_error_set(BOXBFS_ERR_INTERNAL, "fault injection: no 2D kernels"); \
        return g2->name args;                                                    \
    }
G2KERNEL(reset, (const bb_g2state_t *k, void *stream, uint64_t root), (k, stream, root))
G2KERNEL(append, (const bb_g2state_t *k, void *stream, const uint32_t *msg, int bitmap,
                  uint64_t count, uint32_t offset, uint64_t at),
         (k, stream, msg, bitmap, count, offset, at))
G2KERNEL(expand, (const bb_g2state_t *k, void *stream, uint64_t count, int32_t l),
         (k, stream, count, l))
G2KERNEL(update, (const bb_g2state_t *k, void *stream, const uint32_t *pairs, uint64_t count,
                  int src, int32_t l), (k, stream, pairs, count, src, l))
G2KERNEL(mark, (const bb_g2state_t *k, void *stream, const uint32_t *msg, int bitmap,
                uint64_t count, int r), (k, stream, msg, bitmap, count, r))
G2KERNEL(bottom_up, (const bb_g2state_t *k, void *stream, const uint32_t *done_in,
                     uint32_t *done_out, int slice, int32_t l),
         (k, stream, done_in, done_out, slice, l))
G2KERNEL(settle, (const bb_g2state_t *k, void *stream, const uint32_t *pairs, uint64_t count,
                  int src, int32_t l), (k, stream, pairs, count, src, l))
G2KERNEL(unpack, (const bb_g2state_t *k, void *stream, const uint32_t *bits, uint64_t count,
                  uint32_t *list), (k, stream, bits, count, list))
G2KERNEL(raise_prefix, (const bb_g2state_t *k, void *stream), (k, stream))

/* The 2D device loop: a launch like any kernel's, and a wake (late): its
 * first meeting is where the others wait. */
static boxbfs_status_t g2_levels(const bb_g2state_t *k, void *stream, const bb_g2loop_t *p)
{
    FAULT_DEV(F_LAUNCH, NULL, stream, "2D kernel levels");
    const bb_grid2d_ops_t *g2 = g2_of(base);
    if (g2 == NULL) return bb_error_set(BOXBFS_ERR_INTERNAL, "fault injection: no 2D kernels");
    late(ordinal_, p->timeout_ns);
    return g2->levels(k, stream, p);
}

static boxbfs_status_t open_with(const bb_device_ops_t *base, int ordinal, bb_device_t **dev_p,
                                 char *name, size_t name_len)
{
    bb_device_t *dev;
    int slot = -1;
    BB_CHECK(base->open(ordinal, &dev, name, name_len));
    pthread_mutex_lock(&devs_lock);
    for (int i = 0; i < MAX_DEVS && slot < 0; i++)
        if (devs[i].base == NULL) slot = i;
    if (slot >= 0) {
        devs[slot].dev = dev;
        devs[slot].stream = base->stream(dev);
        devs[slot].ordinal = ordinal;
        devs[slot].base = base;
    }
    pthread_mutex_unlock(&devs_lock);
    if (slot < 0) {
        base->close(dev);
        return bb_error_set(BOXBFS_ERR_INTERNAL, "fault injection: more than %d devices open",
                            MAX_DEVS);
    }
    *dev_p = dev;
    return BOXBFS_OK;
}
static boxbfs_status_t f_open0(int o, bb_device_t **d, char *n, size_t l)
{
    return open_with(wrapped_base[0], o, d, n, l);
}
static boxbfs_status_t f_open1(int o, bb_device_t **d, char *n, size_t l)
{
    return open_with(wrapped_base[1], o, d, n, l);
}

/* KIND:N[:dev D] or rank:R[:N]. */
static boxbfs_status_t parse(const char *text)
{
    static const struct { const char *name; fault_kind_t kind; } kinds[] = {
        {"alloc", F_ALLOC}, {"copy", F_COPY}, {"launch", F_LAUNCH},
        {"peer_copy", F_PEER_COPY}, {"rank", F_RANK}, {"level", F_LEVEL}, {"wake", F_WAKE}};
    const char *colon = strchr(text, ':');
    char *end;
    long long a, b = -1;
    int found = 0;
    snprintf(spec.text, sizeof spec.text, "%s", text);
    for (size_t i = 0; colon && i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].name) == (size_t)(colon - text) &&
            strncmp(text, kinds[i].name, (size_t)(colon - text)) == 0) {
            spec.kind = kinds[i].kind;
            found = 1;
        }
    }
    if (!found) goto bad;
    a = strtoll(colon + 1, &end, 10);
    if (end == colon + 1 || a < (spec.kind == F_RANK || spec.kind == F_LEVEL ? 0 : 1)) goto bad;
    if (*end == ':' && spec.kind == F_RANK) {
        b = strtoll(end + 1, &end, 10);
        if (b < 1) goto bad;
    } else if (*end == ':') {
        const char *d = end + 1;
        if (strncmp(d, "dev", 3) != 0) goto bad;
        d += 3;
        while (*d == ' ' || *d == '=') d++;
        b = strtoll(d, &end, 10);
        if (end == d || b < 0 || b > MAX_DEVS) goto bad;
    }
    if (*end != '\0') goto bad;
    spec.nth = spec.kind == F_RANK ? (b > 0 ? b : 1) : a;
    spec.rank = spec.kind == F_RANK ? (int)a : -1;
    spec.dev = spec.kind != F_RANK && b >= 0 ? (int)b : -1;
    atomic_store(&spec.calls, 0);
    return BOXBFS_OK;
bad:
    spec.text[0] = '\0';   /* parsed again (and refused again) next time */
    return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                        "BOXBFS_FAULT='%s': expected alloc|copy|launch|peer_copy:N[:dev D] "
                        "(N >= 1), level:L[:dev D] or rank:R[:N]", text);
}

boxbfs_status_t bb_fault_wrap(const bb_device_ops_t *base, const bb_device_ops_t **ops_p)
{
    const char *text = getenv("BOXBFS_FAULT");
    static boxbfs_status_t (*const opens[SLOTS])(int, bb_device_t **, char *, size_t) = {
        f_open0, f_open1};
    boxbfs_status_t st = BOXBFS_OK;
    int slot = -1;
    if (base == NULL || text == NULL || text[0] == '\0') {
        *ops_p = base;
        return BOXBFS_OK;
    }
    pthread_mutex_lock(&wrap_lock);
    /* parsed once per process: the count goes on across engines (a test's
     * several searches); the same text again keeps it */
    if (strcmp(spec.text, text) != 0) st = parse(text);
    for (int i = 0; i < SLOTS && slot < 0 && st == BOXBFS_OK; i++)
        if (wrapped_base[i] == base || wrapped_base[i] == NULL) slot = i;
    if (st == BOXBFS_OK && slot < 0)
        st = bb_error_set(BOXBFS_ERR_INTERNAL, "fault injection: more than %d backends", SLOTS);
    if (st == BOXBFS_OK && wrapped_base[slot] == NULL) {
        bb_device_ops_t *w = &wrapped[slot];
        *w = *base;
        w->open = opens[slot];
        w->close = f_close;
        w->alloc = f_alloc;
        w->host_alloc = f_host_alloc;
        w->copy_h2d = f_copy_h2d;
        w->copy_d2h = f_copy_d2h;
        w->peer_copy = f_peer_copy;
        w->kernels = (bb_kernel_ops_t){
            .reset = f_reset, .expand = f_expand, .contract = f_contract,
            .expand_atomic = f_expand_atomic, .pack_bitmap = f_pack_bitmap,
            .unpack_bitmap = f_unpack_bitmap, .update_list = f_update_list,
            .update_bitmap = f_update_bitmap, .gather_requests = f_gather_requests,
            .gather_answer = f_gather_answer, .gather_apply = f_gather_apply,
            .gather_recompute = f_gather_recompute,
            .bottom_up = f_bottom_up, .mark_frontier = f_mark_frontier,
            .small_levels = f_small_levels, .search = f_search,
            .search_free = base->kernels.search_free, .peers_wake = f_peers_wake,
            .rank_rows = base->kernels.rank_rows, .raise_prefix = base->kernels.raise_prefix,
            .kron_rows = base->kernels.kron_rows};
        wrapped_base[slot] = base;
    }
    pthread_mutex_unlock(&wrap_lock);
    if (st == BOXBFS_OK) *ops_p = &wrapped[slot];
    return st;
}

boxbfs_status_t bb_fault_wrap_grid2d(const bb_device_ops_t *ops, const bb_grid2d_ops_t *base,
                                     const bb_grid2d_ops_t **ops_p)
{
    int slot = -1;
    *ops_p = base;
    if (base == NULL) return BOXBFS_OK;
    pthread_mutex_lock(&wrap_lock);
    for (int i = 0; i < SLOTS && slot < 0; i++)
        if (ops == &wrapped[i]) slot = i;
    if (slot >= 0) {
        bb_grid2d_ops_t *w = &g2_wrapped[slot];
        g2_base[slot] = base;
        *w = (bb_grid2d_ops_t){
            .reset = g2_reset, .append = g2_append, .expand = g2_expand, .update = g2_update,
            .mark = g2_mark, .bottom_up = g2_bottom_up, .settle = g2_settle,
            .unpack = g2_unpack, .raise_prefix = g2_raise_prefix,
            .levels = base->levels ? g2_levels : NULL};
        *ops_p = w;
    }
    pthread_mutex_unlock(&wrap_lock);
    return BOXBFS_OK;
}
