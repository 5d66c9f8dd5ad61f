/* Link descriptions: a small text format for a system's links (docs/cli.md,
 * "Link descriptions"), the built-in ones (nominal figures; expether-2x10g is
 * GPU-BOX's slot [003 §2]: 2 x 10 GbE per slot through an ExpEther bridge,
 * every slot on one switch), and their resolution into per-pair figures
 * for the link-time model and --throttle (peer/traffic.h: bb_linkmat_t). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/error.h"
#include "topology/topology.h"

/* The built-in descriptions: every slot alike (nominal figures). */
static const struct {
    const char *name;
    double bandwidth_Bps, latency_s;
    int shared;
} builtin[] = {
    {"nvlink4", 450e9, 2.3e-6, 0},    /* NVLink 4 (H100/H200): 18 x 25 GB/s per direction */
    {"pcie3x16", 13e9, 5e-6, 0},      /* 8 GT/s x16, about 13 GB/s usable */
    {"pcie4x16", 26e9, 5e-6, 0},      /* 16 GT/s x16, about 26 GB/s usable */
    {"pcie5x16", 52e9, 5e-6, 0},      /* 32 GT/s x16, about 52 GB/s usable */
    /* 2 x 10 Gb/s per slot, full duplex: each direction has its 2.5 GB/s */
    {"expether-2x10g", 2.5e9, 10e-6, 0},
    /* the same slots with one 2.5 GB/s for everything through a slot at once */
    {"expether-2x10g-shared", 2.5e9, 10e-6, 1},
};

int bb_links_builtin(const char *name, boxbfs_link_model_t *model_p)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcasecmp(name, builtin[i].name) == 0) {
            model_p->bandwidth_Bps = builtin[i].bandwidth_Bps;
            model_p->latency_s = builtin[i].latency_s;
            snprintf(model_p->name, sizeof model_p->name, "%s", builtin[i].name);
            return builtin[i].shared;
        }
    return -1;
}

void boxbfs_links_free(boxbfs_links_t links)
{
    if (links == NULL) return;
    free(links->rules);
    free(links);
}

const char *boxbfs_links_name(boxbfs_links_t links) { return links ? links->name : ""; }

static boxbfs_status_t add_rule(boxbfs_links_t l, const bb_link_rule_t *r)
{
    if (l->nrules == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        bb_link_rule_t *grown = realloc(l->rules, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return bb_error_set(BOXBFS_ERR_NO_MEMORY, "cannot grow a link description");
        l->rules = grown;
        l->cap = cap;
    }
    l->rules[l->nrules++] = *r;
    return BOXBFS_OK;
}

/* "*" -> -1, else a device number in [0, 1023]. */
static int parse_device(const char *tok, int *d_p)
{
    char *end;
    long v;
    if (strcmp(tok, "*") == 0) {
        *d_p = -1;
        return 0;
    }
    errno = 0;
    v = strtol(tok, &end, 10);
    if (end == tok || *end || errno || v < 0 || v > 1023) return -1;
    *d_p = (int)v;
    return 0;
}

#define PARSE_FAIL(...)                                                   \
    do {                                                                  \
        st = bb_error_set(BOXBFS_ERR_PARSE, __VA_ARGS__);                 \
        goto out;                                                         \
    } while (0)

/* One non-empty line, split into tokens (modified in place). */
static boxbfs_status_t parse_line(boxbfs_links_t l, char *line, const char *src, long lineno)
{
    char *tok[16];
    int ntok = 0, have_bw = 0, have_lat = 0, first;
    bb_link_rule_t r = {0, -1, -1, 0, 0, 0};
    boxbfs_status_t st = BOXBFS_OK;
    for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
        if (ntok == 16) PARSE_FAIL("%s:%ld: too many words (at most 16)", src, lineno);
        tok[ntok++] = p;
    }
    if (ntok == 0) return BOXBFS_OK;
    if (strcmp(tok[0], "name") == 0) {
        if (ntok != 2) PARSE_FAIL("%s:%ld: 'name' takes one word", src, lineno);
        snprintf(l->name, sizeof l->name, "%s", tok[1]);
        return BOXBFS_OK;
    }
    if (strcmp(tok[0], "slot") == 0) {
        if (ntok < 2 || parse_device(tok[1], &r.a))
            PARSE_FAIL("%s:%ld: 'slot' needs a device number or '*', got '%s'", src, lineno,
                       ntok < 2 ? "" : tok[1]);
        first = 2;
    } else if (strcmp(tok[0], "link") == 0) {
        r.is_link = 1;
        if (ntok < 3 || parse_device(tok[1], &r.a) || parse_device(tok[2], &r.b))
            PARSE_FAIL("%s:%ld: 'link' needs two device numbers or '*' (link 0 1 ...)", src, lineno);
        if (r.a >= 0 && r.a == r.b)
            PARSE_FAIL("%s:%ld: link %d %d joins a device to itself", src, lineno, r.a, r.b);
        first = 3;
    } else {
        PARSE_FAIL("%s:%ld: unknown directive '%s' (expected slot, link or name)", src, lineno,
                   tok[0]);
    }
    for (int i = first; i < ntok; i++) {
        char *t = tok[i];
        if (strncmp(t, "bandwidth=", 10) == 0) {
            int bad = bb_parse_bandwidth(t + 10, &r.bw);
            if (bad == -2)
                PARSE_FAIL("%s:%ld: bad bandwidth '%s': %s", src, lineno, t + 10,
                           BB_LINK_BANDWIDTH_RANGE);
            if (bad)
                PARSE_FAIL("%s:%ld: bad bandwidth '%s' (e.g. 450GB/s, 20Gb/s, 25e9)", src, lineno,
                           t + 10);
            have_bw = 1;
        } else if (strncmp(t, "latency=", 8) == 0) {
            int bad = bb_parse_latency(t + 8, &r.lat);
            if (bad == -2)
                PARSE_FAIL("%s:%ld: bad latency '%s': %s", src, lineno, t + 8, BB_LINK_LATENCY_RANGE);
            if (bad)
                PARSE_FAIL("%s:%ld: bad latency '%s' (e.g. 2.3us, 1ms, 5e-6)", src, lineno, t + 8);
            have_lat = 1;
        } else if (strcmp(t, "shared") == 0 || strcmp(t, "dedicated") == 0) {
            if (r.is_link)
                PARSE_FAIL("%s:%ld: '%s' applies to slots; a link between two devices is its own",
                           src, lineno, t);
            r.shared = t[0] == 's';
        } else {
            PARSE_FAIL("%s:%ld: unknown word '%s' (expected bandwidth=, latency=, shared, dedicated)",
                       src, lineno, t);
        }
    }
    if (!have_bw) PARSE_FAIL("%s:%ld: %s without bandwidth=", src, lineno, tok[0]);
    if (!have_lat) PARSE_FAIL("%s:%ld: %s without latency=", src, lineno, tok[0]);
    st = add_rule(l, &r);
out:
    return st;
}

boxbfs_status_t boxbfs_links_parse(const char *text, const char *source, boxbfs_links_t *links_p)
{
    boxbfs_links_t l;
    boxbfs_status_t st = BOXBFS_OK;
    char *copy = NULL, *line, *next;
    long lineno = 0;
    if (text == NULL || links_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_links_parse: NULL argument");
    if (source == NULL) source = "link description";
    BB_CHECK(bb_calloc(1, sizeof *l, "a link description", &l));
    snprintf(l->name, sizeof l->name, "%s", source);
    BB_CHECK_GOTO(bb_malloc(strlen(text) + 1, "a link description", &copy), st, out);
    strcpy(copy, text);
    for (line = copy; line; line = next) {
        char *hash;
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        lineno++;
        if ((hash = strchr(line, '#')) != NULL) *hash = '\0';
        BB_CHECK_GOTO(parse_line(l, line, source, lineno), st, out);
    }
    if (l->nrules == 0)
        BB_FAIL_GOTO(st, BOXBFS_ERR_PARSE, out, "%s: no slot or link lines", source);
out:
    free(copy);
    if (st != BOXBFS_OK) {
        boxbfs_links_free(l);
        return st;
    }
    *links_p = l;
    return BOXBFS_OK;
}

static boxbfs_status_t read_file(const char *path, char **text_p)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    if (f == NULL) return bb_error_set(BOXBFS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    do {
        if (cap - len < 4096) {
            char *grown;
            cap = cap ? cap * 2 : 8192;
            if (cap > (1u << 24) || (grown = realloc(buf, cap)) == NULL) {
                free(buf);
                fclose(f);
                return bb_error_set(BOXBFS_ERR_IO, "%s: too large for a link description", path);
            }
            buf = grown;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return bb_error_set(BOXBFS_ERR_IO, "%s: read failed", path);
    }
    fclose(f);
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        return bb_error_set(BOXBFS_ERR_PARSE, "%s: binary data (a NUL byte) in a link description",
                            path);
    }
    *text_p = buf;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_links_load(const char *spec, boxbfs_links_t *links_p)
{
    struct stat sb;
    boxbfs_link_model_t m;
    boxbfs_status_t st;
    char text[256];
    int shared;
    if (spec == NULL || *spec == '\0' || links_p == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "empty link model");
    if (stat(spec, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        char *file = NULL;
        const char *base = strrchr(spec, '/');
        BB_CHECK(read_file(spec, &file));
        st = boxbfs_links_parse(file, spec, links_p);
        free(file);
        if (st == BOXBFS_OK && strcmp((*links_p)->name, spec) == 0)
            snprintf((*links_p)->name, sizeof (*links_p)->name, "%s", base ? base + 1 : spec);
        return st;
    }
    if ((shared = bb_links_builtin(spec, &m)) >= 0) {
        snprintf(text, sizeof text, "slot * bandwidth=%.17g latency=%.17g%s\n", m.bandwidth_Bps,
                 m.latency_s, shared ? " shared" : "");
        return boxbfs_links_parse(text, m.name, links_p);
    }
    if (strchr(spec, ',') == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "unknown link model '%s' (built in: nvlink4, pcie3x16, pcie4x16, "
                            "pcie5x16, expether-2x10g, expether-2x10g-shared; or BANDWIDTH,LATENCY "
                            "such as 25GB/s,5us; or a link description file)",
                            spec);
    BB_CHECK(boxbfs_link_model_parse(spec, &m));
    snprintf(text, sizeof text, "slot * bandwidth=%.17g latency=%.17g\n", m.bandwidth_Bps,
             m.latency_s);
    st = boxbfs_links_parse(text, spec, links_p);
    return st;
}

/* The last matching rule wins. */
static const bb_link_rule_t *find_slot(boxbfs_links_t l, int dev)
{
    const bb_link_rule_t *hit = NULL;
    for (int i = 0; i < l->nrules; i++)
        if (!l->rules[i].is_link && (l->rules[i].a < 0 || l->rules[i].a == dev)) hit = &l->rules[i];
    return hit;
}

static const bb_link_rule_t *find_link(boxbfs_links_t l, int s, int d)
{
    const bb_link_rule_t *hit = NULL;
    for (int i = 0; i < l->nrules; i++) {
        const bb_link_rule_t *r = &l->rules[i];
        if (!r->is_link) continue;
        if (((r->a < 0 || r->a == s) && (r->b < 0 || r->b == d)) ||
            ((r->a < 0 || r->a == d) && (r->b < 0 || r->b == s)))
            hit = r;
    }
    return hit;
}

/* Figures of s -> d: a link rule, else the path through both slots (smaller
 * bandwidth, larger latency: each slot's figure includes its switch hop). */
static boxbfs_status_t pair_figures(boxbfs_links_t l, int s, int d, double *bw, double *lat,
                                    int *via_slot)
{
    const bb_link_rule_t *r = find_link(l, s, d), *a, *b;
    if (r) {
        *bw = r->bw;
        *lat = r->lat;
        *via_slot = 0;
        return BOXBFS_OK;
    }
    a = find_slot(l, s);
    b = find_slot(l, d);
    if (a == NULL || b == NULL)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "link description %s has no figure for %d -> %d (add 'slot %d ...' "
                            "or 'slot * ...', or 'link %d %d ...')",
                            l->name, s, d, a == NULL ? s : d, s, d);
    *bw = a->bw < b->bw ? a->bw : b->bw;
    *lat = a->lat > b->lat ? a->lat : b->lat;
    *via_slot = 1;
    return BOXBFS_OK;
}

boxbfs_status_t boxbfs_links_pair(boxbfs_links_t links, int src, int dst, double *bandwidth_Bps_p,
                                  double *latency_s_p, int *shared_p)
{
    double bw, lat;
    int via;
    const bb_link_rule_t *a, *b;
    if (links == NULL || src < 0 || dst < 0 || src == dst)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "boxbfs_links_pair: bad arguments");
    BB_CHECK(pair_figures(links, src, dst, &bw, &lat, &via));
    a = find_slot(links, src);
    b = find_slot(links, dst);
    if (bandwidth_Bps_p) *bandwidth_Bps_p = bw;
    if (latency_s_p) *latency_s_p = lat;
    if (shared_p) *shared_p = via && ((a && a->shared) || (b && b->shared));
    return BOXBFS_OK;
}

boxbfs_status_t bb_links_resolve(boxbfs_links_t links, int ndev, const int *ids, bb_linkmat_t *L)
{
    boxbfs_status_t st;
    BB_CHECK(bb_linkmat_alloc(L, ndev));
    snprintf(L->name, sizeof L->name, "%s", links->name);
    for (int s = 0; s < ndev; s++) {
        int ps = ids ? ids[s] : s;
        const bb_link_rule_t *slot = find_slot(links, ps);
        L->pool[s] = slot && slot->shared ? slot->bw : 0;
        for (int d = 0; d < ndev; d++) {
            size_t c = (size_t)s * ndev + d;
            int via = 0;
            if (s == d) continue;
            BB_CHECK_GOTO(pair_figures(links, ps, ids ? ids[d] : d, &L->bw[c], &L->lat[c], &via),
                          st, fail);
            L->via_slot[c] = (uint8_t)via;
        }
    }
    return BOXBFS_OK;
fail:
    bb_linkmat_free(L);
    return st;
}
