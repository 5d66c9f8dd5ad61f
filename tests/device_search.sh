#!/bin/sh
# The device search (docs/architecture.md "Where a search runs"): one device
# with the atomic method runs the whole search without the host. Its levels
# must be the levels the host drives: per vertex the same level, per level
# of the first root the same direction, device-loop mark and frontier,
# against --contract valid-flag on the cpu backend (host-driven levels, the
# same rules). Several devices run it at once and meet in each other's
# memory: the same rows and levels as the host-driven levels of the same
# options, the same traffic as the cpu backend books for the same run, and a
# device that fails mid-search ends the run within a second (exit 3, the
# device named, no JSON). BACKEND=cuda (tests/gpu_search.sh) runs it on a GPU
# (several devices: two GPUs where there are, and logical devices of GPU 0).
# The cases of one device set run at once, each in files of its own, and are
# checked in order.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
backend=${BACKEND:-cpu}
[ "$backend" = cpu ] || need_gpu
grid_mtx 40 "$tmp/grid.mtx"   # ~80 small levels: the device loop, then the tail

rows() { awk '/^# level  dir/ { f = 1; next } /^#/ { f = 0 } f { print $1, $2, $3 }' "$1"; }

# NAME GRAPH OPTIONS...
same() {
    name=$1 graph=$2
    shift 2
    "$BOXBFS" bfs "$graph" --backend cpu --devices 1 --roots 3 --contract valid-flag "$@" \
        --output "$tmp/host.out" >"$tmp/host.txt" 2>"$tmp/err" &&
        "$BOXBFS" bfs "$graph" --backend "$backend" --devices 1 --roots 3 --contract atomic "$@" \
            --output "$tmp/dev.out" >"$tmp/dev.txt" 2>>"$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] || cat "$tmp/err"
    rows "$tmp/host.txt" >"$tmp/host.rows"
    rows "$tmp/dev.txt" >"$tmp/dev.rows"
    check "$name: exit 0, validated" "[ $rc -eq 0 ] && grep -q '^validation: PASS' '$tmp/dev.txt'"
    check "$name: level rows as the host drives them" \
        "[ -s '$tmp/dev.rows' ] && cmp -s '$tmp/host.rows' '$tmp/dev.rows'"
    cut -d' ' -f1,2 "$tmp/host.out" >"$tmp/host.lv" 2>/dev/null
    cut -d' ' -f1,2 "$tmp/dev.out" >"$tmp/dev.lv" 2>/dev/null
    check "$name: levels per vertex" "[ -s '$tmp/dev.lv' ] && cmp -s '$tmp/host.lv' '$tmp/dev.lv'"
}

for g in kron:14 "$tmp/grid.mtx"; do
    n=$(basename "$g")
    same "$n auto" "$g"
    same "$n auto, bit visited" "$g" --visited bit
    same "$n top-down" "$g" --direction top-down
    same "$n bottom-up" "$g" --direction bottom-up --visited bit
    same "$n device loop 100 arcs" "$g" --device-loop 100
    same "$n depth 3" "$g" --max-depth 3
    same "$n merge path, K 16" "$g" --expand auto --expand-k 16
done
# cuda: --expand-k auto takes 2, 4 or 8 edges a thread by a level's arcs per
# thread of the grid; kron:20's top-down levels run all three on a GPU
[ "$backend" = cpu ] || same "kron:20 top-down, K 2, 4 and 8 (auto)" kron:20 --direction top-down
same "kron:12 directed, reversed" kron:12 --directed --reverse --visited bit
same "kron:14 by degree" kron:14 --relabel degree --visited bit
# a 300 x 300 grid's levels grow past 1024 arcs and shrink again: on a GPU
# the loop runs them on one block, then on its cluster, then on one block
# (kernels/cuda/small_levels.cu solo_fits)
grid_mtx 300 "$tmp/grid300.mtx"
same "grid 300: levels on one block and on the cluster" "$tmp/grid300.mtx"
# the loop's rows: short rows (up to four heads inline; kron:14's hubs are
# long ones) and, BOXBFS_SHORT_ROWS=0, the offsets and columns
export BOXBFS_SHORT_ROWS=0
same "grid 300 without short rows" "$tmp/grid300.mtx"
same "kron:14 top-down without short rows" kron:14 --direction top-down
unset BOXBFS_SHORT_ROWS
# cuda: the levels alone claim in a copy of the visited bits in shared
# memory (kernels/cuda/small_levels.cu solo_bits); with one byte a vertex
# they claim on the levels
same "grid 300, one byte a vertex visited" "$tmp/grid300.mtx" --visited byte
# the report says where the levels ran: every row of the device search is
# marked as such in the JSON (device_search), none of the host's
"$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --roots 1 --contract atomic --json - \
    >"$tmp/dev.json" 2>/dev/null
"$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --roots 1 --contract valid-flag --json - \
    >"$tmp/host.json" 2>/dev/null
check "JSON: device_search true with atomic" "grep -q '\"device_search\": true' '$tmp/dev.json'"
check "JSON: device_search false with valid-flag" "grep -q '\"device_search\": false' '$tmp/host.json'"
# every search's device span (its first step's start to its last's end on
# the device): within its time and around its levels; none host-driven
"$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --roots 3 --contract atomic --json - \
    >"$tmp/span.json" 2>/dev/null
check "JSON: device_span_s of every search between its levels' sum and its time" \
      "python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert all(0 < r[\"levels_s\"] <= r[\"device_span_s\"] + 1e-6 and
           r[\"device_span_s\"] <= r[\"time_s\"] + 1e-6 for r in d[\"runs\"]), d[\"runs\"]
assert d[\"device_span_s\"][\"max\"] > 0' '$tmp/span.json'"
check "JSON: device_span_s 0 where the host drives the levels" \
      "python3 -c 'import json, sys
assert all(r[\"device_span_s\"] == 0 for r in json.load(open(sys.argv[1]))[\"runs\"])' '$tmp/host.json'"
# cuda: between searches the device waits for the next one (kernels/cuda/
# search.cu, bb_search_bell): the host rings it; where it gave up (a wait of
# 1 ms runs out while the host validates, or the ring crosses the give-up) the
# host launches the search; BOXBFS_SEARCH_WAIT_MS=0: the host launches every
# one. All three give the same levels; a wait that is no number is refused.
if [ "$backend" = cuda ]; then
    for w in 1000 1 0; do
        export BOXBFS_SEARCH_WAIT_MS=$w
        same "kron:14, the device waits $w ms for the next search" kron:14
        "$BOXBFS" bfs kron:10 --backend cuda --devices 1 --roots 64 >"$tmp/w.txt" 2>&1
        check "kron:10, 64 roots, the device waits $w ms: validated" \
              "grep -q '^validation: PASS' '$tmp/w.txt'"
    done
    # the bell also carries the words of the state that changed since the
    # launch before (bb_search_bell): every search after the first is rung
    # so (BOXBFS_LOG=debug counts them), and its tree validates
    BOXBFS_SEARCH_WAIT_MS=5000 BOXBFS_LOG=debug "$BOXBFS" bfs kron:12 --backend cuda \
        --devices 1 --roots 16 >"$tmp/d.txt" 2>"$tmp/d.err"
    rung=$(sed -n 's/.* \([0-9]*\) rung with the words that changed.*/\1/p' "$tmp/d.err" | head -1)
    check "kron:12, 16 roots: ${rung:-no} searches rung with the changed words, validated" \
          "[ '${rung:-0}' -ge 15 ] && grep -q '^validation: PASS' '$tmp/d.txt'"
    BOXBFS_SEARCH_WAIT_MS=x "$BOXBFS" bfs kron:10 --backend cuda --devices 1 --roots 1 \
        >/dev/null 2>"$tmp/w.err"
    rc=$?
    unset BOXBFS_SEARCH_WAIT_MS
    check "BOXBFS_SEARCH_WAIT_MS=x: refused (exit $rc), named" \
          "[ $rc -ne 0 ] && grep -q \"BOXBFS_SEARCH_WAIT_MS='x': milliseconds\" '$tmp/w.err'"
    # a graph runs the steps its decides choose most of the time right after
    # it (kernels/cuda/search.cu chain_of: up to a run of bottom-up levels
    # and the loop after it); BOXBFS_NEXT_STEPS=0: every step in a graph of
    # its own. The same levels either way (the cases above and these take
    # both, chosen and not chosen, at each place of a chain: runs of one to
    # four bottom-up levels)
    same "kron:16 auto" kron:16
    same "kron:16 auto, --relabel none" kron:16 --relabel none
    same "kron:17 auto, edge factor 4" kron:17:4
    # where the bottom-up grid's blocks cover 512 vertices or more (kron:20)
    # one device's bottom-up levels list what they find, and the loop after
    # a run starts from that list, without the unpack (bottom_up.cu)
    same "kron:20 auto, the bottom-up levels listing" kron:20
    same "kron:20 auto, --relabel none, the bottom-up levels listing" kron:20 --relabel none
    export BOXBFS_NEXT_STEPS=0
    same "kron:14 auto, every step launched" kron:14
    same "kron:14 bottom-up, every step launched" kron:14 --direction bottom-up --visited bit
    same "grid 300, every step launched" "$tmp/grid300.mtx"
    unset BOXBFS_NEXT_STEPS
fi

# ---- several devices at once ------------------------------------------------
same_traffic="$(dirname "$0")/same_traffic.py"
# I DEVICES GRAPH OPTIONS...: case I's runs in the background (DEVICES is
# "--devices N" or "--device-ids A,B"): the host-driven levels and the
# search across devices on the cpu backend, then the search on $backend
peers_start() {
    i=$1 devs=$2 graph=$3
    shift 3
    ndev=$(echo "$devs" | awk '{ print $1 == "--devices" ? $2 : split($2, a, ",") }')
    # shellcheck disable=SC2086
    ( "$BOXBFS" bfs "$graph" --backend cpu --devices "$ndev" --roots 3 --contract atomic \
          --search-on host "$@" --output "$tmp/$i.host.out" >"$tmp/$i.host.txt" 2>"$tmp/$i.err" &&
          "$BOXBFS" bfs "$graph" --backend cpu --devices "$ndev" --roots 3 --contract atomic \
              --search-on device "$@" --json "$tmp/$i.cpu.json" >/dev/null 2>>"$tmp/$i.err" &&
          "$BOXBFS" bfs "$graph" --backend "$backend" $devs --roots 3 --contract atomic \
              --search-on device "$@" --json "$tmp/$i.dev.json" --output "$tmp/$i.dev.out" \
              >"$tmp/$i.dev.txt" 2>>"$tmp/$i.err"
      echo $? >"$tmp/$i.rc" ) &
}
peers_check() {   # I NAME: case I's search on $backend against its host levels and books
    i=$1 name=$2
    rc=$(cat "$tmp/$i.rc" 2>/dev/null)
    [ "$rc" = 0 ] || cat "$tmp/$i.err"
    rows "$tmp/$i.host.txt" | tr -d '*' >"$tmp/$i.host.rows"
    rows "$tmp/$i.dev.txt" | tr -d '*' >"$tmp/$i.dev.rows"
    check "$name: exit 0, validated, across devices" \
          "[ '$rc' = 0 ] && grep -q '^validation: PASS' '$tmp/$i.dev.txt' &&
           grep -q 'search: device search across devices' '$tmp/$i.dev.txt'"
    check "$name: level rows as the host drives them" \
          "[ -s '$tmp/$i.dev.rows' ] && cmp -s '$tmp/$i.host.rows' '$tmp/$i.dev.rows'"
    cut -d' ' -f1,2 "$tmp/$i.host.out" >"$tmp/$i.host.lv" 2>/dev/null
    cut -d' ' -f1,2 "$tmp/$i.dev.out" >"$tmp/$i.dev.lv" 2>/dev/null
    check "$name: levels per vertex" \
          "[ -s '$tmp/$i.dev.lv' ] && cmp -s '$tmp/$i.host.lv' '$tmp/$i.dev.lv'"
    check "$name: traffic as the cpu backend books it" \
          "python3 '$same_traffic' '$tmp/$i.cpu.json' '$tmp/$i.dev.json' peer"
}
# the cases of one device set run at once and are checked in order
peers() {   # NAME DEVICES GRAPH OPTIONS...: start case NAME
    case_add "$1"
    shift
    peers_start "$case_i" "$@"
}

multi="--devices 2|--devices 3"
if [ "$backend" = cuda ]; then
    multi="--device-ids 0,0|--device-ids 0,0,0"
    gpus=$(visible_gpus)
    [ "${gpus:-0}" -ge 2 ] && multi="--devices 2|$multi"
fi
IFS='|'
for devs in $multi; do
    unset IFS
    hubs=""
    for g in kron:14 "$tmp/grid.mtx"; do
        n=$(basename "$g")
        peers "$n $devs auto" "$devs" "$g"
        peers "$n $devs auto, bit visited" "$devs" "$g" --visited bit
        peers "$n $devs top-down, wire auto" "$devs" "$g" --direction top-down --wire auto
        peers "$n $devs bottom-up" "$devs" "$g" --direction bottom-up --visited bit
        peers "$n $devs device loop 100 arcs" "$devs" "$g" --device-loop 100
        peers "$n $devs depth 3" "$devs" "$g" --max-depth 3
        peers "$n $devs hubs split" "$devs" "$g" --hub-degree 16
        peers "$n $devs top-down, hubs split, loop 100" "$devs" "$g" --direction top-down \
            --hub-degree 64 --device-loop 100
        [ "$n" = kron:14 ] && hubs=$case_i
    done
    peers "kron:12 directed, reversed $devs" "$devs" kron:12 --directed --reverse --visited bit
    peers "kron:14 by degree $devs" "$devs" kron:14 --relabel degree --visited bit
    cases_check peers_check
    # kron:14 has hubs of 64 arcs and more: some level split their rows, each
    # device storing the levels of its hubs into the others (the hubs phase);
    # the grid has none
    check "kron:14 $devs: hubs split, their levels booked" \
          "grep -q 'hubs split: [1-9][0-9]* of >= 64 arcs' '$tmp/$hubs.dev.txt' && python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))[\"traffic\"]
assert t[\"phases\"][\"hubs\"] > 0, t[\"phases\"]' '$tmp/$hubs.dev.json'"
    IFS='|'
done
unset IFS

# --search-on auto on two GPUs weighs their link (src/engine/link_speed.c):
# NVLink or NVSwitch (NV# in nvidia-smi topo -m) searches across devices,
# PCIe drives the levels from the host and says why (the cell of our devices
# 0 and 1 found by bus id: CUDA_VISIBLE_DEVICES may show a subset)
if [ "$backend" = cuda ] && [ "${gpus:-0}" -ge 2 ]; then
    "$BOXBFS" topo --backend cuda --json "$tmp/topo.json" >/dev/null 2>&1
    nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader >"$tmp/bus" 2>&1
    nvidia-smi topo -m >"$tmp/topo_m" 2>&1
    link=$(python3 "$(dirname "$0")/smi_topo.py" --pair 0 1 "$tmp/topo.json" "$tmp/bus" \
           "$tmp/topo_m" 2>/dev/null)
    "$BOXBFS" bfs kron:14 --backend cuda --devices 2 --roots 2 >"$tmp/auto.txt" 2>&1
    case "$link" in
    NV*) check "auto on GPU0-GPU1 ($link): the search across devices" \
               "grep -q 'search: device search across devices' '$tmp/auto.txt'" ;;
    *) check "auto on GPU0-GPU1 (${link:-unknown}): host-driven levels, the link named" \
             "grep -q 'search: host-driven levels (links: ' '$tmp/auto.txt'" ;;
    esac
fi

# a loop level that the totals rule out is undone (kernels.h bb_loop_stops_here):
# on three devices kron:12's loop expands level 2 before the meeting says its
# frontier is past --device-loop; the tree, the rows and the books stay those
# of the host levels and of the cpu backend, and the lists of the undone level
# are booked there (undone_vertices, part of sent_vertices)
devs3="--devices 3"
[ "$backend" = cuda ] && devs3="--device-ids 0,0,0"
peers "kron:12 $devs3, a loop level undone" "$devs3" kron:12 --visited bit
cases_check peers_check
check "kron:12 $devs3: the undone lists booked at the level after the loop" \
      "python3 -c 'import json, sys
L = json.load(open(sys.argv[1]))[\"traffic\"][\"levels\"]
u = [i for i, l in enumerate(L) if l[\"undone_vertices\"]]
assert u and all(i > 0 and not L[i][\"device_loop\"] and L[i - 1][\"device_loop\"] and
                 L[i][\"sent_vertices\"] >= L[i][\"undone_vertices\"] for i in u), u' '$tmp/$case_i.dev.json'"

# a device that fails mid-search (BOXBFS_FAULT=level:L[:dev D]: it raises the
# abort word as it starts level L): every device stops waiting for it, the
# run ends within a second of the time a whole run takes, with exit 3 and
# its own message (not another device's "device D failed; device E
# stopped": bb_engine_fail keeps the failure of the device that raised the
# abort first), no JSON
devs=${multi%%|*}
fault=":dev1"   # logical devices all have ordinal 0: any device fails there
case "$devs" in --device-ids*) fault= ;; esac
ms_of() {   # the milliseconds a command takes, in ms
    t0=$(date +%s%N)
    "$@"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    return $rc
}
# shellcheck disable=SC2086
ms_of "$BOXBFS" bfs kron:14 --backend "$backend" $devs --roots 2 --contract atomic >/dev/null 2>&1
whole=$ms
for at in 0 2; do
    rm -f "$tmp/f.json"
    # shellcheck disable=SC2086
    BOXBFS_FAULT=level:$at$fault ms_of "$BOXBFS" bfs kron:14 --backend "$backend" $devs --roots 2 \
        --contract atomic --json "$tmp/f.json" >/dev/null 2>"$tmp/ferr"
    rc=$?
    echo "  level $at: exit $rc after $ms ms (a whole run: $whole ms): $(cat "$tmp/ferr")"
    check "a device fails at level $at: exit 3, its own message, no JSON, within a second" \
          "[ $rc -eq 3 ] && grep -q 'injected fault (BOXBFS_FAULT=level:$at): device [0-9]* failed' \
               '$tmp/ferr' && [ ! -e '$tmp/f.json' ] &&
           [ $ms -lt $((whole + 1000)) ]"
done

# a device late to the wake before a search (BOXBFS_FAULT=wake:1: the first
# device to come comes a second after the meeting's 10 s timeout): the others
# give up, exit 3, and the message says the meeting timed out and which
# device's tag never came, and who raised the abort word
# shellcheck disable=SC2086
BOXBFS_FAULT=wake:1 ms_of "$BOXBFS" bfs kron:12 --backend "$backend" $devs --roots 1 \
    --contract atomic >/dev/null 2>"$tmp/werr"
rc=$?
echo "  a late wake: exit $rc after $ms ms: $(cat "$tmp/werr")"
check "a device late to the wake: exit 3, timed out, the device whose tag never came named" \
      "[ $rc -eq 3 ] && grep -q 'did not meet before the search (after 1[0-9][.][0-9]* s, timed out, no tag from device [0-9]; the abort word: device [0-9] waited in vain)' '$tmp/werr' &&
       [ $ms -lt 20000 ]"
exit $fail
