"""Shared by tools/bxbench and tools/bxplot: the runs.csv schema, the row
built from one `boxbfs bfs --json` report, the strict CSV reader (errors
name FILE:LINE), the rows of benchmarks/results summaries and the Markdown
summaries. Python 3 standard library only.
"""

import csv
import datetime
import json
import math
import os
import re

# runs.csv, one row per sweep point, in this order. Kinds: s = text,
# i = integer, f = number, o = integer or empty (scale of a file graph).
COLUMNS = [
    ("point", "s"), ("graph", "s"), ("scale", "o"), ("vertices", "i"), ("edges", "i"),
    ("devices", "i"), ("backend", "s"), ("contract", "s"), ("visited", "s"),
    ("wire", "s"), ("exchange", "s"), ("direction", "s"), ("link_model", "s"), ("roots", "i"),
    ("gteps_hmean", "f"), ("gteps_min", "f"), ("gteps_q1", "f"), ("gteps_median", "f"),
    ("gteps_q3", "f"), ("gteps_max", "f"), ("time_s_median", "f"),
    ("bytes_per_bfs", "f"), ("frontier_bytes_per_bfs", "f"),
    ("frontier_bitmap_bytes_per_bfs", "f"), ("link_bytes", "s"),
    ("modeled_exchange_s_per_bfs", "f"),
    ("expand_s", "f"), ("contract_s", "f"), ("exchange_s", "f"), ("update_s", "f"),
    ("device_names", "s"), ("commit", "s"), ("date", "s"),
    # 2D partition (bxbench partition): the grid, messages and the 2D phases' bytes
    ("partition", "s"), ("grid", "s"), ("messages_per_bfs", "f"),
    ("expand_bytes_per_bfs", "f"), ("fold_bytes_per_bfs", "f"),
]
NAMES = [c for c, _ in COLUMNS]
KIND = dict(COLUMNS)
# Columns added later, with the value a CSV written before them stands for:
# runs before direction-optimizing BFS (commit f81b3f8) were all top-down and
# sent no frontier bitmap. read_csv fills them in when the header lacks them.
LATER = {"direction": "top-down", "frontier_bitmap_bytes_per_bfs": "0",
         # runs before the 2D partition were 1D; their messages were not kept
         "partition": "1d", "grid": "", "messages_per_bfs": "0",
         "expand_bytes_per_bfs": "0", "fold_bytes_per_bfs": "0"}
PHASES = ["expand_s", "contract_s", "exchange_s", "update_s"]
METHODS = ["sort-unique", "valid-flag", "atomic"]


class BxError(Exception):
    """A problem the user can fix; the message names the file (and line)."""


def num(x):
    """A number as the CSV writes it: integers plainly, others with 10 digits."""
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return "%.10g" % x


def load_report(path):
    """The JSON report of one boxbfs bfs run; BxError when unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise BxError("%s: cannot read: %s" % (path, e.strerror))
    except ValueError as e:
        raise BxError("%s: not a complete JSON report: %s" % (path, e))


def row_from_report(point, scale, rep, path):
    """The runs.csv row (dict of strings) for one report; date = file mtime (UTC)."""
    try:
        g, t, o = rep["graph"], rep["traffic"], rep["options"]
        searches = t["searches"] or 1
        teps = rep["teps"]
        links = ";".join("%d>%d:%s" % (l["src"], l["dst"], num(l["bytes"] / searches))
                         for l in t["links"])
        phase = {p: sum(L[p] for L in t["levels"]) for p in PHASES}
        # the report's own date; the file time only for reports older than that field
        date = rep.get("date") or datetime.datetime.fromtimestamp(
            os.stat(path).st_mtime, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        row = {
            "point": point, "graph": g["name"], "scale": "" if scale is None else str(scale),
            "vertices": num(g["vertices"]), "edges": num(g["edges"]),
            "devices": num(rep["device_count"]), "backend": rep["backend"],
            "contract": o["contract"], "visited": o["visited"], "wire": o["wire"],
            # one device per process (mpirun): "nccl/2p", "mpi/4p"
            "exchange": o["exchange"] + ("/%dp" % rep["processes"]
                                         if rep.get("processes", 1) > 1 else ""),
            # reports from before --direction were top-down
            "direction": o.get("direction", LATER["direction"]),
            "link_model": t["link_model"]["name"],
            "roots": num(len(rep["runs"])),
            "gteps_hmean": num(teps["harmonic_mean"] / 1e9),
            "gteps_min": num(teps["min"] / 1e9), "gteps_q1": num(teps["q1"] / 1e9),
            "gteps_median": num(teps["median"] / 1e9), "gteps_q3": num(teps["q3"] / 1e9),
            "gteps_max": num(teps["max"] / 1e9),
            "time_s_median": num(rep["time_s"]["median"]),
            "bytes_per_bfs": num(t["bytes_per_bfs"]),
            "frontier_bytes_per_bfs": num(t["phases"].get("frontier_exchange", 0) / searches),
            # bottom-up levels: each device's part of the frontier bitmap to every other
            "frontier_bitmap_bytes_per_bfs": num(t["phases"].get("frontier_bitmap", 0)
                                                 / searches),
            "link_bytes": links,
            "modeled_exchange_s_per_bfs": num(t["modeled_exchange_s_per_bfs"]),
            "device_names": ";".join(d["name"] for d in rep["devices"]),
            "commit": rep.get("commit", ""),
            "date": date,
            "partition": o.get("partition", "1d"),
            "grid": "%dx%d" % (o["grid_rows"], o["grid_cols"]) if "grid_rows" in o else "",
            "messages_per_bfs": num(t["total_messages"] / searches),
            "expand_bytes_per_bfs": num(t["phases"].get("expand", 0) / searches),
            "fold_bytes_per_bfs": num(t["phases"].get("fold", 0) / searches),
        }
        for p in PHASES:
            row[p] = num(phase[p])
    except (KeyError, TypeError, IndexError, ZeroDivisionError) as e:
        raise BxError("%s: report lacks a field the CSV needs (%s: %s)"
                      % (path, type(e).__name__, e))
    return row


def write_header(f):
    w = csv.writer(f, lineterminator="\n")
    w.writerow(NAMES)


def write_row(f, row):
    csv.writer(f, lineterminator="\n").writerow([row[c] for c in NAMES])
    f.flush()


def read_csv(path):
    """Rows of a runs.csv as dicts with numbers converted (columns of LATER
    that an older header lacks get their old meaning); BxError naming
    FILE:LINE on a missing column, a wrong field count or a bad value."""
    try:
        f = open(path, encoding="utf-8", newline="")
    except OSError as e:
        raise BxError("%s: cannot read: %s" % (path, e.strerror))
    rows = []
    with f:
        text = f.read()
        if text and not text.endswith("\n"):
            nl = text.count("\n") + 1
            raise BxError("%s:%d: truncated line (no newline at the end of the file)"
                          % (path, nl))
        r = csv.reader(text.splitlines(True))
        try:
            header = next(r)
        except StopIteration:
            raise BxError("%s:1: empty file, expected the runs.csv header" % path)
        except csv.Error as e:
            raise BxError("%s:1: %s" % (path, e))
        missing = [c for c in NAMES if c not in header and c not in LATER]
        later = [(c, LATER[c]) for c in NAMES if c not in header and c in LATER]
        if missing:
            raise BxError("%s:1: missing column%s %s (a runs.csv from tools/bxbench has: %s)"
                          % (path, "s" if len(missing) > 1 else "", ", ".join(missing),
                             ",".join(NAMES)))
        while True:
            try:
                fields = next(r)
            except StopIteration:
                break
            except csv.Error as e:
                raise BxError("%s:%d: %s" % (path, r.line_num, e))
            line = r.line_num
            if not fields:
                continue
            if len(fields) != len(header):
                raise BxError("%s:%d: %d fields, the header has %d (truncated or broken line)"
                              % (path, line, len(fields), len(header)))
            row = {"_line": line}
            for name, value in list(zip(header, fields)) + later:
                kind = KIND.get(name, "s")
                if kind == "s" or (kind == "o" and value == ""):
                    row[name] = value if kind == "s" else None
                    continue
                try:
                    v = int(value) if kind in "io" else float(value)
                    if kind == "f" and not math.isfinite(v):
                        raise ValueError
                except ValueError:
                    raise BxError("%s:%d: column '%s': '%s' is not %s" % (
                        path, line, name, value,
                        "an integer" if kind in "io" else "a finite number"))
                row[name] = v
            rows.append(row)
    if not rows:
        raise BxError("%s:2: no data rows after the header" % path)
    return rows


def read_summaries(paths):
    """The bfs rows of Kronecker graphs (the summaries give the others' time,
    not GTEPS) in benchmarks/results summaries (NAME.json of
    benchmarks/summarize) that validated, on distinct devices (logical devices
    of one GPU measure no scaling), each with "model" (the GPU's name without
    MPI rank, vendor and bus id: "H200") and "gteps"; BxError naming the file."""
    rows = []
    for path in paths:
        data = load_report(path)
        try:
            for r in data:
                if r["command"] != "bfs" or not r["graph"].startswith("kron:") or \
                        r["validation"] != "passed" or len(set(r["devices"])) != r["device_count"]:
                    continue
                names = {re.sub(r" \([0-9a-fA-F:.]+\)$", "",
                                re.sub(r"^(rank \d+: )?(NVIDIA )?", "", d)) for d in r["devices"]}
                rows.append(dict(r, model=" / ".join(sorted(names)), gteps=r["teps"] / 1e9))
        except (TypeError, KeyError, AttributeError) as e:
            raise BxError("%s: not a benchmarks/summarize summary (%s)" % (path, e))
    if not rows:
        raise BxError("%s: no validated bfs rows of a Kronecker graph" % ", ".join(paths))
    return rows


def graph_label(row):
    return "2^%d" % row["scale"] if row["scale"] is not None else row["graph"]


def pct_less(a, b):
    return "%.1f%% less" % (100.0 * (a - b) / a) if a else "-"


def fmt_bytes(x):
    return "{:,.0f}".format(x)


def summary_traffic(rows):
    """GPU-BOX Figure 7 table: frontier bytes per BFS per method."""
    out = ["| N | devices | wire | sort-unique B/BFS | valid-flag B/BFS | atomic B/BFS "
           "| valid-flag vs sort-unique (frontier) | (all phases) "
           "| modeled s/BFS sort-unique / valid-flag |",
           "|---|---|---|---|---|---|---|---|---|"]
    groups = {}
    for r in rows:
        key = (r["vertices"], r["graph"], r["devices"], r["wire"], r["visited"],
               r["exchange"], r["backend"], r["link_model"], r["direction"])
        groups.setdefault(key, {})[r["contract"]] = r
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2], k[3] != "list", k[3:])):
        g = groups[key]
        any_row = next(iter(g.values()))
        cell = lambda m, c: fmt_bytes(g[m][c]) if m in g else "-"
        su, vf = g.get("sort-unique"), g.get("valid-flag")
        red = pct_less(su["frontier_bytes_per_bfs"], vf["frontier_bytes_per_bfs"]) \
            if su and vf else "-"
        red_all = pct_less(su["bytes_per_bfs"], vf["bytes_per_bfs"]) if su and vf else "-"
        mod = "%.3g / %.3g (%s)" % (su["modeled_exchange_s_per_bfs"],
                                    vf["modeled_exchange_s_per_bfs"], su["link_model"]) \
            if su and vf else "-"
        wire = key[3] + ("" if key[8] == "top-down" else " (direction %s)" % key[8])
        out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            graph_label(any_row), key[2], wire, cell("sort-unique", "frontier_bytes_per_bfs"),
            cell("valid-flag", "frontier_bytes_per_bfs"), cell("atomic", "frontier_bytes_per_bfs"),
            red, red_all, mod))
    return "\n".join(out)


def summary_teps(rows):
    """GTEPS (harmonic mean) per method (columns) and graph x devices (rows)."""
    methods = sorted({method_label(r) for r in rows}, key=method_key)
    out = ["| graph | devices | " + " | ".join("%s GTEPS" % m for m in methods) + " |",
           "|---|---|" + "---|" * len(methods)]
    cells = {}
    for r in rows:
        cells[(r["vertices"], r["graph"], r["devices"], method_label(r))] = r
    for key in sorted({k[:3] for k in cells}):
        vals = []
        for m in methods:
            r = cells.get(key + (m,))
            vals.append("%.4g" % r["gteps_hmean"] if r else "-")
        g = next(cells[key + (m,)] for m in methods if key + (m,) in cells)
        out.append("| %s | %d | %s |" % (graph_label(g), key[2], " | ".join(vals)))
    return "\n".join(out)


def summary_points(rows):
    """One line per point (any sweep)."""
    out = ["| graph | devices | backend | contract | visited | wire | exchange | direction "
           "| GTEPS (hmean) | bytes/BFS | frontier bytes/BFS | frontier bitmap bytes/BFS "
           "| modeled s/BFS (link) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %.4g | %s | %s | %s | %.3g (%s) |"
                   % (graph_label(r), r["devices"], r["backend"], r["contract"], r["visited"],
                      r["wire"], r["exchange"], r["direction"], r["gteps_hmean"],
                      fmt_bytes(r["bytes_per_bfs"]), fmt_bytes(r["frontier_bytes_per_bfs"]),
                      fmt_bytes(r["frontier_bitmap_bytes_per_bfs"]),
                      r["modeled_exchange_s_per_bfs"], r["link_model"]))
    return "\n".join(out)


VARYING = ["contract", "visited", "wire", "exchange", "direction", "backend", "link_model"]


def varying(rows, cols=VARYING):
    """The columns among cols that take more than one value in rows."""
    return [c for c in cols if len({r[c] for r in rows}) > 1]


def method_label(r):
    """contract, plus the other method options that are not the defaults."""
    parts = [r["contract"]]
    if r["visited"] != "byte":
        parts.append("visited " + r["visited"])
    if r["wire"] != "list":
        parts.append("wire " + r["wire"])
    if r["exchange"] != "peer":
        parts.append(r["exchange"])
    if r["direction"] != "top-down":
        parts.append("direction " + r["direction"])
    return ", ".join(parts)


ORDER = {v: i for i, v in enumerate(["byte", "bit", "list", "bitmap", "auto", "peer", "host",
                                     "top-down", "bottom-up"])}


def method_key(label):
    """Sort key: contract in METHODS order, then options in their usual order."""
    parts = [p.strip() for p in label.split(",")]
    c = parts[0]
    return (METHODS.index(c) if c in METHODS else len(METHODS), c,
            [(p.split()[:-1], ORDER.get(p.split()[-1], 99), p) for p in parts[1:]])


def summary_scaling(rows):
    """Strong scaling (smallest graph on every device count) and weak scaling
    (scale + log2 devices), GTEPS harmonic mean, per method."""
    out = []
    base = min(r["scale"] for r in rows if r["scale"] is not None)
    for m in sorted({method_label(r) for r in rows}, key=method_key):
        mine = [r for r in rows if method_label(r) == m and r["scale"] is not None]
        strong = sorted((r for r in mine if r["scale"] == base), key=lambda r: r["devices"])
        one = next((r["gteps_hmean"] for r in strong if r["devices"] == 1), None)
        out += ["%s, strong scaling (2^%d vertices):" % (m, base), "",
                "| devices | GTEPS | speedup vs 1 device | efficiency |", "|---|---|---|---|"]
        for r in strong:
            sp = r["gteps_hmean"] / one if one else None
            out.append("| %d | %.4g | %s | %s |" % (
                r["devices"], r["gteps_hmean"], "%.2f" % sp if sp else "-",
                "%.0f%%" % (100 * sp / r["devices"]) if sp else "-"))
        weak = sorted((r for r in mine if r["devices"] & (r["devices"] - 1) == 0 and
                       r["scale"] == base + r["devices"].bit_length() - 1),
                      key=lambda r: r["devices"])
        out += ["", "%s, weak scaling (scale + 1 per doubling):" % m, "",
                "| devices | graph | GTEPS | GTEPS per device |", "|---|---|---|---|"]
        for r in weak:
            out.append("| %d | 2^%d | %.4g | %.4g |" % (r["devices"], r["scale"],
                                                       r["gteps_hmean"],
                                                       r["gteps_hmean"] / r["devices"]))
        out.append("")
    return "\n".join(out).rstrip()


DIRECTIONS = ["top-down", "auto", "bottom-up"]


def direction_key(d):
    return (DIRECTIONS.index(d) if d in DIRECTIONS else len(DIRECTIONS), d)


def summary_direction(rows):
    """Top-down against direction-optimizing: bytes and modeled exchange time
    per BFS for each graph x devices (x link model, x the other options that
    vary), one row per direction, with the change against top-down."""
    others = varying(rows, ["backend", "contract", "visited", "wire", "exchange"])
    out = ["| graph | devices | %sdirection | bytes/BFS | frontier lists B/BFS "
           "| frontier bitmap B/BFS | other B/BFS (parent gather, sizes, reduce) | bytes vs top-down "
           "| modeled exchange ms/BFS (link) | modeled vs top-down |"
           % "".join(c.replace("_", " ") + " | " for c in others),
           "|---|---|" + "---|" * len(others) + "---|---|---|---|---|---|---|---|"]
    groups = {}
    for r in rows:
        key = (r["vertices"], r["graph"], r["devices"], r["link_model"]) + \
            tuple(r[c] for c in others)
        groups.setdefault(key, {})[r["direction"]] = r
    for key in sorted(groups):
        g = groups[key]
        td = g.get("top-down")
        for d in sorted(g, key=direction_key):
            r = g[d]
            rest = r["bytes_per_bfs"] - r["frontier_bytes_per_bfs"] - \
                r["frontier_bitmap_bytes_per_bfs"]
            vs = lambda c: "-" if td is None or r is td or not td[c] else \
                "%+.1f%%" % (100.0 * (r[c] - td[c]) / td[c])
            out.append("| %s | %d | %s%s | %s | %s | %s | %s | %s | %.4g (%s) | %s |" % (
                graph_label(r), r["devices"], "".join(str(r[c]) + " | " for c in others), d,
                fmt_bytes(r["bytes_per_bfs"]), fmt_bytes(r["frontier_bytes_per_bfs"]),
                fmt_bytes(r["frontier_bitmap_bytes_per_bfs"]), fmt_bytes(rest),
                vs("bytes_per_bfs"), 1e3 * r["modeled_exchange_s_per_bfs"], r["link_model"],
                vs("modeled_exchange_s_per_bfs")))
    return "\n".join(out)


def summary_partition(rows):
    """1D against 2D: bytes, messages and modeled exchange time per BFS for
    each graph x devices x link model, one row per partition, with 2D's
    ratio to 1D."""
    out = ["| graph | devices | link model | partition | grid | bytes/BFS | expand B/BFS "
           "| fold B/BFS | 1D frontier B/BFS | messages/BFS | messages vs 1D | bytes vs 1D "
           "| modeled exchange ms/BFS | modeled vs 1D |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    groups = {}
    for r in rows:
        key = (r["vertices"], r["graph"], r["devices"], r["link_model"])
        groups.setdefault(key, {})[r["partition"]] = r
    for key in sorted(groups):
        g = groups[key]
        one = g.get("1d")
        for part in sorted(g):
            r = g[part]
            ratio = lambda c: "-" if one is None or r is one or not one[c] else \
                "%.2fx" % (r[c] / one[c])
            out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %.4g | %s |"
                       % (graph_label(r), r["devices"], r["link_model"], part, r["grid"] or "-",
                          fmt_bytes(r["bytes_per_bfs"]), fmt_bytes(r["expand_bytes_per_bfs"]),
                          fmt_bytes(r["fold_bytes_per_bfs"]),
                          fmt_bytes(r["frontier_bytes_per_bfs"]), r["messages_per_bfs"],
                          ratio("messages_per_bfs"), ratio("bytes_per_bfs"),
                          1e3 * r["modeled_exchange_s_per_bfs"],
                          ratio("modeled_exchange_s_per_bfs")))
    return "\n".join(out)
