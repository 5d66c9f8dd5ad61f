#!/bin/sh
# Graphs built on the devices (bfs --build-on devices, docs/architecture.md
# "Graphs built on the devices"): each device makes its own rows of a
# Kronecker graph. The graph must be the host generator's: the same arcs,
# roots and input edges, every tree validated (the validation reads the
# devices' rows back), and the same level for every vertex as the graph built
# on the host with --relabel none, on one device and several, with other
# generator parameters, the 64-bit kernels, host-driven levels and another
# contraction. Bad combinations are refused naming the option; a device that
# fails while building ends with exit 3. BACKEND=cuda
# (tests/gpu_build_on_devices.sh) builds on a GPU (logical devices of GPU 0,
# and two GPUs where there are).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
backend=${BACKEND:-cpu}
[ "$backend" = cpu ] || need_gpu

# I DEVICES GRAPH OPTIONS...: case I's two runs in the background, the graph
# built on the host (--relabel none), then on the devices
pair_start() {
    i=$1 devs=$2 graph=$3
    shift 3
    pair_runs "$i" "$devs" "$graph" host "--relabel none" dev "--build-on devices" "$@"
}
pair_check() {   # I NAME
    i=$1 name=$2
    rc=$(cat "$tmp/$i.rc" 2>/dev/null)
    [ "$rc" = 0 ] || cat "$tmp/$i.err"
    cut -d' ' -f1,2 "$tmp/$i.host.out" >"$tmp/$i.host.lv" 2>/dev/null
    cut -d' ' -f1,2 "$tmp/$i.dev.out" >"$tmp/$i.dev.lv" 2>/dev/null
    check "$name: exit 0, validated, built on the devices" \
          "[ '$rc' = 0 ] && grep -q '^validation: PASS' '$tmp/$i.dev.txt' &&
           grep -q 'built on the devices' '$tmp/$i.dev.txt'"
    check "$name: every vertex's level as on the graph built on the host" \
          "[ -s '$tmp/$i.dev.lv' ] && cmp -s '$tmp/$i.host.lv' '$tmp/$i.dev.lv'"
    check "$name: the same arcs, roots, input edges and tree sizes, the checks timed" \
          "python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a[\"graph\"][\"arcs\"] == b[\"graph\"][\"arcs\"], (a[\"graph\"], b[\"graph\"])
assert a[\"built_on\"] == \"host\" and b[\"built_on\"] == \"devices\" and b[\"build_s\"] > 0
assert a[\"check_s\"] > 0 and b[\"check_s\"] > 0, (a[\"check_s\"], b[\"check_s\"])
key = lambda r: (r[\"root\"], r[\"input_edges\"], r[\"reached\"], r[\"levels\"])
assert [key(r) for r in a[\"runs\"]] == [key(r) for r in b[\"runs\"]], (a[\"runs\"], b[\"runs\"])
' '$tmp/$i.host.json' '$tmp/$i.dev.json'"
}
multi=$(device_sets "$backend")
IFS='|'
for devs in $multi; do
    unset IFS
    pair "kron:14 $devs" "$devs" kron:14
    pair "kron:12:8:7 $devs" "$devs" kron:12:8:7
    pair "kron:13 $devs, 64-bit arcs" "$devs" kron:13 --arcs64-from 1000
    pair "kron:13 $devs, host-driven levels" "$devs" kron:13 --search-on host
    pair "kron:13 $devs, valid-flag" "$devs" kron:13 --contract valid-flag --visited byte
    cases_check pair_check
    IFS='|'
done
unset IFS

# what a graph built on the devices cannot be, each refused naming --build-on
grid_mtx 4 "$tmp/grid.mtx"
for bad in "$tmp/grid.mtx" "kron:10 --directed" "kron:10 --relabel degree" \
           "kron:10 --partition 2d --devices 2" "kron:10 --side-by-side on" \
           "kron:10 --sigma $tmp/s.txt"; do
    # shellcheck disable=SC2086
    "$BOXBFS" bfs $bad --backend "$backend" --build-on devices --roots 1 >"$tmp/bad.txt" 2>&1
    rc=$?
    check "--build-on devices with $(echo "$bad" | sed "s|$tmp/||g"): exit 1, --build-on named" \
          "[ $rc -eq 1 ] && grep -q -e '--build-on devices: the graph must be' '$tmp/bad.txt'"
done
"$BOXBFS" bfs kron:10 --backend "$backend" --build-on everywhere >"$tmp/bad.txt" 2>&1
rc=$?
check "--build-on everywhere: exit 1, the option named" \
      "[ $rc -eq 1 ] && grep -q -e '--build-on' '$tmp/bad.txt'"

# a device that cannot hold its rows: exit 3, no tree, the allocation named
BOXBFS_FAULT=alloc:2 "$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --build-on devices \
    --roots 1 --json "$tmp/f.json" >"$tmp/f.txt" 2>&1
rc=$?
check "an allocation that fails while building: exit 3, named, no JSON" \
      "[ $rc -eq 3 ] && grep -q 'injected fault (BOXBFS_FAULT=alloc:2)' '$tmp/f.txt' &&
       [ ! -e '$tmp/f.json' ]"

# a device too small for its rows: refused before they are built (kron:27 would take the cpu
# backend 34 GB of host memory for its edges, and minutes), with the plan's message and the
# device count to try
timeout 120 "$BOXBFS" bfs kron:27 --backend "$backend" --devices 1 --build-on devices \
    --memory-limit 8000000000 --roots 1 >"$tmp/m.txt" 2>&1
rc=$?
check "kron:27 on one device of 8 GB: exit 3 before building, the shortfall and --devices N named" \
      "[ $rc -eq 3 ] && grep -q 'device 0 .* needs .* under --memory-limit (short by' '$tmp/m.txt' &&
       grep -q 'try --devices [0-9]* or more' '$tmp/m.txt' && ! grep -q 'edge' '$tmp/m.txt'"

# benchmarks/bench-build's dry run on the cpu backend: each point validated,
# its build time said
if [ "$backend" = cpu ]; then
    BACKEND=cpu SCALES=10 DEVICES="1 2" POINTS="" OUT="$tmp/bb" \
        sh "$(dirname "$0")/../benchmarks/bench-build" "$tmp/bb" >"$tmp/bb.txt" 2>&1
    rc=$?
    check "bench-build on the cpu backend: two points validated, each one's build time said" \
          "[ $rc -eq 0 ] && [ \$(grep -c 'validation passed' '$tmp/bb/summary.txt') -eq 2 ] &&
           [ \$(grep -c 'built on the devices in' '$tmp/bb/summary.txt') -eq 2 ] &&
           grep -q -e '--build-on devices' '$tmp/bb/summary.md'"
fi
exit $fail
