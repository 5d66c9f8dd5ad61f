#!/bin/sh
# Several logical devices on one GPU (docs/cli.md, "--device-ids"): with
# `--device-ids 0,0` (or 0,0,0 / 0,0,0,0) the cuda backend runs the
# multi-device engine on GPU 0 alone, its peer copies becoming copies within
# the GPU. Every code path of several devices (the exchange and its books,
# bitmaps on the wire, bottom-up levels with the frontier bitmap all-gathered,
# the parent gather, 2D grids) then runs on a GPU where only one exists: each
# run must validate and count the same traffic and give the same level of
# every vertex as the cpu backend with as many emulated devices. Timings of
# such runs mean nothing (one GPU does all the work). Skips (77) without a GPU
# or without the cuda backend. Also: --throttle paces the peer copies to the
# link model, and --order topology runs.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
need_gpu
same_traffic="$(dirname "$0")/same_traffic.py"

# NAME IDS GRAPH OPTIONS...: cuda on logical devices IDS against cpu with as many
same_as_cpu() {
    name=$1 ids=$2 graph=$3
    shift 3
    n=$(echo "$ids" | awk -F, '{print NF}')
    xc=peer prev=
    for a in "$@"; do [ "$prev" = --exchange ] && xc=$a; prev=$a; done
    "$BOXBFS" bfs "$graph" --roots 4 --backend cpu --devices "$n" "$@" \
        --json "$tmp/c.json" --output "$tmp/c.out" >/dev/null 2>"$tmp/ce"
    crc=$?
    "$BOXBFS" bfs "$graph" --roots 4 --backend cuda --device-ids "$ids" "$@" \
        --json "$tmp/g.json" --output "$tmp/g.out" >/dev/null 2>"$tmp/ge"
    grc=$?
    check "$name: exit 0 (cpu $crc, cuda $grc)" "[ $crc -eq 0 ] && [ $grc -eq 0 ]"
    if [ $crc -ne 0 ] || [ $grc -ne 0 ]; then sed 's/^/    /' "$tmp/ce" "$tmp/ge"; return; fi
    check "$name: same traffic as cpu" "python3 '$same_traffic' '$tmp/c.json' '$tmp/g.json' $xc"
    check "$name: same levels as cpu" \
        "cut -d' ' -f1,2 '$tmp/c.out' >'$tmp/c.l'; cut -d' ' -f1,2 '$tmp/g.out' >'$tmp/g.l'; cmp -s '$tmp/c.l' '$tmp/g.l'"
}

# 1D, two logical devices: every contraction and direction
for c in valid-flag atomic sort-unique; do
    for dir in top-down bottom-up auto; do
        same_as_cpu "1d 0,0 $c $dir" 0,0 kron:14 --contract $c --direction $dir
    done
done
# the wire's forms, host staging, bit visited, three devices, a directed graph
same_as_cpu "1d 0,0 atomic auto wire list" 0,0 kron:14 --contract atomic --wire list
same_as_cpu "1d 0,0 atomic auto wire bitmap" 0,0 kron:14 --contract atomic --wire bitmap
same_as_cpu "1d 0,0 valid-flag top-down host" 0,0 kron:14 --contract valid-flag \
    --direction top-down --exchange host
same_as_cpu "1d 0,0 atomic auto visited bit" 0,0 kron:14 --contract atomic --visited bit
same_as_cpu "1d 0,0,0 atomic auto" 0,0,0 kron:14 --contract atomic
check "1d 0,0,0 atomic auto: with the visited-prefix skip on every device" \
    "grep -q '\"prefix_skip\": true' '$tmp/g.json' && grep -q '\"prefix_skip\": true' '$tmp/c.json'"
same_as_cpu "1d 0,0,0 valid-flag bottom-up" 0,0,0 kron:14 --contract valid-flag --direction bottom-up
same_as_cpu "1d 0,0 atomic auto directed" 0,0 kron:13 --directed --contract atomic
same_as_cpu "1d 0,0,0,0 valid-flag auto directed" 0,0,0,0 kron:13 --directed --contract valid-flag

# 2D grids on logical devices
for grid in 1x2 2x1; do
    for wire in list auto; do
        same_as_cpu "2d $grid $wire" 0,0 kron:14 --partition 2d --grid $grid --wire $wire
    done
done
same_as_cpu "2d 2x2 auto" 0,0,0,0 kron:14 --partition 2d --grid 2x2 --wire auto

# --throttle paces the cuda backend's peer copies to the link model (tests/paced.py);
# up to 3 tries, as tests/throttle.sh: a loaded machine may oversleep
t="kron:10 --root 1 --backend cuda --device-ids 0,0 --link-model 10MB/s,2ms --no-validate"
"$BOXBFS" bfs $t --json "$tmp/u.json" >/dev/null 2>&1
for try in 1 2 3; do
    "$BOXBFS" bfs $t --throttle --json "$tmp/t.json" >/dev/null 2>&1
    python3 "$(dirname "$0")/paced.py" "$tmp/t.json" "$tmp/u.json" >"$tmp/paced" 2>&1
    prc=$?
    [ $prc -eq 2 ] || break
done
cat "$tmp/paced"
check "0,0 --throttle: peer copies paced to the model" "[ $prc -eq 0 ]"
same_as_cpu "1d 0,0,0 --order topology, expether-2x10g" 0,0,0 kron:12 --contract atomic \
    --order topology --link-model expether-2x10g

# the device loop across devices: a road network's shape (a 64 x 64 grid: ~120
# levels, all in the loop) on 2 and 4 logical devices, and --device-loop 0
grid_mtx 64 "$tmp/grid.mtx"
same_as_cpu "1d 0,0 grid, device loop" 0,0 "$tmp/grid.mtx"
# (host-driven levels: four devices' searches at once on one GPU time out,
# their persistent kernels waiting for each other; docs/performance.md)
same_as_cpu "1d 0,0,0,0 grid atomic bit, device loop" 0,0,0,0 "$tmp/grid.mtx" --contract atomic \
    --visited bit --search-on host
same_as_cpu "1d 0,0 grid, --device-loop 0" 0,0 "$tmp/grid.mtx" --device-loop 0
# one device's loop launch fails (host-driven levels; launches 1-2: the
# resets; 3-4: the loops): the other device's kernel gives up waiting for it
# (10 s), exit 3, named (the device search's faults: device_search.sh)
BOXBFS_FAULT=launch:3 timeout 60 "$BOXBFS" bfs "$tmp/grid.mtx" --backend cuda --device-ids 0,0 \
    --search-on host --roots 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "0,0 grid, a loop launch fails: exit 3, the fault named" \
      "[ $rc -eq 3 ] && grep -q 'injected fault (BOXBFS_FAULT=launch:3).*small_levels' '$tmp/err'"
exit $fail
