"""Used by tests/mpi.sh, tests/gpu_nccl.sh and tests/device_loop.sh: two
`boxbfs bfs --json` reports of the same graph, roots and device count (a
reference exchange and the one under test, named EXCHANGE) must both validate
and count the same traffic: totals, phases, per-link matrix, level table and
per-root bytes.

  python3 tests/same_traffic.py REFERENCE.json TESTED.json EXCHANGE [UNDONE_BYTES]

UNDONE_BYTES (the device loop across devices, host levels: 4): either run
may also have sent the lists of levels a loop undid (each level's
undone_vertices, that many bytes a vertex, one more message on some links):
its frontier phase, levels and totals may exceed the other's by exactly
those bytes, and nothing else may differ.
"""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
exchange = sys.argv[3]
assert a["validation"] == "passed", "reference run not validated"
assert b["validation"] == "passed", exchange + " run not validated"
assert b["options"]["exchange"] == exchange, b["options"]["exchange"]
assert b["device_count"] == a["device_count"], (a["device_count"], b["device_count"])
per_vertex = int(sys.argv[4]) if len(sys.argv) > 4 else 0
ta, tb = a["traffic"], b["traffic"]
extra = tb["total_bytes"] - ta["total_bytes"]
if extra == 0 or not per_vertex:
    for k in ("total_bytes", "total_messages", "phases", "phase_messages", "links"):
        assert ta[k] == tb[k], (k, ta[k], tb[k])
else:   # only the first root's levels are in the report: the others' through the totals
    lo, hi = (ta, tb) if extra > 0 else (tb, ta)   # hi: the run that undid more
    extra = abs(extra)
    undone = abs(sum(x.get("undone_vertices", 0) - y.get("undone_vertices", 0)
                     for x, y in zip(ta["levels"], tb["levels"])))
    assert extra >= per_vertex * undone and extra % per_vertex == 0, \
        ("total_bytes", ta["total_bytes"], tb["total_bytes"])
    assert hi["total_messages"] >= lo["total_messages"], "total_messages"
    for p in ta["phases"]:
        more = hi["phases"][p] - lo["phases"][p]
        assert more == (extra if p == "frontier_exchange" else 0), ("phase", p, more)
    assert sum(y["bytes"] - x["bytes"] for x, y in zip(lo["links"], hi["links"])) == extra, "links"


def rows(t):
    """Each level's row; with UNDONE_BYTES, less the lists of levels a loop undid."""
    def row(lv):
        u = lv.get("undone_vertices", 0) if per_vertex else 0
        return [lv["level"], lv["frontier"], lv["sent_vertices"] - u, lv["bytes"] - per_vertex * u,
                lv["bitmap_messages"], lv.get("undone_vertices", 0) if not per_vertex else 0]
    return [row(lv) for lv in t["levels"]]


assert rows(ta) == rows(tb), ("levels", rows(ta), rows(tb))
ma = [lv["messages"] for lv in ta["levels"]]
mb = [lv["messages"] for lv in tb["levels"]]
assert all(x == y or per_vertex for x, y in zip(ma, mb)), ("messages", ma, mb)
ra = [(r["root"], r["levels"], r["reached"]) for r in a["runs"]]
rb = [(r["root"], r["levels"], r["reached"]) for r in b["runs"]]
assert ra == rb, ("runs", ra, rb)
extra_runs = [y["bytes"] - x["bytes"] for x, y in zip(a["runs"], b["runs"])]
assert all(x == 0 or (per_vertex and x % per_vertex == 0) for x in extra_runs), \
    ("runs' bytes", extra_runs)
