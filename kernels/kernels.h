/* The device-operations table: everything the level engine asks of a device
 * (memory, copies, peer copies, timers, and the BFS kernels), implemented by
 * the cpu backend (kernels/cpu/, devices emulated by host memory) and the cuda
 * backend (kernels/cuda/). The engine above it is written once.
 *
 * Kernels take a bb_kstate_t (device pointers and sizes of one device's BFS
 * state) and an opaque stream; they are asynchronous on backends that have
 * streams. Results the host needs (counts) land in kstate.counters, which the
 * engine copies back with copy_d2h after sync. */
#ifndef BB_KERNELS_H
#define BB_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "boxbfs.h"

/* Code shared by the host and, where nvcc compiles this header, the device. */
#ifdef __CUDACC__
#define BB_HOST_DEVICE __host__ __device__
#else
#define BB_HOST_DEVICE
#endif

#define BB_UNSET32 UINT32_MAX   /* remote_parent entry not set */

/* Layout of kstate.counters (uint64 entries in device memory). */
enum {
    BB_CTR_EXPANDED = 0,   /* neighbors written by expand                     */
    BB_CTR_NEXT = 1,       /* vertices in the next frontier (update)          */
    BB_CTR_NEXT_ARCS = 2,  /* their out-arcs (Beamer's m_f of the next level) */
    BB_CTR_SEND = 3        /* then ndev send counts, then ndev send offsets   */
};
#define BB_CTR_COUNT(ndev) (3 + 2 * (size_t)(ndev))
#define BB_CTR_SEND_COUNT(o) (BB_CTR_SEND + (o))
#define BB_CTR_SEND_OFFSET(ndev, o) (BB_CTR_SEND + (ndev) + (o))

/* Devices that meet in each other's memory (the device loop across devices,
 * bb_loop_params_t.peers, and the device search across devices,
 * bb_search_t.peers): each device appends the remote vertices it wins
 * straight into their owner's inbox (peer memory) and the devices meet
 * through mailboxes in each other's memory (bb_meet's protocol below), so a
 * level needs no host at all. */
#define BB_LOOP_MAX_DEV 8
#define BB_MAIL_WORDS 16           /* per source in a device's mailbox (two 64-byte lines) */
#define BB_LOOP_FAILED UINT64_MAX  /* counters[EXPANDED] of a loop that gave up waiting */
/* The abort word (bb_loop_peers_t.abort): 0 while the search is sound; a
 * device that fails stores its index + 1 there, or'ed with BB_ABORT_TIMEOUT
 * where it gave up waiting for the others (one of them never came); every
 * device polls it while it waits, so one failure ends every device's wait. */
#define BB_ABORT_TIMEOUT 0x80000000u
typedef struct {
    /* to[o]: where this device writes its list for device o (o's inbox
     * region for this source); from[o]: where o's list for this device
     * lands. to_parent[o], from_parent[o]: the same for each listed vertex's
     * parent (a gid: the owner stores it, nothing is gathered after the
     * search), or NULL where the parents stay with the finder (remote_parent,
     * gathered after the search) */
    uint32_t *to[BB_LOOP_MAX_DEV];
    const uint32_t *from[BB_LOOP_MAX_DEV];
    uint32_t *to_parent[BB_LOOP_MAX_DEV];
    const uint32_t *from_parent[BB_LOOP_MAX_DEV];
    /* mail[o]: device o's mailbox, BB_MAIL_WORDS words per source (bb_meet's
     * bb_mail_half, then the loop's bb_mail_words). tag: the last meeting's tag; meetings count up
     * from it by one each, across launches (every device holds the same
     * tag), and never repeat over the engine's life */
    uint64_t *mail[BB_LOOP_MAX_DEV];
    /* cap[o]: entries of device o's inbox region for one source (the loop
     * fills it from both ends, bb_loop_slot) */
    uint64_t cap[BB_LOOP_MAX_DEV];
    uint64_t tag;
    uint64_t local_count, local_arcs;   /* this device's part of count and arcs */
    uint64_t timeout_ns;                /* give up waiting for a peer after this */
    /* the abort word of the engine (host memory every device reads) */
    uint32_t *abort;
} bb_loop_peers_t;

/* A meeting (tag t, every device with the same t): device s stores, in
 * every other device o's mailbox slot for s, the half of parity t & 1:
 * words [4 (t & 1) + 1] .. [4 (t & 1) + 3] (up to three values for o), then
 * [4 (t & 1)] = t after a system-scope fence (release); then it waits until every
 * other device's tag t has come into its own mailbox (acquire) and reads
 * their values. Two halves: a device can be one meeting ahead of another
 * (it left meeting t, the other has yet to read t's values), never two. A
 * wait polls the abort word and gives up after timeout_ns. A meeting of
 * nvalues values puts 8 (1 + nvalues) bytes on each link (the books). */
static inline BB_HOST_DEVICE uint64_t *bb_mail_half(uint64_t *mail, int src, uint64_t tag)
{
    return mail + (size_t)src * BB_MAIL_WORDS / 2 + 4 * (tag & 1);
}

/* The loop's meeting (a level: its list for o, this device's part of the
 * frontier and its arcs, BB_MAIL_VALUES 32-bit values) needs no fence where
 * the device sent no list: each value travels in a word of its own with the
 * tag's low 32 bits above it, so a value is there once its word shows the
 * tag (a word is written whole). A device that sent a list fences once
 * before its words (the list before the values). These words lie after
 * bb_mail_half's (whose tags they could be mistaken for), one line per
 * source (two halves by the tag's parity); each device zeroes its own at
 * the start of every search, since tags of different searches may share
 * their low 32 bits (the engine, bb_engine_mail_words). */
#define BB_MAIL_VALUES 4
static inline BB_HOST_DEVICE uint64_t *bb_mail_words(uint64_t *mail, int ndev, int src,
                                                     uint64_t tag)
{
    return mail + (size_t)ndev * BB_MAIL_WORDS / 2 + (size_t)src * 8 + 4 * (tag & 1);
}
static inline BB_HOST_DEVICE uint64_t bb_mail_word(uint64_t tag, uint32_t value)
{
    return (tag << 32) | value;
}
static inline BB_HOST_DEVICE int bb_mail_word_is(uint64_t word, uint64_t tag)
{
    return (uint32_t)(word >> 32) == (uint32_t)tag;
}

/* Where entry i of the list a loop level sends lands in an inbox region of
 * cap entries: levels of even run fill it from the front, odd ones from the
 * back. A device one level ahead of another (meeting once a level) never
 * writes where the other still reads: a source sends a vertex to its owner
 * at most once, so two levels' lists hold at most cap vertices together
 * (device_setup.c sizes the lean inbox for two lists of --device-loop arcs). */
static inline BB_HOST_DEVICE uint64_t bb_loop_slot(uint64_t i, uint32_t runs, uint64_t cap)
{
    return runs & 1u ? cap - 1 - i : i;
}
enum { BB_MEET_OK = 0, BB_MEET_ABORTED = 1, BB_MEET_TIMEOUT = 2 };

/* The device loop of small levels (bb_kernel_ops_t.small_levels): the
 * frontier at level `level` is in kstate.frontier. */
typedef struct {
    int32_t level;
    int32_t max_depth;         /* < 0: none */
    uint64_t count, arcs;      /* the frontier's size and out-arcs */
    uint64_t prev_count;       /* the level before's frontier (Beamer's growth test) */
    uint64_t unexplored;       /* arcs not expanded yet, this frontier's included */
    uint64_t n;                /* vertices of the graph */
    uint64_t max_arcs;         /* run a level only while its frontier has at most this many arcs */
    double alpha;              /* > 0: stop where auto switches to bottom-up (the engine's rule) */
    uint64_t td_arcs;          /* a frontier of at most this many arcs stays top-down under
                                * alpha (one device: BB_TOP_DOWN_ARCS; several: 0) */
    uint32_t log_cap;          /* levels kstate.level_log holds */
    uint32_t from_counters;    /* 1: count and arcs are counters[NEXT], [NEXT_ARCS], left by the
                                * level just queued on this stream (the fields are ignored) */
    bb_loop_peers_t peers;     /* several devices (kstate.ndev > 1) */
} bb_loop_params_t;
/* A level's row of kstate.level_log: the frontier (all devices), its arcs,
 * nanoseconds, and on one device 0 (the device loop) or the step
 * (BB_STEP_*, the device search). With several devices also this device's
 * part of the frontier (at [3]), the nanoseconds of the level's own work
 * before its first meeting (the expand; the whole step's own work for a
 * bottom-up step) and of its waits in meetings (a late or slower peer shows
 * here), the step (BB_STEP_*), of the vertices sent those a loop before
 * sent in this level and undid (bb_loop_stops_here), the hubs' levels it
 * stored into every other device (a top-down step that splits the hubs'
 * rows, bb_peers_split_hubs), and the vertices sent to each device (those
 * included). The rest of the level's time is its update. */
#define BB_LOG_FIELDS 4
#define BB_LOG_EXPAND_NS BB_LOG_FIELDS
#define BB_LOG_MEET_NS (BB_LOG_FIELDS + 1)
#define BB_LOG_STEP (BB_LOG_FIELDS + 2)
#define BB_LOG_UNDONE (BB_LOG_FIELDS + 3)
#define BB_LOG_HUBS (BB_LOG_FIELDS + 4)
#define BB_LOG_SENT (BB_LOG_FIELDS + 5)
#define BB_LOG_ROW(ndev) (BB_LOG_FIELDS + ((ndev) > 1 ? 5 + (size_t)(ndev) : 0))

/* The rules the engine and both backends' device loops share (plain C, and
 * host + device code where nvcc compiles this header), so that the loop
 * stops exactly where the engine would choose otherwise. */

/* On one device a frontier of at most this many out-arcs stays top-down under
 * auto: such a level takes a few microseconds top-down (in the device loop,
 * or one launch), less than any bottom-up level, which scans every unvisited
 * vertex after a host round trip (README "Direction-optimizing BFS"). */
#define BB_TOP_DOWN_ARCS 16384

/* Beamer's top-down -> bottom-up test: the frontier grows and its arcs times
 * alpha exceed the unexplored arcs plus n (a bottom-up level looks at every
 * vertex at least once; README "Direction-optimizing BFS"). */
static inline BB_HOST_DEVICE int bb_turns_bottom_up(uint64_t count, uint64_t prev, uint64_t arcs,
                                                    uint64_t unexplored, uint64_t n, double alpha)
{
    return count > prev && (double)arcs * alpha > (double)unexplored + (double)n;
}

/* The arcs still unexplored once a frontier with arcs out-arcs is expanded. */
static inline BB_HOST_DEVICE uint64_t bb_unexplored_after(uint64_t unexplored, uint64_t arcs)
{
    return unexplored - (arcs < unexplored ? arcs : unexplored);
}

/* Where a device loop stands before a level: its level and run, the
 * frontier (vertices and out-arcs, summed over the devices), the one before
 * and the arcs still unexplored: what bb_loop_stops reads. */
typedef struct {
    int32_t level;
    uint32_t runs;
    uint64_t count, arcs, prev, unexplored;
} bb_loop_walk_t;

/* The walk of a loop launched on a frontier of count vertices and arcs. */
static inline BB_HOST_DEVICE bb_loop_walk_t bb_loop_begin(const bb_loop_params_t *p,
                                                         uint64_t count, uint64_t arcs)
{
    bb_loop_walk_t w = {p->level, 0, count, arcs, p->prev_count, p->unexplored};
    return w;
}

/* No level runs at `level` with a frontier of count vertices: it is empty,
 * or the depth limit (max_depth < 0: none) is reached. */
static inline BB_HOST_DEVICE int bb_search_ends(uint64_t count, int32_t level, int32_t max_depth)
{
    return count == 0 || (max_depth >= 0 && level >= max_depth);
}

/* Where the device loop stops before running a level (bb_loop_params_t). */
static inline BB_HOST_DEVICE int bb_loop_stops(const bb_loop_params_t *p, const bb_loop_walk_t *w)
{
    return bb_search_ends(w->count, w->level, p->max_depth) ||
           w->arcs > p->max_arcs || w->runs == p->log_cap ||
           (p->alpha > 0 && w->arcs > p->td_arcs &&
            bb_turns_bottom_up(w->count, w->prev, w->arcs, w->unexplored, p->n, p->alpha));
}

/* Across devices the loop meets once a level, with this device's part of
 * the frontier (count, arcs) and the list it sent each other device; so it
 * learns the frontier's totals only after it expanded its part. A device
 * expands its part unless the loop certainly stops there, whatever the
 * others hold: the depth limit, a full log, or more arcs here alone than a
 * loop level may have (this bounds the work a level may have to undo).
 * Where the totals then say stop, each device undoes its expansion
 * (visited, levels, parents) and the loop ends before that level. */
static inline BB_HOST_DEVICE int bb_loop_stops_here(const bb_loop_params_t *p,
                                                    const bb_loop_walk_t *w, uint64_t local_arcs)
{
    return (p->max_depth >= 0 && w->level >= p->max_depth) || w->runs == p->log_cap ||
           local_arcs > p->max_arcs;
}

/* Meetings of a loop across devices that ran `runs` levels: one a level
 * and the one at which it stopped (none where it stopped before its first
 * level, on totals it was given). */
static inline BB_HOST_DEVICE uint64_t bb_loop_meetings(uint32_t runs)
{
    return runs ? (uint64_t)runs + 1 : 0;
}

/* A level ran: its frontier's arcs are explored, the next frontier holds
 * count vertices and arcs out-arcs. */
static inline BB_HOST_DEVICE void bb_loop_advance(bb_loop_walk_t *w, uint64_t count, uint64_t arcs)
{
    w->unexplored = bb_unexplored_after(w->unexplored, w->arcs);
    w->prev = w->count;
    w->count = count;
    w->arcs = arcs;
    w->level++;
    w->runs++;
}

/* Beamer's rule for the level a walk stands at (level.c's choose_direction;
 * the device search takes it on the device): after a top-down level,
 * bottom-up once the frontier grows and its arcs times alpha exceed the arcs
 * not yet explored plus n (a bottom-up level looks at every vertex at least
 * once: near the end of a search few arcs remain unexplored, and without
 * the n a road network's tail would turn bottom-up at a cost of all n
 * vertices per level); after a bottom-up level, stay while the frontier
 * grows or holds more than n / beta vertices, or while its more than
 * BB_TOP_DOWN_ARCS arcs times alpha still exceed the arcs not yet explored
 * plus bu_scan, what a bottom-up level costs before any row (the frontier
 * shrinks after the bottom-up levels of a Kronecker graph, yet its top-down
 * level probes each of its arcs at random while little is left for a
 * bottom-up level to scan: kron:24's level 5, 465 K vertices, 63 us
 * top-down on one H200). Before all, on one device a frontier of at most
 * BB_TOP_DOWN_ARCS arcs stays top-down. last: the level before's direction. */
typedef struct {
    int bottom_up;     /* the engine holds in-arcs: bottom-up levels can run */
    int direction;     /* --direction (boxbfs_search_direction_t) */
    int one_device;
    double alpha, beta;
    uint64_t n;
    uint64_t bu_scan;  /* a bottom-up level's cost before its rows, in arcs (bb_engine_dir_rule) */
} bb_dir_rule_t;

static inline BB_HOST_DEVICE int bb_choose_direction(const bb_dir_rule_t *r,
                                                     const bb_loop_walk_t *w, int last)
{
    if (!r->bottom_up) return BOXBFS_SEARCH_TOP_DOWN;
    if (r->direction != BOXBFS_SEARCH_AUTO) return r->direction;
    if (r->one_device && w->arcs <= BB_TOP_DOWN_ARCS) return BOXBFS_SEARCH_TOP_DOWN;
    if (last != BOXBFS_SEARCH_BOTTOM_UP)
        return bb_turns_bottom_up(w->count, w->prev, w->arcs, w->unexplored, r->n, r->alpha)
                   ? BOXBFS_SEARCH_BOTTOM_UP
                   : BOXBFS_SEARCH_TOP_DOWN;
    return w->count >= w->prev || (double)w->count * r->beta > (double)r->n ||
                   (w->arcs > BB_TOP_DOWN_ARCS &&
                    (double)w->arcs * r->alpha > (double)w->unexplored + (double)r->bu_scan)
               ? BOXBFS_SEARCH_BOTTOM_UP
               : BOXBFS_SEARCH_TOP_DOWN;
}

/* The device search (bb_kernel_ops_t.search; README "The search on the
 * device"): one device with the atomic method runs its whole search without
 * the host, level after level by the engine's rules: a top-down level (the
 * atomic expand), a bottom-up level, or the device loop for a run of small
 * top-down levels. Each level's row goes to kstate.level_log from row 0
 * (BB_LOG_FIELDS: frontier, arcs, nanoseconds, and the step that ran it,
 * BB_STEP_*; the loop's rows have 0 there). The call returns when the search
 * is done or the log is full (the engine books the rows and calls again). */
enum { BB_STEP_NONE = -1, BB_STEP_LOOP = 0, BB_STEP_TOP_DOWN = 1, BB_STEP_BOTTOM_UP = 2 };
typedef struct {
    /* constant over a search */
    bb_dir_rule_t rule;
    int32_t max_depth;        /* < 0: none */
    int32_t expand;           /* boxbfs_expand_t */
    int32_t marks_bits;       /* top-down levels also leave their discoveries in own_bits */
    uint32_t log_cap;         /* rows kstate.level_log holds */
    uint64_t loop_arcs;       /* --device-loop: top-down levels of at most this many arcs */
    /* where the search stands: in from the engine, out to it */
    bb_loop_walk_t w;         /* the next level (runs unused) */
    int32_t dir, last_dir;    /* its direction, the level before's */
    int32_t done;             /* frontier empty or depth limit reached */
    int32_t in_list, in_bits; /* the frontier is in `frontier` (a list), in own_bits */
    int32_t failed;           /* the device loop ran no level where the rule chose it */
    uint32_t rows;            /* rows this call logged */
    int32_t prepare;          /* in: only set the backend's search up (its cache), run nothing */
    uint64_t span_ns;         /* device time from its first step's start to its last's end */
    uint32_t *frontier, *next_frontier, *frontier_bits, *own_bits;   /* as they are now */
    /* Several devices of one process with peer access (rule.one_device 0;
     * README "Where a search runs"): every device runs the search at once
     * and they meet in each other's memory (bb_loop_peers_t). mine,
     * mine_arcs: this device's part of the frontier (w holds the sums). The
     * frontier as a bitmap: bits[b][o] is device o's bitmap b of n bits;
     * bitmap `parity` holds the frontier, a bottom-up step writes the next
     * one into the other bitmap of every device (its own part). */
    bb_loop_peers_t peers;
    uint64_t mine, mine_arcs;
    uint32_t *bits[2][BB_LOOP_MAX_DEV];
    int32_t parity;
    /* stage[o], stage_parent[o]: this device's own memory where a top-down
     * step gathers its list for device o (vertices, parents) before it copies
     * it into o's inbox in one stream of whole lines (the scattered stores of
     * the expand stay local) */
    uint32_t *stage[BB_LOOP_MAX_DEV], *stage_parent[BB_LOOP_MAX_DEV];
    /* visited[o]: device o's visited array (kstate.visited; the big
     * top-down levels share it first: bb_peers_share_visited) */
    void *visited[BB_LOOP_MAX_DEV];
    /* hub_level[o]: device o's copy of the hubs' levels (kstate.hub_level) */
    int32_t *hub_level[BB_LOOP_MAX_DEV];
    /* spill[o]: vertices the loop sent device o in the level it undid (the
     * level it stopped at); the step that runs that level logs them with its
     * own (kernels.h bb_loop_stops_here) */
    uint64_t spill[BB_LOOP_MAX_DEV];
    int32_t fault_level;      /* >= 0: this device fails as it starts that level (tests:
                               * BOXBFS_FAULT=level:L) */
    int32_t aborted;          /* out: a meeting failed (BB_MEET_ABORTED, BB_MEET_TIMEOUT) */
    uint32_t abort_code;      /* out: the abort word then (which device, and how) */
} bb_search_t;

/* The step that runs the level s stands at, BB_STEP_NONE when the search is
 * over or the log full. */
static inline BB_HOST_DEVICE int bb_search_step(const bb_search_t *s)
{
    if (s->done || s->failed || s->aborted || s->rows >= s->log_cap) return BB_STEP_NONE;
    if (s->dir == BOXBFS_SEARCH_BOTTOM_UP) return BB_STEP_BOTTOM_UP;
    return s->loop_arcs > 0 && s->w.arcs <= s->loop_arcs ? BB_STEP_LOOP : BB_STEP_TOP_DOWN;
}

/* Before a step: 1 where the frontier list must first be made from own_bits
 * (top-down after bottom-up); a bottom-up level's bitmaps trade places and
 * *pack_p says whether the list must be packed into frontier_bits first. */
static inline BB_HOST_DEVICE int bb_search_begin(bb_search_t *s, int step, int *pack_p)
{
    int unpack = step != BB_STEP_BOTTOM_UP && !s->in_list;
    *pack_p = 0;
    if (step == BB_STEP_BOTTOM_UP) {
        uint32_t *t = s->frontier_bits;
        *pack_p = !s->in_bits;
        s->frontier_bits = s->own_bits;
        s->own_bits = t;
    }
    if (unpack) s->in_list = 1;
    return unpack;
}

/* The next frontier becomes the frontier. */
static inline BB_HOST_DEVICE void bb_search_swap_lists(bb_search_t *s)
{
    uint32_t *t = s->frontier;
    s->frontier = s->next_frontier;
    s->next_frontier = t;
}

/* s->w stands at the next level, the last one ran in direction last
 * (bb_engine_advance's rule): whether the search ends, and its direction. */
static inline BB_HOST_DEVICE void bb_search_settle(bb_search_t *s, int last)
{
    s->last_dir = last;
    s->done = bb_search_ends(s->w.count, s->w.level, s->max_depth);
    s->dir = bb_choose_direction(&s->rule, &s->w, last);
}

/* After a top-down or bottom-up step found next vertices with next_arcs
 * out-arcs: the next level, its direction. */
static inline BB_HOST_DEVICE void bb_search_advance(bb_search_t *s, int step, uint64_t next,
                                                    uint64_t next_arcs)
{
    bb_search_swap_lists(s);
    s->in_list = step == BB_STEP_TOP_DOWN;
    s->in_bits = step == BB_STEP_BOTTOM_UP || s->marks_bits;
    s->rows++;
    bb_loop_advance(&s->w, next, next_arcs);
    bb_search_settle(s, s->dir);
}

/* The device loop's parameters that change level by level, where s
 * stands: all that one device's loop step on a GPU reads of its launch's
 * (the rest is the same in every search: kernels/cuda/small_levels.cu). */
static inline BB_HOST_DEVICE void bb_search_loop_walk(bb_loop_params_t *p, const bb_search_t *s)
{
    p->level = s->w.level;
    p->count = s->w.count;
    p->arcs = s->w.arcs;
    p->prev_count = s->w.prev;
    p->unexplored = s->w.unexplored;
    p->log_cap = s->log_cap - s->rows;
}

/* The device loop's parameters where s stands (device_loop.c's loop_params). */
static inline BB_HOST_DEVICE bb_loop_params_t bb_search_loop_params(const bb_search_t *s)
{
    bb_loop_params_t p;
    memset(&p, 0, sizeof p);
    bb_search_loop_walk(&p, s);
    p.max_depth = s->max_depth;
    p.n = s->rule.n;
    p.max_arcs = s->loop_arcs;
    p.alpha = s->rule.bottom_up && s->rule.direction == BOXBFS_SEARCH_AUTO ? s->rule.alpha : 0;
    p.td_arcs = s->rule.one_device ? BB_TOP_DOWN_ARCS : 0;
    if (!s->rule.one_device) {   /* this device's part of the frontier */
        p.peers = s->peers;
        p.peers.local_count = s->mine;
        p.peers.local_arcs = s->mine_arcs;
    }
    return p;
}

/* After the device loop walked to lw (lw->runs levels, each logged). */
static inline BB_HOST_DEVICE void bb_search_after_loop(bb_search_t *s, const bb_loop_walk_t *lw)
{
    if (lw->runs == 0) {   /* the rule chose the loop: it runs at least one level */
        s->failed = 1;
        return;
    }
    if (lw->runs % 2) bb_search_swap_lists(s);
    s->rows += lw->runs;
    s->w = *lw;
    s->w.runs = 0;
    s->in_list = 1;
    s->in_bits = 0;
    bb_search_settle(s, BOXBFS_SEARCH_TOP_DOWN);
}

/* Several devices, before a step (bb_search_step): 1 where the frontier
 * list must first be made from this device's part of bitmap `parity` (a
 * top-down step or the loop after a bottom-up step); *pack_p = 1 where a
 * bottom-up step must first pack the list into its part of bitmap `parity`
 * and store that part into every other device's bitmap `parity` (after a
 * top-down step or the loop; a bottom-up step stored its next part there
 * already). */
static inline BB_HOST_DEVICE int bb_peers_begin(bb_search_t *s, int step, int *pack_p)
{
    int unpack = step != BB_STEP_BOTTOM_UP && !s->in_list;
    *pack_p = step == BB_STEP_BOTTOM_UP && !s->in_bits;
    if (unpack) s->in_list = 1;
    return unpack;
}

/* Whether a top-down level of arcs frontier arcs raises the visited prefix
 * (a raise reads up to n ranks and their visited bits; a smaller level
 * skips with the prefix it has). */
static inline BB_HOST_DEVICE int bb_prefix_raises(uint64_t arcs, uint64_t n) { return arcs >= n; }

/* Several devices: whether a step (BB_STEP_*) of a level of arcs frontier
 * arcs first shares visited: the devices meet (each is done with its array:
 * a loop before may undo a level after its last meeting), every device
 * stores its own part of its visited array into every other device's array,
 * and they meet again. A device's array otherwise holds the others'
 * vertices only where it sent them itself: the expand's first read passes
 * vertices another device visited (sent again, dropped by the owner), and
 * the visited-prefix raise (bb_prefix_raises) stops at the first hub another
 * device found (kron:20, level 3: 2.6x the arcs one device probes). The
 * levels that raise the prefix: a smaller one gains less than the stores
 * cost. */
static inline BB_HOST_DEVICE int bb_peers_share_visited(int step, uint64_t arcs, uint64_t n)
{
    return step == BB_STEP_TOP_DOWN && bb_prefix_raises(arcs, n);
}

/* Several devices: whether a top-down step (BB_STEP_*) of a level of count
 * vertices and arcs frontier arcs splits the hubs' rows (kstate hubs;
 * docs/architecture.md "Hubs split by destination"): a level of fewer arcs
 * than a hub's holds no hub, and one whose vertices average fewer than a
 * 16th of a hub's arcs few of their arcs (kron:24's level 5, 465 K
 * vertices of 1.1 arcs: the split's meeting, stores and scan of the hubs
 * cost it 7 us and saved nothing). Such a step first stores the level of each of this device's hubs
 * that changed since it last did into every device's hub_level, and the
 * devices meet (the meeting before visited is shared serves where there is
 * one); then every device expands, besides its own frontier less its hubs,
 * the part of every hub's row at the frontier's level that leads into its
 * own range: a hub's arcs are found where their heads live, none is sent. */
static inline BB_HOST_DEVICE int bb_peers_split_hubs(int step, uint64_t count, uint64_t arcs,
                                                     uint32_t hubs, uint32_t hub_degree)
{
    return step == BB_STEP_TOP_DOWN && hubs > 0 && arcs >= hub_degree &&
           arcs >= count * (hub_degree / 16);
}

/* Several devices, after a top-down or bottom-up step found next vertices
 * with next_arcs out-arcs on all devices together, mine and mine_arcs of
 * them here: the next level, its direction. A top-down step leaves the next
 * frontier as a list, a bottom-up step as the other bitmap. */
static inline BB_HOST_DEVICE void bb_peers_advance(bb_search_t *s, int step, uint64_t next,
                                                   uint64_t next_arcs, uint64_t mine,
                                                   uint64_t mine_arcs)
{
    if (step == BB_STEP_BOTTOM_UP) s->parity ^= 1;
    else bb_search_swap_lists(s);
    s->in_list = step == BB_STEP_TOP_DOWN;
    s->in_bits = step == BB_STEP_BOTTOM_UP;
    s->mine = mine;
    s->mine_arcs = mine_arcs;
    s->rows++;
    bb_loop_advance(&s->w, next, next_arcs);
    bb_search_settle(s, s->dir);
}

/* Several devices: the row a top-down or bottom-up step logs for the level
 * s stands at (BB_LOG_*: ns the level, own_ns its own work, meet_ns its
 * waits), sent[o] the vertices the step sent device o, with those the loop
 * before sent in this level and undid (s->spill, then cleared). */
static inline BB_HOST_DEVICE void bb_peers_log_row(uint64_t *row, bb_search_t *s, int ndev,
                                                   int step, uint64_t ns, uint64_t own_ns,
                                                   uint64_t meet_ns, const uint64_t *sent)
{
    row[0] = s->w.count;
    row[1] = s->w.arcs;
    row[2] = ns;
    row[3] = s->mine;
    row[BB_LOG_EXPAND_NS] = own_ns;
    row[BB_LOG_MEET_NS] = meet_ns;
    row[BB_LOG_STEP] = (uint64_t)step;
    row[BB_LOG_UNDONE] = 0;
    row[BB_LOG_HUBS] = 0;
    for (int o = 0; o < ndev; o++) {
        row[BB_LOG_SENT + o] = sent[o] + s->spill[o];
        row[BB_LOG_UNDONE] += s->spill[o];
        s->spill[o] = 0;
    }
}

/* The top-down levels at which a device sent vertices to other devices:
 * the parent of each vertex it delivered has one of them, so the parent
 * recompute (gather_recompute) reads only the arcs of vertices of such a
 * level (with direction auto on kron graphs the few top-down levels, not
 * every arc). Levels from BB_SENT_LEVELS on count as sent where any did. */
#define BB_SENT_LEVELS 256
typedef struct {
    uint64_t bits[BB_SENT_LEVELS / 64];
    int above;   /* some level >= BB_SENT_LEVELS sent */
} bb_level_set_t;

static inline BB_HOST_DEVICE int bb_level_set_has(const bb_level_set_t *s, int32_t level)
{
    if (level >= BB_SENT_LEVELS) return s->above;
    return level >= 0 && ((s->bits[level >> 6] >> (level & 63)) & 1u);
}

static inline void bb_level_set_add(bb_level_set_t *s, int32_t level)
{
    if (level >= BB_SENT_LEVELS) s->above = 1;
    else s->bits[level >> 6] |= (uint64_t)1 << (level & 63);
}

/* The visited-prefix skip: the first arc of the row [b, e) (heads in
 * increasing rank) whose head's rank is prefix or more; the arcs before it
 * lead to visited vertices. */
static inline BB_HOST_DEVICE int64_t bb_row_past_prefix(const uint32_t *columns,
                                                        const uint32_t *rank, int64_t b,
                                                        int64_t e, uint32_t prefix)
{
    if (b == e || rank[columns[b]] >= prefix) return b;
    if (rank[columns[e - 1]] < prefix) return e;
    b++;   /* rank[columns[b - 1]] < prefix <= rank[columns[e - 1]] */
    e--;
    while (b < e) {
        int64_t mid = b + (e - b) / 2;
        if (rank[columns[mid]] < prefix) b = mid + 1; else e = mid;
    }
    return b;
}

/* remote_parent holds the vertices outside the owned range [lo, hi) only
 * (n - (hi - lo) entries): the slot of such a vertex v [README "Memory plan"]. */
static inline BB_HOST_DEVICE uint64_t bb_remote_slot(uint64_t v, uint64_t lo, uint64_t hi)
{
    return v < lo ? v : v - (hi - lo);
}

/* The Kronecker graph a device builds its rows of (kron_rows below). */
typedef struct {
    int scale, edgefactor;
    uint64_t seed;
} bb_kron_job_t;

/* One device's BFS state: pointers are device memory of that device. */
typedef struct {
    int ndev, self;
    int cslot;                 /* the slot of this device's step arguments in its GPU's
                                * constant memory: the engine devices before it on the
                                * same GPU (0 where it has the GPU to itself) */
    int contract;              /* boxbfs_contract_t */
    int visited_bits;          /* 1: visited is a bitmap, 0: one byte per vertex */
    int expand_k;              /* edges per thread of the GPU expand: 1, 2, 4, 8 */
    uint32_t expand_f0;        /* hybrid rule: merge path when arcs per vertex > f0 */
    /* 1: the device's arcs are indexed with 64 bits (it holds at least
     * opts.arcs64_from of them, 2^32 by default): the expand's scans hold
     * 64-bit sums and its load balancer is binsearch; 0: 32-bit kernels */
    int arcs64;
    uint64_t n;                /* vertices of the whole graph */
    uint64_t lo, hi;           /* owned global range [lo, hi) */
    const uint64_t *range_lo;  /* ndev + 1 range starts (device memory) */
    /* graph slice: rows of the owned vertices, columns are global ids */
    const int64_t *offsets;    /* hi - lo + 1, starting at 0; then the hubs' rows' ends */
    const uint32_t *columns;
    /* Short rows (one device's loop levels; NULL where not built): four words
     * a vertex, hi - lo rows, made by short_rows from offsets and columns
     * (bb_short_row), so that a loop level reads a vertex's heads with the
     * load beside its claim instead of its offsets and then its columns. */
    const uint32_t *short_rows;
    /* Hubs split by destination (several devices' search, bb_peers_split_hubs;
     * 0 hubs: none): the vertices of at least hub_degree out-arcs, hub_gid
     * their ids in increasing order (so each device's are the consecutive
     * hub_first .. hub_first + hub_own - 1). Row hi - lo + h of offsets and
     * columns is the part of hub h's row that leads into this device's
     * range, in the row's order. hub_level: the hubs' levels as their owners
     * last stored them here (-1 after reset). */
    uint32_t hubs, hub_degree, hub_first, hub_own;
    const uint32_t *hub_gid;
    int32_t *hub_level;
    /* bottom-up: the owned vertices' in-arcs (the rows above for undirected
     * graphs), the frontier of all devices as n bits (bit v & 31 of word
     * v >> 5; device o's part starts at word range_lo[o] / 32, the partition
     * being aligned to 32), and this device's next frontier as hi - lo bits.
     * NULL when the engine runs top-down only. */
    const int64_t *in_offsets;
    const uint32_t *in_columns;
    uint32_t *frontier_bits, *own_bits;
    /* non-NULL: expand_atomic also sets the bit of each own vertex it puts in
     * next_frontier here (owner-local ids; the engine zeroed it), so that a
     * bottom-up level next needs no pack_bitmap */
    uint32_t *next_bits;
    /* search state */
    int32_t *level;            /* owned: depth or -1 */
    int64_t *pred;             /* owned: parent gid, -(s+2) = from device s, -1 unreached */
    void *visited;             /* all n vertices (valid-flag, atomic); NULL for sort-unique */
    const uint32_t *visited_init;   /* one device, bit layout, bottom-up levels: what reset
                                     * copies into visited (else zeros): the vertices with
                                     * no in-arcs, which no search reaches, so bottom-up
                                     * levels skip them without reading their in_offsets */
    uint32_t *remote_parent;   /* n - (hi - lo) entries by bb_remote_slot(gid): parent lid
                                  for remote vertices this device discovered (BB_UNSET32
                                  if none); NULL with one device, or when the parents
                                  are recomputed after the search (gather_recompute) */
    uint32_t *frontier, *next_frontier;   /* owned local ids, capacity hi - lo + hubs (a
                                             step that splits the hubs' rows lists them) */
    /* hi - lo + hubs + 1: expand's frontier-degree scan, 32-bit entries, or
     * 64-bit where arcs64 (the cuda expand's; the cpu kernels need none) */
    void *scan;
    /* The visited-prefix skip [README "Visited-prefix skip"] (atomic
     * contraction; else NULL): rank_rows numbered the n vertices by
     * decreasing degree (rank, and by_rank its inverse, n entries each) and
     * put this device's rows in increasing rank of their heads.
     * rank_prefix[1]: every vertex of rank below it is marked in this
     * device's visited (0 after reset; on several devices that holds the own
     * vertices reached and the remote ones it sent or learnt of, so a
     * skipped arc is one the atomic test would drop: the same sends). Big
     * top-down levels first raise it to the first rank not marked
     * (raise_prefix), and every top-down level skips each row's arcs into
     * that prefix (rank_prefix[0]: where the raise started; skip: the arcs
     * skipped at the start of each frontier vertex's row, hi - lo + hubs
     * entries, cuda only). */
    const uint32_t *rank, *by_rank;
    uint32_t *rank_prefix;
    uint32_t *skip;
    /* per-level work */
    uint64_t work_cap;         /* capacity of nbr/alt/flags in entries */
    uint32_t *nbr, *nbr_parent;           /* expand output: gid and parent lid */
    uint32_t *alt, *alt_parent;           /* sort double buffer; also bitmap packing */
    uint32_t *flags;                      /* work_cap + 1 */
    uint32_t *outbox, *outbox_parent;     /* n: contracted vertices as owner-local ids,
                                             segment per owner (see send counters);
                                             outbox_parent: the own segment's (hi - lo) */
    /* non-NULL (several devices, atomic, wire bitmap or auto): expand_atomic
     * sets the bit of each remote vertex it wins here (n bits; owner o's
     * segment from word range_lo[o] / 32) instead of appending to outbox,
     * which then holds the lists unpacked from it (owner o's from entry
     * range_lo[o] / 32: a list is sent only while shorter than the bitmap).
     * The engine zeroes it before a level where it has bits set. */
    uint32_t *outbox_bits;
    uint32_t *inbox;                      /* regions per source (engine's layout) */
    uint32_t *gather_req, *gather_resp;   /* hi - lo each: parent-gather requests/answers
                                             (the two frontier buffers, after the search) */
    uint64_t *counters;                   /* BB_CTR_COUNT(ndev) */
    uint64_t *level_log;                  /* the device loop's rows (BB_LOG_ROW), or NULL */
    void *scratch;                        /* backend temporaries (CUB), scratch_bytes */
    size_t scratch_bytes;
} bb_kstate_t;

/* A short row (docs/architecture.md, "One device"): a row of at most four
 * heads holds them, BB_SHORT_NONE after the last; a longer one holds
 * BB_SHORT_LONG, its degree and its first arc (low and high words). Vertex
 * ids are below BB_SHORT_LONG wherever short rows are built
 * (bb_short_rows_fit). */
#define BB_SHORT_NONE 0xffffffffu
#define BB_SHORT_LONG 0xfffffffeu

static inline BB_HOST_DEVICE int bb_short_rows_fit(uint64_t n) { return n < BB_SHORT_LONG; }

/* Row v of offsets and columns as a short row, into w[0..3]. */
static inline BB_HOST_DEVICE void bb_short_row(const int64_t *offsets, const uint32_t *columns,
                                               uint64_t v, uint32_t *w)
{
    const int64_t first = offsets[v], degree = offsets[v + 1] - first;
    if (degree > 4) {
        w[0] = BB_SHORT_LONG;
        w[1] = (uint32_t)degree;
        w[2] = (uint32_t)first;
        w[3] = (uint32_t)((uint64_t)first >> 32);
        return;
    }
    for (int j = 0; j < 4; j++) w[j] = j < degree ? columns[first + j] : BB_SHORT_NONE;
}

/* The degree of the short row (x, y, z, w): its heads are first. */
static inline BB_HOST_DEVICE uint32_t bb_short_degree(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    if (x == BB_SHORT_LONG) return y;
    return (uint32_t)(x != BB_SHORT_NONE) + (y != BB_SHORT_NONE) + (z != BB_SHORT_NONE) +
           (w != BB_SHORT_NONE);
}

/* The first arc of the long short row (x, y, z, w). */
static inline BB_HOST_DEVICE uint64_t bb_short_first(uint32_t z, uint32_t w)
{
    return (uint64_t)w << 32 | z;
}

/* Head j (below its degree) of the short row (x, y, z, w): a long row's
 * from columns. */
static inline BB_HOST_DEVICE uint32_t bb_short_head(uint32_t x, uint32_t y, uint32_t z, uint32_t w,
                                                    uint32_t j, const uint32_t *columns)
{
    if (x == BB_SHORT_LONG) return columns[bb_short_first(z, w) + j];
    return j == 0 ? x : j == 1 ? y : j == 2 ? z : w;
}

/* Kernel entry points; kernels/cpu and kernels/cuda define them with these
 * signatures as bb_cpu_<name> and bb_cuda_<name>. */
typedef struct {
    /* Clear level/pred/visited/remote_parent/hub_level; put the root (if owned) at level
     * 0 in the frontier. counters[NEXT] = 1 and counters[NEXT_ARCS] = its
     * out-degree if the root is owned, else 0. Every kernel that adds a
     * vertex to the next frontier adds its out-degree to NEXT_ARCS. */
    boxbfs_status_t (*reset)(const bb_kstate_t *k, void *stream, uint64_t root);
    /* counters[NEXT] is zeroed by the engine before the expand of a level.
     * Frontier -> neighbor list (nbr, nbr_parent), counters[EXPANDED]. With
     * filter_visited, neighbors already marked in visited are dropped (the
     * valid-flag contraction would drop them anyway; same bytes). expand picks
     * the load-balancing method (boxbfs_expand_t). */
    boxbfs_status_t (*expand)(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                              int filter_visited, int expand);
    /* Contract count neighbors into the outbox (sort-unique or valid-flag),
     * record remote parents, write send counts/offsets per owner. */
    boxbfs_status_t (*contract)(const bb_kstate_t *k, void *stream, uint64_t count);
    /* Atomic method [004 §3.4]: expand and contract in one: test-and-set in
     * visited; a winning thread updates its own vertices at once (level
     * next_level, parent, next frontier, counters[NEXT]) and appends remote
     * ones to their owner's segment (outbox + range_lo[owner]) with the
     * parent recorded in remote_parent where there is one; with outbox_bits
     * sets its bit there instead of appending); send counters (the own
     * segment stays empty). The engine set counters[EXPANDED] and the send
     * counts to 0 and each send offset to range_lo[o] before the level. */
    boxbfs_status_t (*expand_atomic)(const bb_kstate_t *k, void *stream, uint64_t frontier_count,
                                     int expand, int32_t next_level);
    /* Owner-local list -> bitmap of nbits bits (words of 32 bits, zeroed first). */
    boxbfs_status_t (*pack_bitmap)(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   uint64_t count, uint32_t *bitmap, uint64_t nbits);
    /* Bitmap of nbits bits -> the list of its set bits' indices (count of
     * them known to the caller), in no particular order. */
    boxbfs_status_t (*unpack_bitmap)(const bb_kstate_t *k, void *stream, const uint32_t *bitmap,
                                     uint64_t nbits, uint32_t *list);
    /* Received (or own) vertices -> level/pred/visited, next frontier,
     * counters[NEXT] += new ones. parents: lids on this device (own segment
     * only) or NULL (from device src: pred = -(src+2)). */
    boxbfs_status_t (*update_list)(const bb_kstate_t *k, void *stream, const uint32_t *list,
                                   const uint32_t *parents, uint64_t count, int src,
                                   int32_t next_level);
    boxbfs_status_t (*update_bitmap)(const bb_kstate_t *k, void *stream, const uint32_t *bitmap,
                                     uint64_t nbits, int src, int32_t next_level);
    /* Parent gather [DESIGN "Parents"]: group the owned vertices discovered by
     * other devices by source into gather_req (send counts/offsets), each
     * source's in increasing lid order (gather_recompute's slots rely on it);
     * gather_resp may serve as scratch. */
    boxbfs_status_t (*gather_requests)(const bb_kstate_t *k, void *stream);
    /* Answer count requests (requester-local ids of a requester whose range
     * starts at requester_lo) in place with the parent lids on this device. */
    boxbfs_status_t (*gather_answer)(const bb_kstate_t *k, void *stream, uint32_t *req,
                                     uint64_t count, uint64_t requester_lo);
    /* pred[req[i]] = source_lo + resp[i]. */
    boxbfs_status_t (*gather_apply)(const bb_kstate_t *k, void *stream, const uint32_t *req,
                                    const uint32_t *resp, uint64_t count, uint64_t source_lo);
    /* Parents recomputed [README "Memory plan"]: bits marks count requested
     * vertices of other devices (n bits, gids); slots[i] answers the i-th of
     * them in increasing gid order (requests of ascending requesters, each in
     * ascending order). One pass over this device's arcs u -> v from own
     * vertices u of a level in sent (the levels this device sent vertices
     * at: any parent it can be asked for has one) to marked v keeps in v's
     * slot the u of least level, then least lid: lexicographic, so the same
     * on every backend. prefix
     * (words of bits entries) is scratch: each word's exclusive count of set
     * bits, which ranks a marked v. A slot no arc reaches stays BB_UNSET32. */
    boxbfs_status_t (*gather_recompute)(const bb_kstate_t *k, void *stream,
                                        const bb_level_set_t *sent, const uint32_t *bits,
                                        uint32_t *prefix, uint32_t *slots, uint64_t count);
    /* Bottom-up step [Beamer]: every owned vertex not reached yet scans its
     * in-arcs for a member of frontier_bits and stops at the first: level
     * next_level, parent that member's gid, visited; it joins the next
     * frontier as a bit of own_bits (every word of which is written) and in
     * counters[NEXT] and [NEXT_ARCS]; no list (unpack_bitmap makes it). */
    boxbfs_status_t (*bottom_up)(const bb_kstate_t *k, void *stream, int32_t next_level);
    /* visited |= frontier_bits: the frontier of every device counts as
     * visited here, so that a later top-down level does not send it again. */
    boxbfs_status_t (*mark_frontier)(const bb_kstate_t *k, void *stream);
    /* Top-down levels one after the other without the host (no launch,
     * copy or sync per level), while the frontier is non-empty, within
     * p->max_arcs, above the depth limit, top-down by the engine's rule and
     * the log has room. Each level as the atomic method does it (level,
     * parent, visited, next frontier), logged in level_log. Then
     * counters[EXPANDED] = levels run, [NEXT] and [NEXT_ARCS] = the frontier
     * left, which is in next_frontier when the count of levels is odd.
     * Several devices (every one calls it with the same totals): remote
     * vertices won in visited go to their owner's inbox (p->peers.to, parent
     * in remote_parent), then each device takes its inbox in source order
     * (pred = -(s+2)); count, arcs and the stopping rule are the sums over
     * the devices (one meeting a level, bb_loop_stops_here); [NEXT],
     * [NEXT_ARCS] are this device's part, [SEND_COUNT(o)] the vertices it
     * sent o in the level it undid (0 where none);
     * [EXPANDED] = BB_LOOP_FAILED where a peer did not arrive in time. */
    boxbfs_status_t (*small_levels)(const bb_kstate_t *k, void *stream, const bb_loop_params_t *p);
    /* The device search from where s stands (bb_search_t), until it is done
     * or the log is full; synchronous: s, and the first min(s->rows,
     * first) rows in first_rows (host memory), are the host's when it
     * returns (the rest stay in kstate.level_log). kstate.frontier,
     * next_frontier, frontier_bits and own_bits are taken from s. *cache: the
     * backend's per-device state (NULL before the first call; cuda: the
     * instantiated graphs), freed by search_free. UNSUPPORTED with *cache
     * still NULL: the backend cannot run it (cuda: its graphs could not be
     * built, e.g. a driver without device graph launch); nothing ran. With
     * s->prepare: the cache only (cuda: the graph built), nothing runs. */
    boxbfs_status_t (*search)(const bb_kstate_t *k, void *stream, bb_search_t *s, void **cache,
                              uint64_t *first_rows, uint32_t first);
    void (*search_free)(void *cache);
    /* Before a search across devices, outside its time (every device at
     * once): a word stored into each 1/256th of every other device's inbox
     * region for this device (p->to), then a meeting of tag p->tag + 1. A
     * link between GPUs that was idle for some milliseconds sleeps, and the
     * first store across it waits ~0.1 ms (NVLink); this wakes every lane of
     * every link before the search's first level. The meeting's BB_MEET_*
     * in counters[EXPANDED] (the engine reads the counters after it). */
    boxbfs_status_t (*peers_wake)(const bb_kstate_t *k, void *stream, const bb_loop_peers_t *p);
    /* The visited-prefix skip's setup (once, before the first search):
     * by_rank = order (host memory: the n vertices by decreasing degree,
     * bb_graph_degree_order), rank its inverse, then each of this device's
     * rows sorted by increasing rank of its heads. offsets: the same rows'
     * offsets in host memory (hi - lo + 1 of them, from the graph's
     * offsets[lo]: where the backend cuts its work in pieces). */
    boxbfs_status_t (*rank_rows)(const bb_kstate_t *k, void *stream, const int64_t *offsets,
                                 const uint32_t *order);
    /* The rows [k->lo, k->hi) of an undirected Graph500 Kronecker graph
     * built on the device (a graph made with build_on_devices): the
     * generator's edges (src/graph/kron_edge.h) with an end in the range,
     * each row's heads sorted, without duplicates or self-loops, exactly the
     * rows bb_kron_rows makes. With cap = 0, *arcs_p gets an upper bound of
     * the rows' arcs (their arcs before duplicates are merged) and nothing
     * is written; else k->columns holds cap >= that bound entries: k->offsets
     * (hi - lo + 1, from 0) and k->columns get the rows, *arcs_p their arcs,
     * credit (host memory, hi - lo entries) each row vertex's input edges
     * (the edges whose first end it is, Graph500's TEPS). */
    boxbfs_status_t (*kron_rows)(const bb_kstate_t *k, void *stream, const bb_kron_job_t *job,
                                 uint64_t cap, int64_t *credit, uint64_t *arcs_p);
    /* A top-down level's raise of the visited prefix (bb_prefix_raises):
     * rank_prefix[0] = rank_prefix[1], then rank_prefix[1] = the first rank
     * at or past it whose vertex visited does not mark (n if none). */
    boxbfs_status_t (*raise_prefix)(const bb_kstate_t *k, void *stream);
    /* A search's tree against this device's rows, for a graph whose rows
     * live on the devices alone (engine/device_build.c): the rules of
     * bfs/validate.c that read rows. R2: every reached row vertex but the
     * root has its parent among its heads (undirected rows, in any order);
     * over each reached row vertex's arcs R4, R5's "connected but unreached"
     * and R7. level: the levels of all n vertices, parent: the rows'
     * parents (global ids, hi - lo entries), both in device memory;
     * max_depth < 0: none. *first_p: the first row vertex (global id) that
     * breaks one of them, UINT64_MAX where none does. */
    boxbfs_status_t (*check_rows)(const bb_kstate_t *k, void *stream, const int32_t *level,
                                  const int64_t *parent, int64_t root, int32_t max_depth,
                                  uint64_t *first_p);
    /* k->short_rows from this device's rows (bb_short_row of each of its
     * hi - lo vertices). */
    boxbfs_status_t (*short_rows)(const bb_kstate_t *k, void *stream);
} bb_kernel_ops_t;

/* Declares one backend's kernel entry points, PREFIX_reset ... PREFIX_gather_apply,
 * with the signatures of bb_kernel_ops_t: kernels/cpu and kernels/cuda both use
 * it (BB_DECLARE_KERNELS(bb_cpu), BB_DECLARE_KERNELS(bb_cuda)), so the two
 * cannot drift apart. */
#define BB_DECLARE_KERNELS(PREFIX)                                                          \
    boxbfs_status_t PREFIX##_reset(const bb_kstate_t *k, void *stream, uint64_t root);       \
    boxbfs_status_t PREFIX##_expand(const bb_kstate_t *k, void *stream,                      \
                                    uint64_t frontier_count, int filter_visited, int expand); \
    boxbfs_status_t PREFIX##_contract(const bb_kstate_t *k, void *stream, uint64_t count);   \
    boxbfs_status_t PREFIX##_expand_atomic(const bb_kstate_t *k, void *stream,               \
                                           uint64_t frontier_count, int expand,              \
                                           int32_t next_level);                              \
    boxbfs_status_t PREFIX##_unpack_bitmap(const bb_kstate_t *k, void *stream,               \
                                           const uint32_t *bitmap, uint64_t nbits,           \
                                           uint32_t *list);                                  \
    boxbfs_status_t PREFIX##_pack_bitmap(const bb_kstate_t *k, void *stream,                 \
                                         const uint32_t *list, uint64_t count,               \
                                         uint32_t *bitmap, uint64_t nbits);                  \
    boxbfs_status_t PREFIX##_update_list(const bb_kstate_t *k, void *stream,                 \
                                         const uint32_t *list, const uint32_t *parents,      \
                                         uint64_t count, int src, int32_t next_level);       \
    boxbfs_status_t PREFIX##_update_bitmap(const bb_kstate_t *k, void *stream,               \
                                           const uint32_t *bitmap, uint64_t nbits, int src,  \
                                           int32_t next_level);                              \
    boxbfs_status_t PREFIX##_gather_requests(const bb_kstate_t *k, void *stream);            \
    boxbfs_status_t PREFIX##_gather_answer(const bb_kstate_t *k, void *stream, uint32_t *req, \
                                           uint64_t count, uint64_t requester_lo);           \
    boxbfs_status_t PREFIX##_gather_apply(const bb_kstate_t *k, void *stream,                \
                                          const uint32_t *req, const uint32_t *resp,         \
                                          uint64_t count, uint64_t source_lo);               \
    boxbfs_status_t PREFIX##_gather_recompute(const bb_kstate_t *k, void *stream,             \
                                              const bb_level_set_t *sent,                      \
                                              const uint32_t *bits, uint32_t *prefix,          \
                                              uint32_t *slots, uint64_t count);                \
    boxbfs_status_t PREFIX##_bottom_up(const bb_kstate_t *k, void *stream, int32_t next_level); \
    boxbfs_status_t PREFIX##_mark_frontier(const bb_kstate_t *k, void *stream);                \
    boxbfs_status_t PREFIX##_small_levels(const bb_kstate_t *k, void *stream,                  \
                                          const bb_loop_params_t *p);                            \
    boxbfs_status_t PREFIX##_search(const bb_kstate_t *k, void *stream, bb_search_t *s,        \
                                    void **cache, uint64_t *first_rows, uint32_t first);       \
    void PREFIX##_search_free(void *cache);                                                    \
    boxbfs_status_t PREFIX##_peers_wake(const bb_kstate_t *k, void *stream,                    \
                                        const bb_loop_peers_t *p);                             \
    boxbfs_status_t PREFIX##_rank_rows(const bb_kstate_t *k, void *stream,                     \
                                       const int64_t *offsets, const uint32_t *order);         \
    boxbfs_status_t PREFIX##_raise_prefix(const bb_kstate_t *k, void *stream);                 \
    boxbfs_status_t PREFIX##_kron_rows(const bb_kstate_t *k, void *stream,                     \
                                       const bb_kron_job_t *job, uint64_t cap,                 \
                                       int64_t *credit, uint64_t *arcs_p);                     \
    boxbfs_status_t PREFIX##_check_rows(const bb_kstate_t *k, void *stream,                    \
                                        const int32_t *level, const int64_t *parent,           \
                                        int64_t root, int32_t max_depth, uint64_t *first_p);   \
    boxbfs_status_t PREFIX##_short_rows(const bb_kstate_t *k, void *stream);

/* A device of a backend. */
typedef struct bb_device bb_device_t;

/* What discovery learns of one device (topology/discover.c); the public
 * struct, filled by the backend's describe op. */
typedef boxbfs_device_info_t bb_device_info_t;

/* Peer figures of an ordered pair of devices (cudaDeviceGetP2PAttribute). */
typedef struct {
    int access;            /* cudaDevP2PAttrAccessSupported */
    int perf_rank;         /* cudaDevP2PAttrPerformanceRank: lower is faster; -1 unknown */
    int native_atomics;    /* cudaDevP2PAttrNativeAtomicSupported */
    int emulated;          /* 1: cpu backend, the figures are not hardware's */
} bb_p2p_info_t;

typedef struct {
    const char *name;                     /* "cpu", "cuda" */
    bb_kernel_ops_t kernels;
    /* Devices this backend can drive (cpu: any number, returns 0 = unlimited). */
    boxbfs_status_t (*count)(int *count_p);
    /* Open device ordinal; name_out gets a human-readable name. */
    boxbfs_status_t (*open)(int ordinal, bb_device_t **dev_p, char *name_out, size_t name_len);
    void (*close)(bb_device_t *dev);
    boxbfs_status_t (*mem_info)(bb_device_t *dev, size_t *free_p, size_t *total_p);
    boxbfs_status_t (*alloc)(bb_device_t *dev, size_t bytes, void **ptr_p);
    void (*free)(bb_device_t *dev, void *ptr);
    /* Pinned host memory for staging (cpu: plain malloc). */
    boxbfs_status_t (*host_alloc)(bb_device_t *dev, size_t bytes, void **ptr_p);
    void (*host_free)(bb_device_t *dev, void *ptr);
    /* Copies on the device's stream; sync waits for everything issued. */
    boxbfs_status_t (*copy_h2d)(bb_device_t *dev, void *dst, const void *src, size_t bytes);
    boxbfs_status_t (*copy_d2h)(bb_device_t *dev, void *dst, const void *src, size_t bytes);
    /* Set bytes of device memory to zero, on the stream. */
    boxbfs_status_t (*zero)(bb_device_t *dev, void *dst, size_t bytes);
    /* Copy bytes from src (memory of src_dev) to dst (memory of dst_dev),
     * issued on src_dev's stream. */
    boxbfs_status_t (*peer_copy)(bb_device_t *dst_dev, void *dst, bb_device_t *src_dev,
                                 const void *src, size_t bytes);
    /* Try to enable direct access a -> b; *ok_p = 0 when not possible. */
    boxbfs_status_t (*enable_peer)(bb_device_t *a, bb_device_t *b, int *ok_p);
    boxbfs_status_t (*sync)(bb_device_t *dev);
    void *(*stream)(bb_device_t *dev);
    /* Scratch bytes the kernels need (CUB temporaries) for work_cap neighbor
     * entries and frontiers of up to nloc vertices. */
    boxbfs_status_t (*scratch_bytes)(bb_device_t *dev, uint64_t work_cap, uint64_t nloc, int ndev,
                                     size_t *bytes_p);
    /* Timestamps on the stream: record into slot (0..BB_TIMER_SLOTS-1), and
     * read the seconds between two recorded slots (after sync). */
    boxbfs_status_t (*timer_record)(bb_device_t *dev, int slot);
    boxbfs_status_t (*timer_elapsed)(bb_device_t *dev, int from, int to, double *seconds_p);
    /* dev's stream waits, on the device, for what other's stream had issued
     * when other last recorded slot (cpu: everything is done already). */
    boxbfs_status_t (*stream_wait)(bb_device_t *dev, bb_device_t *other, int slot);
    /* Discovery: name, PCI bus id, memory, SMs; numa_node -1 and cpu_affinity
     * "" (topology/discover.c fills them from sysfs by the bus id). */
    boxbfs_status_t (*describe)(bb_device_t *dev, bb_device_info_t *info_p);
    /* Peer figures of a -> b (a != b); does not enable anything. */
    boxbfs_status_t (*p2p)(bb_device_t *a, bb_device_t *b, bb_p2p_info_t *info_p);
} bb_device_ops_t;

#define BB_TIMER_SLOTS 8

extern const bb_device_ops_t bb_cpu_ops;
/* NULL when built without CUDA. */
extern const bb_device_ops_t *const bb_cuda_ops_ptr;

#endif /* BB_KERNELS_H */
