#!/bin/sh
# 64-bit arc indices (docs/architecture.md, "Arcs per device"): a device of
# at least --arcs64-from arcs (2^32 by default) scans its frontier's degrees
# into 64-bit sums and balances its expand by binary search. Lowered to 1000,
# every device of kron:14 and of a grid takes that path: each run must give
# the levels, the level rows and the traffic of the 32-bit kernels, with
# every tree validated, on one device and several, with every contraction,
# the device search and the host-driven levels, every K, and a merge path
# asked for (a 64-bit device runs binsearch instead). The report says which
# devices index with 64 bits, and their scans take 8 bytes an entry.
# BACKEND=cuda (tests/gpu_arcs64.sh) runs the 64-bit kernels on a GPU
# (several devices: logical devices of GPU 0, and two GPUs where there are).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
backend=${BACKEND:-cpu}
[ "$backend" = cpu ] || need_gpu
grid_mtx 40 "$tmp/grid.mtx"
same_traffic="$(dirname "$0")/same_traffic.py"

rows() { awk '/^# level  dir/ { f = 1; next } /^#/ { f = 0 } f { print $1, $2, $3, $4 }' "$1"; }

# I DEVICES GRAPH OPTIONS...: case I's two runs in the background, 32-bit
# kernels (the default threshold) then 64-bit ones (--arcs64-from 1000)
pair_start() {
    i=$1 devs=$2 graph=$3
    shift 3
    pair_runs "$i" "$devs" "$graph" 32 "" 64 "--arcs64-from 1000" "$@"
}
pair_check() {   # I NAME
    i=$1 name=$2
    rc=$(cat "$tmp/$i.rc" 2>/dev/null)
    [ "$rc" = 0 ] || cat "$tmp/$i.err"
    for w in 32 64; do
        rows "$tmp/$i.$w.txt" | tr -d '*' >"$tmp/$i.$w.rows"
        cut -d' ' -f1,2 "$tmp/$i.$w.out" >"$tmp/$i.$w.lv" 2>/dev/null
    done
    check "$name: exit 0, validated, 64-bit arcs on every device" \
          "[ '$rc' = 0 ] && grep -q '^validation: PASS' '$tmp/$i.64.txt' &&
           ! grep '^#   device' '$tmp/$i.64.txt' | grep -v -q 'arcs: 64-bit' &&
           ! grep -q 'arcs: 64-bit' '$tmp/$i.32.txt'"
    check "$name: level rows and levels of the 32-bit kernels" \
          "[ -s '$tmp/$i.64.rows' ] && cmp -s '$tmp/$i.32.rows' '$tmp/$i.64.rows' &&
           [ -s '$tmp/$i.64.lv' ] && cmp -s '$tmp/$i.32.lv' '$tmp/$i.64.lv'"
    check "$name: the same traffic, scans of 8 bytes an entry" \
          "python3 '$same_traffic' '$tmp/$i.32.json' '$tmp/$i.64.json' peer &&
           python3 -c 'import json, sys
a, b = (json.load(open(f))[\"devices\"] for f in sys.argv[1:])
assert [d[\"arc_bits\"] for d in a] == [32] * len(a), a
assert [d[\"arc_bits\"] for d in b] == [64] * len(b), b
assert all(y[\"arrays\"][\"scan\"] == 2 * x[\"arrays\"][\"scan\"] for x, y in zip(a, b))
' '$tmp/$i.32.json' '$tmp/$i.64.json'"
}
multi=$(device_sets "$backend")
IFS='|'
for devs in $multi; do
    unset IFS
    for g in kron:14 "$tmp/grid.mtx"; do
        n=$(basename "$g")
        pair "$n $devs defaults" "$devs" "$g"
        pair "$n $devs top-down" "$devs" "$g" --direction top-down --relabel degree
        pair "$n $devs host-driven levels" "$devs" "$g" --search-on host
        pair "$n $devs valid-flag" "$devs" "$g" --contract valid-flag --visited byte
        pair "$n $devs sort-unique, no device loop" "$devs" "$g" --contract sort-unique \
            --device-loop 0
        pair "$n $devs merge path asked, K 16" "$devs" "$g" --expand mergepath --expand-k 16 \
            --direction top-down
        pair "$n $devs auto expand, K 1" "$devs" "$g" --expand auto --expand-k 1
    done
    pair "kron:12 directed $devs" "$devs" kron:12 --directed --direction top-down
    cases_check pair_check
    IFS='|'
done
unset IFS

# the threshold per device: at the largest device's arcs only that device
# (and any of the same size) takes 64 bits, the others keep 32
devs="--devices 3"
[ "$backend" = cuda ] && devs="--device-ids 0,0,0"
# shellcheck disable=SC2086
"$BOXBFS" bfs kron:14 --backend "$backend" $devs --roots 1 --json "$tmp/m32.json" >/dev/null 2>&1
most=$(python3 -c 'import json, sys
print(max(d["arrays"]["columns"] // 4 for d in json.load(open(sys.argv[1]))["devices"]))' \
       "$tmp/m32.json" 2>/dev/null)
# shellcheck disable=SC2086
"$BOXBFS" bfs kron:14 --backend "$backend" $devs --roots 2 --arcs64-from "${most:-0}" \
    --json "$tmp/mix.json" >"$tmp/mix.txt" 2>&1
check "--arcs64-from the largest device's arcs: that device 64-bit, the smaller 32, validated" \
      "grep -q '^validation: PASS' '$tmp/mix.txt' && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
b = [(x[\"arrays\"][\"columns\"] // 4, x[\"arc_bits\"]) for x in d[\"devices\"]]
assert d[\"options\"][\"arcs64_from\"] == int(sys.argv[2]), d[\"options\"]
assert all(w == (64 if a >= int(sys.argv[2]) else 32) for a, w in b), b
assert {w for a, w in b} == {32, 64}, b' '$tmp/mix.json' '$most'"

for bad in 0 4294967297 -5 lots; do
    "$BOXBFS" bfs kron:8 --backend "$backend" --arcs64-from "$bad" >"$tmp/bad.txt" 2>&1
    rc=$?
    check "--arcs64-from $bad: exit 1, the option named" \
          "[ $rc -eq 1 ] && grep -q -e '--arcs64-from' '$tmp/bad.txt'"
done
exit $fail
