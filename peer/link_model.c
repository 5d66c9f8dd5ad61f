/* Single-figure link models: a bandwidth per link and direction and a latency
 * per message, turning counted bytes into modeled exchange time: a built-in
 * name (the built-in descriptions of topology/links.c) or "BW,LATENCY". */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "peer/traffic.h"
#include "topology/topology.h"

/* "25e9", "25G", "25GB/s", "20Gb/s" (bits) -> bytes per second */
int bb_parse_bandwidth(const char *s, double *bps_p)
{
    char *end;
    double v = strtod(s, &end), scale = 1.0;
    if (end == s) return -1;
    if (*end == 'K' || *end == 'k') { scale = 1e3; end++; }
    else if (*end == 'M') { scale = 1e6; end++; }
    else if (*end == 'G') { scale = 1e9; end++; }
    else if (*end == 'T') { scale = 1e12; end++; }
    if (strcmp(end, "b/s") == 0 || strcmp(end, "bps") == 0) scale /= 8.0;
    else if (*end != '\0' && strcmp(end, "B/s") != 0 && strcmp(end, "B") != 0) return -1;
    /* Every modeled time (latency + bytes / bandwidth, which --throttle
     * sleeps for) must stay finite: nan, inf (also from scaling a huge
     * figure), zero, negative and tiny bandwidths are refused. */
    v *= scale;
    if (!isfinite(v) || !(v >= BB_LINK_MIN_BANDWIDTH_BPS)) return -2;
    *bps_p = v;
    return 0;
}

/* "5e-6", "5us", "2.3 us", "1ms", "100ns" -> seconds */
int bb_parse_latency(const char *s, double *sec_p)
{
    char *end;
    double v = strtod(s, &end), unit;
    if (end == s) return -1;
    while (*end == ' ') end++;
    if (*end == '\0' || strcmp(end, "s") == 0) unit = 1.0;
    else if (strcmp(end, "ms") == 0) unit = 1e-3;
    else if (strcmp(end, "us") == 0) unit = 1e-6;
    else if (strcmp(end, "ns") == 0) unit = 1e-9;
    else return -1;
    v *= unit;
    if (!isfinite(v) || !(v > 0) || v > BB_LINK_MAX_LATENCY_S) return -2;
    *sec_p = v;
    return 0;
}

boxbfs_status_t boxbfs_link_model_parse(const char *text, boxbfs_link_model_t *model_p)
{
    char buf[128];
    const char *comma;
    boxbfs_link_model_t m;
    if (text == NULL || *text == '\0')
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "empty link model");
    if (model_p == NULL) return bb_error_set(BOXBFS_ERR_INVALID_ARG, "link model output is NULL");
    /* topology/links.c; a shared-slot built-in is a description (boxbfs_links_load): as one
     * figure it would model dedicated links */
    switch (bb_links_builtin(text, model_p)) {
    case 0: return BOXBFS_OK;
    case 1:
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "link model '%s' has shared slots: it is a link description "
                            "(boxbfs_links_load), not one figure", text);
    default: break;
    }
    comma = strchr(text, ',');
    if (comma == NULL || strlen(text) >= sizeof buf)
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "unknown link model '%s' (built in: nvlink4, pcie3x16, pcie4x16, "
                            "pcie5x16, expether-2x10g; or BANDWIDTH,LATENCY such as 25GB/s,5us)",
                            text);
    memcpy(buf, text, (size_t)(comma - text));
    buf[comma - text] = '\0';
    switch (bb_parse_bandwidth(buf, &m.bandwidth_Bps)) {
    case 0: break;
    case -2:
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "link model '%s': bad bandwidth '%s': %s", text,
                            buf, BB_LINK_BANDWIDTH_RANGE);
    default:
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "link model '%s': bad bandwidth '%s' (bytes/s, e.g. 25e9, 25GB/s, 20Gb/s)",
                            text, buf);
    }
    switch (bb_parse_latency(comma + 1, &m.latency_s)) {
    case 0: break;
    case -2:
        return bb_error_set(BOXBFS_ERR_INVALID_ARG, "link model '%s': bad latency '%s': %s", text,
                            comma + 1, BB_LINK_LATENCY_RANGE);
    default:
        return bb_error_set(BOXBFS_ERR_INVALID_ARG,
                            "link model '%s': bad latency '%s' (seconds, e.g. 5e-6, 5us, 1ms)",
                            text, comma + 1);
    }
    snprintf(m.name, sizeof m.name, "%s", text);
    *model_p = m;
    return BOXBFS_OK;
}
