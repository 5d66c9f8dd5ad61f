/* boxbfs topo: the devices a backend sees, the peer-access matrix and link
 * types (NVLink counts from NVML when it loads, else the CUDA P2P attributes),
 * and with --probe the measured bandwidth and latency of every ordered pair
 * (peer copies, host staging, both directions at once) for a range of sizes.
 * Without a GPU it says so and shows the cpu backend's emulated devices. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

typedef struct {
    int backend_given, devices, probe, repeats;
    boxbfs_backend_t backend;
    const char *json, *write_links;
    size_t sizes[64];
    int nsizes;
} topo_args_t;

static const char *const topo_usage =
    "usage: boxbfs topo [options]\n"
    "  --backend cpu|cuda     default: cuda when a GPU is present, else cpu (emulated devices)\n"
    "  --devices N            devices to show (default: all GPUs; 2 emulated on cpu)\n"
    "  --probe                measure every ordered pair: peer copy, host staged, bidirectional\n"
    "  --sizes A..B|A,B,...   probe sizes, K/M/G = KiB/MiB/GiB; A..B steps by 4x (default 4K..256M)\n"
    "  --repeats N            timed repeats per point after one warm-up; median (default 5)\n"
    "  --json FILE            machine-readable report ('-' = stdout)\n"
    "  --write-links FILE     write the probe's figures as a link description (--link-model FILE)\n";

/* "4K", "256M", "1G", "4096" -> bytes (binary units) */
static int parse_size(const char *s, size_t len, size_t *bytes_p)
{
    char buf[32], *end;
    unsigned long long v, scale = 1;
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    v = strtoull(buf, &end, 10);
    if (end == buf || errno || buf[0] == '-') return -1;
    if (*end == 'K' || *end == 'k') scale = 1ull << 10, end++;
    else if (*end == 'M' || *end == 'm') scale = 1ull << 20, end++;
    else if (*end == 'G' || *end == 'g') scale = 1ull << 30, end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end != '\0' || v == 0 || v > (1ull << 34) / scale) return -1;
    *bytes_p = (size_t)(v * scale);
    return 0;
}

static int parse_sizes(const char *v, topo_args_t *a)
{
    const char *dots = strstr(v, "..");
    a->nsizes = 0;
    if (dots) {
        size_t lo, hi;
        if (parse_size(v, (size_t)(dots - v), &lo) || parse_size(dots + 2, strlen(dots + 2), &hi) ||
            lo > hi)
            return -1;
        for (size_t s = lo; s <= hi && a->nsizes < 64; s *= 4) a->sizes[a->nsizes++] = s;
        if (a->sizes[a->nsizes - 1] != hi && a->nsizes < 64) a->sizes[a->nsizes++] = hi;
        return 0;
    }
    while (*v) {
        size_t len = strcspn(v, ",");
        if (a->nsizes == 64 || parse_size(v, len, &a->sizes[a->nsizes])) return -1;
        a->nsizes++;
        v += len;
        if (*v == ',') v++;
    }
    return a->nsizes ? 0 : -1;
}

static int parse_topo_args(int argc, char **argv, topo_args_t *a)
{
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        int64_t n;
        const char *v, *arg = argv[i];
#define OPT(name) ((v = bb_opt_value(argc, argv, &i, name, &missing)) != NULL || missing)
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(topo_usage, stdout);
            return BB_EXIT_OK;
        } else if (strcmp(arg, "--probe") == 0) {
            a->probe = 1;
        } else if (OPT("--backend")) {
            if (missing || (strcmp(v, "cpu") && strcmp(v, "cuda")))
                return bb_cli_usage_error("topo", "--backend needs cpu or cuda");
            a->backend = strcmp(v, "cuda") == 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
            a->backend_given = 1;
        } else if (OPT("--devices")) {
            if (missing || bb_parse_i64(v, 1, 1024, &n))
                return bb_cli_usage_error("topo", "--devices needs a count in [1, 1024]");
            a->devices = (int)n;
        } else if (OPT("--repeats")) {
            if (missing || bb_parse_i64(v, 1, 1000, &n))
                return bb_cli_usage_error("topo", "--repeats needs a count in [1, 1000]");
            a->repeats = (int)n;
        } else if (OPT("--sizes")) {
            if (missing || parse_sizes(v, a))
                return bb_cli_usage_error("topo", "--sizes: '%s' is not A..B or A,B,... (sizes "
                                                  "such as 4K, 1M, 256M; at most 64)",
                                          missing ? "" : v);
        } else if (OPT("--json")) {
            if (missing || !*v) return bb_cli_usage_error("topo", "--json needs a file name, or -");
            a->json = v;
        } else if (OPT("--write-links")) {
            if (missing || !*v) return bb_cli_usage_error("topo", "--write-links needs a file name");
            a->write_links = v;
        } else {
            return bb_cli_usage_error("topo", "unknown option '%.100s'", arg);
        }
#undef OPT
    }
    if (a->write_links && !a->probe)
        return bb_cli_usage_error("topo", "--write-links needs --probe");
    return BB_ARGS_GO_ON;
}

static double gbps(size_t bytes, double s) { return s > 0 ? (double)bytes / s / 1e9 : 0; }

/* Which path the probe's peer copies took (docs/cli.md, "boxbfs topo"). */
static const char *peer_path(boxbfs_topology_t t, int s, int d)
{
    int direct = boxbfs_topology_probe_direct(t, s, d);
    return direct > 0 ? "direct (peer access enabled)"
           : direct == 0 ? "staged by the driver (no peer access)" : "unknown";
}

static void print_text(FILE *f, boxbfs_topology_t t, const topo_args_t *a, const char *note)
{
    int n = boxbfs_topology_device_count(t);
    boxbfs_device_info_t info;
    boxbfs_link_info_t L;
    fprintf(f, "# boxbfs topo %s (commit %s)\n", boxbfs_version(), bb_build_commit());
    if (note) fprintf(f, "# %s\n", note);
    fprintf(f, "# backend: %s%s\n", boxbfs_backend_name(a->backend),
            a->backend == BOXBFS_BACKEND_CPU
                ? " (devices emulated in host memory; a peer copy is a memcpy, not a link)"
                : "");
    fprintf(f, "# link source: %s\n", boxbfs_topology_link_source(t));
    fprintf(f, "# devices: %d\n", n);
    fprintf(f, "%4s  %-36s %-14s %10s %5s %5s  %s\n", "id", "name", "pci_bus_id", "memory_GiB",
            "SMs", "numa", "cpus");
    for (int d = 0; d < n; d++) {
        boxbfs_topology_device(t, d, &info);
        fprintf(f, "%4d  %-36s %-14s %10.2f %5d %5d  %s\n", d, info.name, info.pci_bus_id,
                (double)info.memory_bytes / 1073741824.0, info.sm_count, info.numa_node,
                info.cpu_affinity[0] ? info.cpu_affinity : "-");
    }
    fprintf(f, "# peer access (row = source; 1 direct, 0 staged through the host)\n%4s", "");
    for (int b = 0; b < n; b++) fprintf(f, " %4d", b);
    fputc('\n', f);
    for (int s = 0; s < n; s++) {
        fprintf(f, "%4d", s);
        for (int b = 0; b < n; b++) {
            boxbfs_topology_link(t, s, b, &L);
            fprintf(f, " %4s", s == b ? "-" : L.access ? "1" : "0");
        }
        fputc('\n', f);
    }
    fprintf(f, "# link types (row = source; P2P rank: lower is faster; atomics: native)\n");
    fprintf(f, "%4s %4s  %-12s %6s %8s %8s\n", "src", "dst", "type", "rank", "atomics", "nvlinks");
    for (int s = 0; s < n; s++)
        for (int b = 0; b < n; b++) {
            if (s == b) continue;
            boxbfs_topology_link(t, s, b, &L);
            fprintf(f, "%4d %4d  %-12s %6d %8d %8d\n", s, b, L.type, L.perf_rank, L.native_atomics,
                    L.nvlinks);
        }
    if (!a->probe) return;
    fprintf(f, "# probe: median of %d repeats after one warm-up; GB/s = 1e9 bytes/s; bidir: both "
               "directions at once, GB/s counts both\n", a->repeats);
    fprintf(f, "%4s %4s %12s %10s %10s %10s %10s %10s %10s\n", "src", "dst", "bytes", "peer_us",
            "peer_GB/s", "host_us", "host_GB/s", "bidir_us", "bidir_GB/s");
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            if (s == d) continue;
            for (int k = 0; k < a->nsizes; k++) {
                double tp = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_PEER, k);
                double th = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_HOST, k);
                double tb = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_BIDIR, k);
                fprintf(f, "%4d %4d %12zu %10.2f %10.3f %10.2f %10.3f %10.2f %10.3f\n", s, d,
                        a->sizes[k], tp * 1e6, gbps(a->sizes[k], tp), th * 1e6,
                        gbps(a->sizes[k], th), tb * 1e6, gbps(2 * a->sizes[k], tb));
            }
        }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d)
                fprintf(f, "latency_us %d->%d: %.3f\n", s, d,
                        boxbfs_topology_probe_latency(t, s, d) * 1e6);
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++)
            if (s != d)
                fprintf(f, "peer_path %d->%d: %s\n", s, d, peer_path(t, s, d));
}

static int write_json(FILE *f, boxbfs_topology_t t, const topo_args_t *a, const char *note)
{
    bb_json_t j;
    int n = boxbfs_topology_device_count(t);
    boxbfs_device_info_t info;
    boxbfs_link_info_t L;
    bb_json_init(&j, f);
    bb_json_begin_object(&j, NULL);
    bb_json_string(&j, "version", boxbfs_version());
    bb_json_string(&j, "commit", bb_build_commit());
    bb_json_string(&j, "backend", boxbfs_backend_name(a->backend));
    if (note) bb_json_string(&j, "note", note);
    bb_json_string(&j, "link_source", boxbfs_topology_link_source(t));
    bb_json_begin_array(&j, "devices");
    for (int d = 0; d < n; d++) {
        boxbfs_topology_device(t, d, &info);
        bb_json_begin_object(&j, NULL);
        bb_json_int(&j, "id", d);
        bb_json_string(&j, "name", info.name);
        bb_json_string(&j, "pci_bus_id", info.pci_bus_id);
        bb_json_int(&j, "memory_bytes", (int64_t)info.memory_bytes);
        bb_json_int(&j, "sm_count", info.sm_count);
        bb_json_int(&j, "numa_node", info.numa_node);
        bb_json_string(&j, "cpu_affinity", info.cpu_affinity);
        bb_json_bool(&j, "emulated", info.emulated);
        bb_json_end_object(&j);
    }
    bb_json_end_array(&j);
    bb_json_begin_array(&j, "links");
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            if (s == d) continue;
            boxbfs_topology_link(t, s, d, &L);
            bb_json_begin_object(&j, NULL);
            bb_json_int(&j, "src", s);
            bb_json_int(&j, "dst", d);
            bb_json_bool(&j, "access", L.access);
            bb_json_int(&j, "perf_rank", L.perf_rank);
            bb_json_bool(&j, "native_atomics", L.native_atomics);
            bb_json_int(&j, "nvlinks", L.nvlinks);
            bb_json_string(&j, "type", L.type);
            bb_json_end_object(&j);
        }
    bb_json_end_array(&j);
    if (a->probe) {
        bb_json_begin_object(&j, "probe");
        bb_json_int(&j, "repeats", a->repeats);
        bb_json_string(&j, "statistic", "median after one warm-up");
        bb_json_begin_array(&j, "pairs");
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++) {
                if (s == d) continue;
                bb_json_begin_object(&j, NULL);
                bb_json_int(&j, "src", s);
                bb_json_int(&j, "dst", d);
                bb_json_double(&j, "latency_s", boxbfs_topology_probe_latency(t, s, d));
                bb_json_string(&j, "peer_path", peer_path(t, s, d));
                bb_json_begin_array(&j, "sizes");
                for (int k = 0; k < a->nsizes; k++) {
                    double tp = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_PEER, k);
                    double th = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_HOST, k);
                    double tb = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_BIDIR, k);
                    bb_json_begin_object(&j, NULL);
                    bb_json_int(&j, "bytes", (int64_t)a->sizes[k]);
                    bb_json_double(&j, "peer_s", tp);
                    bb_json_double(&j, "peer_Bps", tp > 0 ? a->sizes[k] / tp : 0);
                    bb_json_double(&j, "host_s", th);
                    bb_json_double(&j, "host_Bps", th > 0 ? a->sizes[k] / th : 0);
                    bb_json_double(&j, "bidir_s", tb);
                    bb_json_double(&j, "bidir_Bps", tb > 0 ? 2.0 * a->sizes[k] / tb : 0);
                    bb_json_end_object(&j);
                }
                bb_json_end_array(&j);
                bb_json_end_object(&j);
            }
        bb_json_end_array(&j);
        bb_json_end_object(&j);
    }
    bb_json_end_object(&j);
    return bb_json_finish(&j);
}

/* The probe's figures as a description: one `link` line per pair (the slower
 * direction's bandwidth at the largest size, the larger 8-byte latency). */
static int write_links(const char *path, boxbfs_topology_t t, const topo_args_t *a)
{
    int n = boxbfs_topology_device_count(t), k = a->nsizes - 1;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        bb_cli_error("%s: cannot open for writing: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# measured by boxbfs topo --probe (%s backend, commit %s): peer copies of %zu "
               "bytes, latency of 8 bytes\nname measured\n",
            boxbfs_backend_name(a->backend), bb_build_commit(), a->sizes[k]);
    for (int s = 0; s < n; s++)
        for (int d = s + 1; d < n; d++) {
            double t1 = boxbfs_topology_probe_time(t, s, d, BOXBFS_PROBE_PEER, k);
            double t2 = boxbfs_topology_probe_time(t, d, s, BOXBFS_PROBE_PEER, k);
            double l1 = boxbfs_topology_probe_latency(t, s, d), l2 = boxbfs_topology_probe_latency(t, d, s);
            double tm = t1 > t2 ? t1 : t2;
            fprintf(f, "link %d %d bandwidth=%.6gB/s latency=%.6gs\n", s, d,
                    (double)a->sizes[k] / (tm > 1e-9 ? tm : 1e-9), l1 > l2 ? l1 : l2);
        }
    if (ferror(f) | fclose(f)) {
        bb_cli_error("%s: write failed", path);
        return -1;
    }
    return 0;
}

int bb_cmd_topo(int argc, char **argv)
{
    topo_args_t a;
    boxbfs_topology_t t = NULL;
    boxbfs_status_t st;
    const char *note = NULL;
    char note_buf[256];
    int rc;
    memset(&a, 0, sizeof a);
    a.repeats = 5;
    rc = parse_topo_args(argc, argv, &a);
    if (rc != BB_ARGS_GO_ON) return rc;
    if (a.nsizes == 0) parse_sizes("4K..256M", &a);
    if (!a.backend_given) {
        int gpus = boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA);
        a.backend = gpus > 0 ? BOXBFS_BACKEND_CUDA : BOXBFS_BACKEND_CPU;
        if (gpus == 0) {
            snprintf(note_buf, sizeof note_buf, "cuda: %s; showing the cpu backend's emulated devices",
                     boxbfs_backend_device_count(BOXBFS_BACKEND_CUDA) == 0 &&
                             boxbfs_topology_discover(BOXBFS_BACKEND_CUDA, 0, &t) ==
                                 BOXBFS_ERR_UNSUPPORTED
                         ? "not built in"
                         : "no GPU found");
            boxbfs_topology_free(t);
            t = NULL;
            note = note_buf;
        }
    }
    if ((st = boxbfs_topology_discover(a.backend, a.devices, &t)) != BOXBFS_OK) return bb_cli_fail(st);
    if (a.probe && (st = boxbfs_topology_probe(t, a.sizes, a.nsizes, a.repeats)) != BOXBFS_OK) {
        boxbfs_topology_free(t);
        return bb_cli_fail(st);
    }
    if (!(a.json && strcmp(a.json, "-") == 0)) print_text(stdout, t, &a, note);
    if (a.json) {
        FILE *f = strcmp(a.json, "-") == 0 ? stdout : fopen(a.json, "w");
        if (f == NULL) {
            bb_cli_error("%s: cannot open for writing: %s", a.json, strerror(errno));
            rc = BB_EXIT_RUNTIME;
        } else {
            int bad = write_json(f, t, &a, note) != 0;
            bad |= f != stdout ? fclose(f) != 0 : fflush(f) != 0;
            if (bad) {
                bb_cli_error("%s: write failed", a.json);
                rc = BB_EXIT_RUNTIME;
            }
        }
    }
    if (rc == BB_ARGS_GO_ON) rc = BB_EXIT_OK;
    if (a.write_links && write_links(a.write_links, t, &a) != 0) rc = BB_EXIT_RUNTIME;
    boxbfs_topology_free(t);
    return rc;
}
