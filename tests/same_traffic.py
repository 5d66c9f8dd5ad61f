"""Used by tests/mpi.sh and tests/gpu_nccl.sh: two `boxbfs bfs --json` reports
of the same graph, roots and device count (a reference exchange and the one
under test, named EXCHANGE) must both validate and count the same traffic:
totals, phases, per-link matrix, level table and per-root bytes.

  python3 tests/same_traffic.py REFERENCE.json TESTED.json EXCHANGE
"""
import json
import sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
exchange = sys.argv[3]
assert a["validation"] == "passed", "reference run not validated"
assert b["validation"] == "passed", exchange + " run not validated"
assert b["options"]["exchange"] == exchange, b["options"]["exchange"]
assert b["device_count"] == a["device_count"], (a["device_count"], b["device_count"])
ta, tb = a["traffic"], b["traffic"]
for k in ("total_bytes", "total_messages", "phases", "phase_messages", "links"):
    assert ta[k] == tb[k], (k, ta[k], tb[k])
keys = ("level", "frontier", "sent_vertices", "bytes", "messages", "bitmap_messages")
la = [[lv[k] for k in keys] for lv in ta["levels"]]
lb = [[lv[k] for k in keys] for lv in tb["levels"]]
assert la == lb, ("levels", la, lb)
ra = [(r["root"], r["levels"], r["reached"], r["bytes"]) for r in a["runs"]]
rb = [(r["root"], r["levels"], r["reached"], r["bytes"]) for r in b["runs"]]
assert ra == rb, ("runs", ra, rb)
