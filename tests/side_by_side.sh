#!/bin/sh
# Roots side by side (bfs --side-by-side; docs/cli.md "Roots side by side"):
# a graph whose warm-up search runs more than 256 levels (a road network's
# shape: a grid) runs its roots side by side on several devices, each
# device with an engine of its own, and says so (report, JSON: strategy,
# the device of each root, roots per device); every tree is validated and
# each root gets the levels and reached count it gets split over the
# devices, --output the same levels; a Kronecker graph stays split; on
# forces it (also on a Kronecker graph), off keeps every search split, and
# on refuses what cannot run side by side (one device, --partition 2d, a
# GPU named twice in --device-ids) before any timed search; --devices auto
# splits a small graph over one device but runs roots side by side on all. BACKEND=cuda
# (tests/gpu_side_by_side.sh): on two GPUs where there are.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
backend=${BACKEND:-cpu}
ndev=2 alln=2   # devices of a split search; all the devices --devices auto sees
if [ "$backend" = cuda ]; then
    need_gpu
    gpus=$(visible_gpus)
    [ "$gpus" -ge 2 ] || { echo "SKIP: $gpus GPU (two are needed)"; exit 77; }
    alln=$gpus
fi
grid_mtx 300 "$tmp/grid.mtx"   # 90,000 vertices, 300-600 levels from any root

# NAME GRAPH OPTIONS...: a validated run into $tmp/NAME.{json,txt,out}
run() {
    name=$1 graph=$2
    shift 2
    "$BOXBFS" bfs "$graph" --backend "$backend" --devices "$ndev" --roots 6 "$@" \
        --json "$tmp/$name.json" --output "$tmp/$name.out" >"$tmp/$name.txt" 2>"$tmp/$name.err" ||
        { cat "$tmp/$name.err"; return 1; }
    grep -q '"validation": "passed"' "$tmp/$name.json"
}

# side JSON [N]: 0 where the roots ran side by side on N devices [$ndev] as the
# JSON says they should
side() {
    python3 - "$1" "${2:-$ndev}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
s = d["side_by_side"]
per = s["roots_per_device"]
devs = [r["device"] for r in d["runs"]]
assert d["strategy"] == "roots side by side", d["strategy"]
assert d["device_search"] is True and len(per) == n and sum(per) == len(d["runs"]), per
assert sorted(set(devs)) <= list(range(n)) and [devs.count(k) for k in range(n)] == per, devs
assert s["wall_s"] > 0 and s["searches_per_s"] > 0, s
assert d["traffic"]["total_bytes"] == 0, "one device alone moves nothing"
# the searches a second from their own times: the busiest device's sum, and
# all the times summed as one device would run them
busy = [sum(r["time_s"] for r in d["runs"] if r["device"] == k) for k in range(n)]
total = sum(r["time_s"] for r in d["runs"])
near = lambda a, b: abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
assert near(s["device_searches_per_s"], len(d["runs"]) / max(busy)), (s, busy)
assert near(s["one_device_searches_per_s"], len(d["runs"]) / total), (s, total)
assert near(s["speedup"], total / max(busy)) and 1 <= s["speedup"] <= n + 1e-9, s
PY
}

# same A B: the same roots, levels and reached counts per root, and the
# same level for every vertex in --output (the first root's tree)
same() {
    python3 - "$tmp/$1.json" "$tmp/$2.json" <<'PY' && cmp -s "$tmp/$1.lv" "$tmp/$2.lv"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ra = [(r["root"], r["levels"], r["reached"]) for r in a["runs"]]
rb = [(r["root"], r["levels"], r["reached"]) for r in b["runs"]]
assert ra == rb, (ra, rb)
PY
}
levels_of() { cut -d' ' -f1,2 "$tmp/$1.out" >"$tmp/$1.lv"; }

check "grid 300x300, auto: roots side by side, validated" \
    'run auto "$tmp/grid.mtx" && side "$tmp/auto.json" &&
     grep -q "search: roots side by side (auto: the warm-up search ran [0-9]* levels" "$tmp/auto.txt" &&
     grep -q "^side_by_side_searches_per_s: " "$tmp/auto.txt" &&
     grep -q "^side_by_side_device_searches_per_s: [0-9.e+]* ($ndev devices; one device: [0-9.e+]*, [0-9.]*x)" "$tmp/auto.txt" &&
     grep -q "\"why\": \"auto: the warm-up search ran" "$tmp/auto.json" &&
     grep -q "\"side_by_side\": \"auto\"" "$tmp/auto.json"'
check "grid, off: every search split over the devices, the same levels per root" \
    'run off "$tmp/grid.mtx" --side-by-side off && ! grep -q "\"side_by_side\": {" "$tmp/off.json" &&
     ! grep -q "\"device\":" "$tmp/off.json" && levels_of auto && levels_of off && same auto off'
check "grid, one root: auto stays split (nothing to run side by side)" \
    '"$BOXBFS" bfs "$tmp/grid.mtx" --backend "$backend" --devices "$ndev" --roots 1 --json "$tmp/one.json" \
        >/dev/null 2>&1 && ! grep -q "\"side_by_side\": {" "$tmp/one.json"'
check "kron:12, auto: split (few levels)" \
    'run k12 kron:12 && ! grep -q "\"side_by_side\": {" "$tmp/k12.json"'
check "kron:12, on: side by side, the same levels per root as split" \
    'run k12on kron:12 --side-by-side on && side "$tmp/k12on.json" &&
     grep -q "\"why\": \"--side-by-side on\"" "$tmp/k12on.json" &&
     levels_of k12 && levels_of k12on && same k12 k12on'

# --devices auto (the default on GPUs): a graph below the crossover splits
# over no device more (one device, the report says why), yet its roots side
# by side take every device
auto_dev() {   # NAME GRAPH OPTIONS...: --devices auto, validated, into $tmp/NAME.*
    name=$1 graph=$2
    shift 2
    "$BOXBFS" bfs "$graph" --backend "$backend" --devices auto --roots 6 "$@" \
        --json "$tmp/$name.json" >"$tmp/$name.txt" 2>"$tmp/$name.err" &&
        grep -q '"validation": "passed"' "$tmp/$name.json"
}
check "--devices auto, kron:12: one device, the report and JSON say why" \
    'auto_dev ak12 kron:12 && grep -q "^# backend: $backend  devices: 1 " "$tmp/ak12.txt" &&
     grep -q "^# devices auto: [0-9]* arcs: 1 of $alln devices (a device pays from 134217728 arcs" \
        "$tmp/ak12.txt" && grep -q "\"devices_auto\": \"auto: " "$tmp/ak12.json"'
check "--devices auto, BOXBFS_DEVICES_MIN_ARCS=1000, kron:12: all $alln devices" \
    'BOXBFS_DEVICES_MIN_ARCS=1000 auto_dev ak12all kron:12 &&
     grep -q "^# devices auto: [0-9]* arcs: all $alln of $alln devices" "$tmp/ak12all.txt" &&
     grep -q "\"device_count\": $alln" "$tmp/ak12all.json"'
check "--devices auto, the grid: one device for a split search, side by side on all $alln" \
    'auto_dev agrid "$tmp/grid.mtx" && side "$tmp/agrid.json" $alln &&
     grep -q "^# devices auto: .*1 of $alln devices.*; roots side by side take all $alln" "$tmp/agrid.txt"'
check "--devices auto, the grid, --side-by-side off: one device" \
    'auto_dev agridoff "$tmp/grid.mtx" --side-by-side off && grep -q "\"device_count\": 1" "$tmp/agridoff.json"'
check "--devices frobnicate: a usage error naming auto" \
    '! "$BOXBFS" bfs kron:8 --backend "$backend" --devices frobnicate 2>"$tmp/d.err" &&
     grep -q "neither auto nor a count" "$tmp/d.err"'

# OPTIONS... MESSAGE: --side-by-side on refused with exit 1 and MESSAGE, no JSON
refused() {
    msg=$1
    shift
    rm -f "$tmp/no.json"
    "$BOXBFS" bfs kron:10 --backend "$backend" --roots 2 --side-by-side on "$@" \
        --json "$tmp/no.json" >/dev/null 2>"$tmp/no.err"
    [ $? -eq 1 ] && grep -q -- "$msg" "$tmp/no.err" && [ ! -e "$tmp/no.json" ]
}
check "on with one device: refused" 'refused "needs several devices" --devices 1'
check "on with --partition 2d: refused" \
    'refused "partition 2d splits every search" --devices 2 --partition 2d'
if [ "$backend" = cuda ]; then
    check "on with a GPU named twice: refused" \
        'refused "names a GPU twice" --devices 2 --device-ids 0,0'
fi
check "--side-by-side maybe: a usage error" \
    '! "$BOXBFS" bfs kron:8 --backend "$backend" --side-by-side maybe 2>"$tmp/u.err" &&
     grep -q "unknown value .maybe." "$tmp/u.err"'
exit $fail
