/* Traffic counters and the left-right link-time model (see traffic.h). */
#include "config.h"

#include "peer/traffic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

boxbfs_status_t bb_traffic_init(bb_traffic_t *t, int ndev)
{
    memset(t, 0, sizeof *t);
    t->ndev = ndev;
    if (pthread_mutex_init(&t->lock, NULL) != 0)
        return bb_error_set(BOXBFS_ERR_INTERNAL, "cannot create the traffic lock");
    if (bb_calloc((size_t)ndev * (size_t)ndev, sizeof(int64_t), "link bytes", &t->link_bytes) ||
        bb_calloc((size_t)ndev * (size_t)ndev, sizeof(int64_t), "link messages", &t->link_messages)) {
        bb_traffic_free(t);
        return BOXBFS_ERR_NO_MEMORY;
    }
    return BOXBFS_OK;
}

void bb_traffic_free(bb_traffic_t *t)
{
    free(t->link_bytes);
    free(t->link_messages);
    free(t->levels);
    free(t->level_link_bytes);
    free(t->level_devices);
    pthread_mutex_destroy(&t->lock);
    memset(t, 0, sizeof *t);
}

void bb_traffic_reset(bb_traffic_t *t)
{
    size_t cells = (size_t)t->ndev * (size_t)t->ndev;
    memset(t->link_bytes, 0, cells * sizeof(int64_t));
    memset(t->link_messages, 0, cells * sizeof(int64_t));
    memset(t->phase_bytes, 0, sizeof t->phase_bytes);
    memset(t->phase_messages, 0, sizeof t->phase_messages);
    t->nlevels = 0;
}

boxbfs_status_t bb_traffic_level(bb_traffic_t *t, int level)
{
    if (level >= t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        while (cap <= level) cap *= 2;
        size_t cells = (size_t)t->ndev * (size_t)t->ndev;
        boxbfs_level_report_t *grown = realloc(t->levels, (size_t)cap * sizeof *grown);
        int64_t *links;
        boxbfs_level_device_t *devs;
        if (grown == NULL)
            return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot grow the level table to %d levels", cap);
        t->levels = grown;
        links = realloc(t->level_link_bytes, (size_t)cap * cells * sizeof *links);
        if (links == NULL)
            return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot grow the level table to %d levels", cap);
        t->level_link_bytes = links;
        devs = realloc(t->level_devices, (size_t)cap * (size_t)t->ndev * sizeof *devs);
        if (devs == NULL)
            return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot grow the level table to %d levels", cap);
        t->level_devices = devs;
        t->cap = cap;
    }
    while (t->nlevels <= level) {
        size_t cells = (size_t)t->ndev * (size_t)t->ndev;
        memset(&t->levels[t->nlevels], 0, sizeof t->levels[0]);
        memset(t->level_link_bytes + (size_t)t->nlevels * cells, 0, cells * sizeof(int64_t));
        memset(t->level_devices + (size_t)t->nlevels * (size_t)t->ndev, 0,
               (size_t)t->ndev * sizeof t->level_devices[0]);
        t->levels[t->nlevels].level = t->nlevels;
        t->nlevels++;
    }
    return BOXBFS_OK;
}

void bb_traffic_add(bb_traffic_t *t, boxbfs_phase_t phase, int level, int src, int dst,
                    int64_t bytes, int64_t messages)
{
    size_t cell = (size_t)src * (size_t)t->ndev + (size_t)dst;
    if (bytes <= 0) return;
    pthread_mutex_lock(&t->lock);
    t->link_bytes[cell] += bytes;
    t->link_messages[cell] += messages;
    t->phase_bytes[phase] += bytes;
    t->phase_messages[phase] += messages;
    if (level >= 0 && level < t->nlevels) {
        t->level_link_bytes[(size_t)level * (size_t)t->ndev * (size_t)t->ndev + cell] += bytes;
        t->levels[level].bytes += bytes;
        t->levels[level].messages += messages;
    }
    pthread_mutex_unlock(&t->lock);
}

int64_t bb_traffic_total_bytes(const bb_traffic_t *t)
{
    int64_t sum = 0;
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) sum += t->phase_bytes[p];
    return sum;
}

int64_t bb_traffic_total_messages(const bb_traffic_t *t)
{
    int64_t sum = 0;
    for (int p = 0; p < BOXBFS_PHASE_COUNT; p++) sum += t->phase_messages[p];
    return sum;
}

static double copy_s(const boxbfs_link_model_t *m, uint64_t bytes)
{
    return bytes ? m->latency_s + (double)bytes / m->bandwidth_Bps : 0.0;
}

double bb_link_model_leftright_s(const boxbfs_link_model_t *m, int ndev, const uint64_t *bytes)
{
    double total = 0.0;
    for (int j = 1; j < ndev; j++) {
        double step = 0.0;
        for (int i = 0; i + j < ndev; i++) {
            double pair = copy_s(m, bytes[(size_t)i * ndev + i + j]) +
                          copy_s(m, bytes[(size_t)(i + j) * ndev + i]);
            if (pair > step) step = pair;
        }
        total += step;
    }
    return total;
}

boxbfs_status_t bb_linkmat_alloc(bb_linkmat_t *L, int ndev)
{
    size_t cells = (size_t)ndev * (size_t)ndev;
    memset(L, 0, sizeof *L);
    L->ndev = ndev;
    if (bb_calloc(cells, sizeof(double), "link bandwidths", &L->bw) ||
        bb_calloc(cells, sizeof(double), "link latencies", &L->lat) ||
        bb_calloc((size_t)ndev, sizeof(double), "slot pools", &L->pool) ||
        bb_calloc(cells, 1, "link kinds", &L->via_slot)) {
        bb_linkmat_free(L);
        return BOXBFS_ERR_NO_MEMORY;
    }
    return BOXBFS_OK;
}

void bb_linkmat_free(bb_linkmat_t *L)
{
    free(L->bw);
    free(L->lat);
    free(L->pool);
    free(L->via_slot);
    memset(L, 0, sizeof *L);
}

boxbfs_status_t bb_linkmat_uniform(bb_linkmat_t *L, int ndev, const boxbfs_link_model_t *m)
{
    BB_CHECK(bb_linkmat_alloc(L, ndev));
    for (size_t c = 0; c < (size_t)ndev * (size_t)ndev; c++) {
        L->bw[c] = m->bandwidth_Bps;
        L->lat[c] = m->latency_s;
    }
    snprintf(L->name, sizeof L->name, "%s", m->name);
    return BOXBFS_OK;
}

boxbfs_status_t bb_linkmat_permute(bb_linkmat_t *L, const int *perm)
{
    bb_linkmat_t old = *L;
    int n = L->ndev;
    BB_CHECK(bb_linkmat_alloc(L, n));
    memcpy(L->name, old.name, sizeof L->name);
    for (int a = 0; a < n; a++) {
        L->pool[a] = old.pool[perm[a]];
        for (int b = 0; b < n; b++) {
            size_t c = (size_t)a * n + b, o = (size_t)perm[a] * n + perm[b];
            L->bw[c] = old.bw[o];
            L->lat[c] = old.lat[o];
            L->via_slot[c] = old.via_slot[o];
        }
    }
    bb_linkmat_free(&old);
    return BOXBFS_OK;
}

/* Non-empty copies through slot k in the half-step of the copy s -> d. */
static int slot_users(const bb_linkmat_t *L, const uint64_t *bytes, int s, int d, int k)
{
    int n = L->ndev, j = d > s ? d - s : s - d, up = d > s, users = 0;
    for (int i = 0; i + j < n; i++) {
        int from = up ? i : i + j, to = up ? i + j : i;
        size_t c = (size_t)from * n + to;
        if (bytes[c] && L->via_slot[c] && (from == k || to == k)) users++;
    }
    return users > 0 ? users : 1;
}

double bb_linkmat_copy_s(const bb_linkmat_t *L, const uint64_t *bytes, int s, int d)
{
    int n = L->ndev;
    size_t c = (size_t)s * n + d;
    double bw;
    if (s == d || bytes[c] == 0) return 0.0;
    bw = L->bw[c];
    if (L->via_slot[c]) {
        if (L->pool[s] > 0) {
            double share = L->pool[s] / slot_users(L, bytes, s, d, s);
            if (share < bw) bw = share;
        }
        if (L->pool[d] > 0) {
            double share = L->pool[d] / slot_users(L, bytes, s, d, d);
            if (share < bw) bw = share;
        }
    }
    return L->lat[c] + (double)bytes[c] / bw;
}

double bb_linkmat_leftright_s(const bb_linkmat_t *L, const uint64_t *bytes)
{
    double total = 0.0;
    int n = L->ndev;
    for (int j = 1; j < n; j++) {
        double step = 0.0;
        for (int i = 0; i + j < n; i++) {
            double pair = bb_linkmat_copy_s(L, bytes, i, i + j) +
                          bb_linkmat_copy_s(L, bytes, i + j, i);
            if (pair > step) step = pair;
        }
        total += step;
    }
    return total;
}
