#!/bin/sh
# The device loop across devices (docs/architecture.md, "Where a search runs"):
# on the cpu backend, levels run inside the loop (td* in the level table)
# must validate and count exactly the traffic of the same levels driven from
# the host (--device-loop 0): totals, phases, links, every level's row and
# every root's bytes (tests/same_traffic.py); and the loop stays off where
# it cannot run (host staging, no peer access, --wire auto with lists that
# could outgrow a bitmap). Every run here has --search-on host: the loop of
# the host-driven levels (the search on the devices: tests/device_search.sh).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
same_traffic="$(dirname "$0")/same_traffic.py"

# a 48 x 48 grid, a road network's shape: about 95 small levels from a corner
grid_mtx 48 "$tmp/grid.mtx"

# NAME GRAPH OPTIONS...: with the loop (default) and without; loop rows counted
same_as_host() {
    name=$1 graph=$2
    shift 2
    "$BOXBFS" bfs "$graph" --backend cpu --roots 3 --search-on host "$@" --json "$tmp/loop.json" \
        >"$tmp/loop.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    "$BOXBFS" bfs "$graph" --backend cpu --roots 3 --search-on host "$@" --device-loop 0 \
        --json "$tmp/host.json" \
        >"$tmp/host.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    loop_rows=$(grep -c '^ *[0-9][0-9]*  *td\*' "$tmp/loop.txt")
    host_rows=$(grep -c '^ *[0-9][0-9]*  *td\*' "$tmp/host.txt")
    python3 "$same_traffic" "$tmp/host.json" "$tmp/loop.json" peer 4   # undone lists: 4 B a vertex
}

for c in "grid 2 devices|$tmp/grid.mtx|--devices 2" \
         "grid 4 devices atomic bit|$tmp/grid.mtx|--devices 4 --contract atomic --visited bit" \
         "grid 3 devices depth 20|$tmp/grid.mtx|--devices 3 --max-depth 20" \
         "kron:12 3 devices auto|kron:12|--devices 3 --direction auto" \
         "kron:12 2 devices top-down atomic|kron:12|--devices 2 --direction top-down --contract atomic" \
         "grid 2 devices atomic wire auto, loop of 16 arcs|$tmp/grid.mtx|--devices 2 --contract atomic --wire auto --device-loop 16"; do
    name=${c%%|*} rest=${c#*|}
    graph=${rest%%|*} opts=${rest#*|}
    # shellcheck disable=SC2086
    check "$name: loop levels validate, same traffic as host levels" "same_as_host '$name' '$graph' $opts"
    check "$name: levels in the loop ($loop_rows of the first root), none with --device-loop 0" \
          "[ $loop_rows -gt 0 ] && [ $host_rows -eq 0 ]"
done

# where the loop cannot run, every level is a host level
none_in_loop() {
    "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    grep -q '^validation: PASS' "$tmp/out" && ! grep -q '^ *[0-9][0-9]*  *td\*' "$tmp/out"
}
G="$BOXBFS bfs $tmp/grid.mtx --backend cpu --roots 2 --search-on host"
check "--exchange host: no loop across devices" "none_in_loop $G --devices 2 --exchange host"
check "BOXBFS_DISABLE_PEER=1 (host staging): no loop" \
      "BOXBFS_DISABLE_PEER=1 none_in_loop $G --devices 2"
check "--wire auto with a loop bound above a range's bitmap: no loop" \
      "none_in_loop $G --devices 2 --contract atomic --wire auto"
check "one device: the one-device loop still runs" \
      "$G --devices 1 | grep -q '^ *[0-9][0-9]*  *td\*'"
exit $fail
