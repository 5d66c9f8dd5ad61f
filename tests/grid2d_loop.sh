#!/bin/sh
# The 2D device loop of small top-down levels (docs/architecture.md, "2D
# partition"), on the cpu backend: on the grids 2x2, 2x3 and 4x4, top-down
# and auto, on kron graphs (--wire list and auto) and on the real graphs of ../shared/datasets (one
# reference root each; skipped where the folder is absent), a search with
# the loop (td* rows, "device_loop" in the JSON's levels) and one with every
# level from the host (--device-loop 0) must both validate and book the same:
# every level's row (direction, frontier, arcs, sent vertices, bytes,
# messages, bitmaps, modeled time, its links and each device's part), the
# phases' bytes and messages, the link matrix, every root's levels, reach
# and bytes; the trees' --output (levels and parents) must be identical, and
# on the real graphs the levels those of BFS_REFERENCE.tsv. The loop must run
# (levels in the loop with it, none without), stop and start again around
# host levels (--device-loop 64), and stay off where its lists could not go
# by peer memory (--wire bitmap, --exchange host, host staging). A device
# failing in a level the loop runs (BOXBFS_FAULT=level:L) ends the run with
# exit 3 and a message naming the fault and the device, without a hang.
# BACKEND=cuda (tests/gpu_grid2d_loop.sh; skipped without a GPU) runs fewer
# cases on the GPU's loop (kernels/cuda/grid2d_levels.cu): logical devices
# of GPU 0 (--device-ids 0,0,0,0 for 2x2, six for 2x3) and, with two GPUs,
# 0,0,1,1; each case against the cuda loop off and the cpu loop on: the
# same books, the loop on the same levels as the cpu's, the same levels per
# vertex (parents may differ: a vertex two sources reach within a device
# goes to the first atomic claim, as in grid2d.cu's host-driven expand).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v timeout >/dev/null 2>&1 || { echo "timeout not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
B="$BOXBFS"
backend=${BACKEND:-cpu}
[ "$backend" = cpu ] || need_gpu
grid_mtx 40 "$tmp/grid.mtx"   # about 80 small levels from a corner

# devs_of GRID: its devices on $backend: --devices R*C on the cpu backend;
# on cuda --device-ids $ids where set, else R*C logical devices of GPU 0
devs_of() {
    n=$(( ${1%x*} * ${1#*x} ))
    if [ "$backend" = cpu ]; then echo "--devices $n"
    elif [ -n "${ids:-}" ]; then echo "--device-ids $ids"
    else echo "--device-ids $(awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%s0", (i ? "," : "") }')"
    fi
}

# same_books NAME GRAPH GRID DIRECTION OPTIONS...: the loop on and off, compared
# (on cuda also against the cpu backend's loop on: ref)
same_books() {
    name=$1 graph=$2 grid=$3 dir=$4
    shift 4
    runs="on off"
    [ "$backend" = cpu ] || runs="on off ref"
    for dl in $runs; do
        loop=""; [ $dl = off ] && loop="--device-loop 0"
        be=$backend devs=$(devs_of "$grid")
        [ $dl = ref ] && be=cpu devs="--devices $(( ${grid%x*} * ${grid#*x} ))"
        # shellcheck disable=SC2086 # the options: words on purpose
        timeout 300 "$B" bfs "$graph" --backend $be --partition 2d --grid "$grid" $devs \
            --direction "$dir" "$@" $loop --json "$tmp/$dl.json" --output "$tmp/$dl.out" \
            >"$tmp/$dl.txt" 2>"$tmp/err" || { echo "--- $name, loop $dl:"; cat "$tmp/err"; return 1; }
    done
    if [ "$backend" = cpu ]; then
        cmp -s "$tmp/on.out" "$tmp/off.out" || { echo "--- $name: the trees differ"; return 1; }
    else   # the levels per vertex (the parents validated)
        for dl in $runs; do cut -d' ' -f1,2 "$tmp/$dl.out" >"$tmp/$dl.lv"; done
        [ -s "$tmp/on.lv" ] && cmp -s "$tmp/on.lv" "$tmp/off.lv" && cmp -s "$tmp/on.lv" "$tmp/ref.lv" ||
            { echo "--- $name: the levels differ"; return 1; }
    fi
    # shellcheck disable=SC2046 # the files: words on purpose
    python3 - $(for dl in $runs; do echo "$tmp/$dl.json"; done) <<'PY'
import json, sys
on, off = (json.load(open(p)) for p in sys.argv[1:3])
TIMES = {"time_s", "expand_s", "contract_s", "exchange_s", "update_s", "overhead_s",
         "median_time_s", "median_overhead_s", "levels_s", "outside_levels_s", "device_span_s",
         "teps", "teps_arc"}
def books(x):   # everything but the times and the loop's flag
    if isinstance(x, dict):
        return {k: books(v) for k, v in x.items() if k not in TIMES and k != "device_loop"}
    if isinstance(x, list):
        return [books(v) for v in x]
    return x
assert on["validation"] == off["validation"] == "passed", (on["validation"], off["validation"])
assert on["options"]["partition"] == "2d"
a, b = books(on["traffic"]), books(off["traffic"])
assert a.keys() == b.keys()
for k in a:
    assert a[k] == b[k], (k, a[k], b[k])
assert books(on["runs"]) == books(off["runs"]), (on["runs"], off["runs"])
assert any(l["direction"] == "top-down" for l in on["traffic"]["levels"])
looped = sum(l["device_loop"] for l in on["traffic"]["levels"])
assert looped > 0, "no level ran in the loop"
assert not any(l["device_loop"] for l in off["traffic"]["levels"]), "--device-loop 0 looped"
for p in sys.argv[3:]:   # the cpu backend's loop: the same books, the loop on the same levels
    ref = json.load(open(p))
    assert ref["validation"] == "passed", ref["validation"]
    r = books(ref["traffic"])
    for k in a:
        assert a[k] == r[k], (k, a[k], r[k])
    assert books(on["runs"]) == books(ref["runs"]), (on["runs"], ref["runs"])
    flags = [[l["device_loop"] for l in x["traffic"]["levels"]] for x in (on, ref)]
    assert flags[0] == flags[1], flags
PY
}

# fault LEVEL DEVICE GRID: a device failing as it starts a level the loop
# runs: exit 3, named, no output, no hang (DEVICE "any": every device, as
# logical devices of one GPU share its ordinal)
fault() {
    spec="level:$1:dev $2" who=$2
    [ "$2" = any ] && spec="level:$1" who='[0-9]*'
    # shellcheck disable=SC2046 # the devices: words on purpose
    BOXBFS_FAULT="$spec" timeout 60 "$B" bfs "$tmp/grid.mtx" --backend "$backend" \
        --partition 2d --grid "$3" $(devs_of "$3") --roots 2 \
        --output "$tmp/f.out" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 3 ] || { echo "exit $rc"; cat "$tmp/err"; return 1; }
    grep -q "injected fault (BOXBFS_FAULT=level:$1): device $who failed as it started level $1 of the 2D device loop" "$tmp/err" ||
        { cat "$tmp/err"; return 1; }
    [ ! -e "$tmp/f.out" ]
}

# a device late to the loop (BOXBFS_FAULT=wake:1: the first device to start
# its loop starts it a second after the others' first meeting timed out):
# exit 3, the meeting's timeout named, no output, no hang
late_loop() {
    # shellcheck disable=SC2046 # the devices: words on purpose
    BOXBFS_FAULT=wake:1 timeout 40 "$B" bfs "$tmp/grid.mtx" --backend "$backend" \
        --partition 2d --grid 2x2 $(devs_of 2x2) --roots 1 --output "$tmp/f.out" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 3 ] || { echo "exit $rc"; cat "$tmp/err"; return 1; }
    grep -q "2D device loop: device [0-9]* waited 10 s in a meeting for another device and gave up" \
        "$tmp/err" || { cat "$tmp/err"; return 1; }
    [ ! -e "$tmp/f.out" ]
}

# --device-loop 64: the loop stops where a frontier outgrows 64 arcs, the
# host runs those levels, the loop starts again where they shrink
restarts() {
    same_books "kron:12 2x2 loop of 64 arcs" kron:12 2x2 top-down --roots 2 --device-loop 64 ||
        return 1
    python3 - "$tmp/on.json" <<'PY'
import json, sys
flags = [l["device_loop"] for l in json.load(open(sys.argv[1]))["traffic"]["levels"]]
starts = sum(1 for i, f in enumerate(flags) if f and (i == 0 or not flags[i - 1]))
assert starts >= 2 and not all(flags), flags
PY
}

if [ "$backend" != cpu ]; then   # the GPU's loop: a few cases, one run at a time
    sets="-"   # logical devices of GPU 0 (devs_of)
    [ "$(visible_gpus)" -ge 2 ] && sets="- 0,0,1,1"
    for set in $sets; do
        ids=""; [ "$set" = - ] || ids=$set
        on="GPU 0"; [ -n "$ids" ] && on="--device-ids $ids"
        for dir in top-down auto; do
            check "kron:12 2x2 $dir --wire list, $on: the same books and levels as the cpu loop" \
                  "same_books 'kron:12 2x2 $dir' kron:12 2x2 $dir --roots 3 --wire list"
        done
        check "kron:12 2x2 auto --wire auto, $on: the same books and levels" \
              "same_books 'kron:12 2x2 auto wire auto' kron:12 2x2 auto --roots 3 --wire auto"
        check "grid graph 2x2 auto --max-depth 30, $on: the same books and levels" \
              "same_books 'grid 2x2 depth' '$tmp/grid.mtx' 2x2 auto --roots 2 --max-depth 30"
        [ -n "$ids" ] && continue   # 0,0,1,1 holds four devices: 2x2 only
        check "kron:12 2x3 top-down, every level in the loop: the same books and levels" \
              "same_books 'kron:12 2x3 all' kron:12 2x3 top-down --roots 2 --wire list --device-loop 100000000"
        export BOXBFS_PREFIX_SKIP=0   # the expand without the visited-prefix skip
        check "kron:12 2x3 top-down, every level in the loop, no prefix skip: the same books" \
              "same_books 'kron:12 2x3 all, no skip' kron:12 2x3 top-down --roots 2 --wire list --device-loop 100000000"
        unset BOXBFS_PREFIX_SKIP
        check "grid graph 2x3 top-down --wire list: the same books and levels" \
              "same_books 'grid 2x3' '$tmp/grid.mtx' 2x3 top-down --roots 2 --wire list"
        check "--device-loop 64: host levels between loop levels, the same books" restarts
        check "BOXBFS_FAULT=level:5, 2x2: exit 3, a device named, no output" "fault 5 any 2x2"
        check "BOXBFS_FAULT=level:0, 2x3: exit 3, a device named, no output" "fault 0 any 2x3"
        check "BOXBFS_FAULT=level:3, 1x1 (no peers): exit 3, device 0 named, no output" \
              "fault 3 any 1x1"
    done
    exit $fail
fi

for grid in 2x2 2x3 4x4; do
    for dir in top-down auto; do
        for wire in list auto; do   # auto: the loop stops where a part would go as a bitmap
            check "kron:12 $grid $dir --wire $wire: the same books and trees with the loop and without" \
                  "same_books 'kron:12 $grid $dir $wire' kron:12 $grid $dir --roots 3 --wire $wire"
        done
    done
done
for grid in 2x3 4x4; do   # every level in the loop: vertices found twice, parents by grid order
    check "kron:12 $grid top-down, every level in the loop: the same books and trees" \
          "same_books 'kron:12 $grid all' kron:12 $grid top-down --roots 2 --wire list --device-loop 100000000"
done
check "grid graph 2x3 top-down, --wire list: the same books" \
      "same_books 'grid 2x3' '$tmp/grid.mtx' 2x3 top-down --roots 2 --wire list"
check "grid graph 4x4 auto, --max-depth 30: the same books" \
      "same_books 'grid 4x4 depth' '$tmp/grid.mtx' 4x4 auto --roots 2 --max-depth 30"

check "--device-loop 64: host levels between loop levels, the same books" restarts

# the real graphs: their reference roots, levels as BFS_REFERENCE.tsv counts them
ref="${SHARED_DATASETS:-}/BFS_REFERENCE.tsv"
if [ -f "$ref" ]; then
    grep -v '^#' "$ref" | grep -v '^USA-road' | awk -F '\t' '!seen[$1 $2]++' >"$tmp/ref"
    while IFS="$(printf '\t')" read -r file kind source reached depth sum counts; do
        flag="--undirected"; [ "$kind" = directed ] && flag="--directed"
        for grid in 2x2 2x3 4x4; do
            for dir in top-down auto; do
                name="$file $kind root $source $grid $dir"
                check "$name: the same books with the loop and without" \
                      "same_books '$name' '$SHARED_DATASETS/$file' $grid $dir $flag --root $source"
                got=$(awk '$2 >= 0 { n++; s += $2; if ($2 > d) d = $2; c[$2]++ }
                     END { printf "%d %d %d ", n, d, s; for (i = 0; i <= d; i++) printf "%s%d", (i ? "," : ""), c[i] }' \
                     "$tmp/on.out")
                check "$name: the levels of BFS_REFERENCE.tsv" \
                      "[ '$got' = '$reached $depth $sum $counts' ]"
            done
        done
    done <"$tmp/ref"
else
    echo "skip the real graphs: no $ref"
fi

# the loop stays off where its lists cannot go by peer memory
no_loop() {   # OPTIONS...: validated, no level in the loop
    "$B" bfs "$tmp/grid.mtx" --backend cpu --partition 2d --grid 2x2 --roots 2 "$@" \
        >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    grep -q '^validation: PASS' "$tmp/out" && ! grep -q '^ *[0-9][0-9]*  *td\*' "$tmp/out"
}
check "--wire bitmap: no level in the loop" "no_loop --wire bitmap"
check "--exchange host: no level in the loop" "no_loop --exchange host"
check "BOXBFS_DISABLE_PEER=1 (host staging): no level in the loop" \
      "BOXBFS_DISABLE_PEER=1 no_loop"
check "--device-loop 0: no level in the loop" "no_loop --device-loop 0"
"$B" bfs "$tmp/grid.mtx" --backend cpu --partition 2d --grid 2x2 --roots 1 >"$tmp/out" 2>&1
check "the text table marks the loop's levels td*" "grep -q '^ *[0-9][0-9]*  *td\*' '$tmp/out'"

# a device failing as it starts a level the loop runs: exit 3, named, no hang (fault above)
check "BOXBFS_FAULT=level:5:dev 1, 2x2: exit 3, device 1 named, no output" "fault 5 1 2x2"
check "BOXBFS_FAULT=level:0:dev 5, 2x3: exit 3, device 5 named, no output" "fault 0 5 2x3"
check "BOXBFS_FAULT=level:40:dev 15, 4x4: exit 3, device 15 named, no output" "fault 40 15 4x4"
check "BOXBFS_FAULT=level:3:dev 0, 1x1 (no peers): exit 3, device 0 named, no output" \
      "fault 3 0 1x1"
check "BOXBFS_FAULT=wake:1, 2x2: a device late to the loop, the others time out, exit 3" \
      "late_loop"
exit $fail
