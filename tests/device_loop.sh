#!/bin/sh
# The device loop across devices (docs/architecture.md, "Where a search runs"):
# on the cpu backend, levels run inside the loop (td* in the level table)
# must validate and count exactly the traffic of the same levels driven from
# the host (--device-loop 0): totals, phases, links, every level's row and
# every root's bytes (tests/same_traffic.py); and the loop stays off where
# it cannot run (host staging, no peer access, --wire auto with lists that
# could outgrow a bitmap). Every run here but the short rows' has --search-on
# host: the loop of the host-driven levels (the search on the devices:
# tests/device_search.sh).
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

# Short rows (docs/architecture.md, "One device"): one device's loop levels
# read each vertex's row in 16 bytes (up to four heads inline, else the
# degree and first arc), with the same levels and traffic as the offsets and
# columns give (BOXBFS_SHORT_ROWS=0); the memory report holds them; a device
# short of memory drops them first and says so.
short_same() {   # GRAPH OPTIONS...: with short rows and without
    graph=$1
    shift
    "$BOXBFS" bfs "$graph" --backend cpu --devices 1 --roots 3 "$@" --json "$tmp/short.json" \
        >"$tmp/short.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    BOXBFS_SHORT_ROWS=0 "$BOXBFS" bfs "$graph" --backend cpu --devices 1 --roots 3 "$@" \
        --json "$tmp/long.json" >"$tmp/long.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    grep -q '^ *[0-9][0-9]*  *td\*' "$tmp/short.txt" || { echo "no loop levels"; return 1; }
    python3 "$same_traffic" "$tmp/long.json" "$tmp/short.json" peer 4 &&
        python3 - "$tmp/short.json" "$tmp/long.json" <<'PY'
import json, sys
s, l = (json.load(open(p)) for p in sys.argv[1:3])
n = s['graph']['vertices']
assert s['devices'][0]['arrays'].get('short_rows') == 16 * n, s['devices'][0]['arrays']
assert 'short_rows' not in l['devices'][0]['arrays']
assert s['devices'][0]['memory_bytes'] == l['devices'][0]['memory_bytes'] + 16 * n
PY
}
# the grid's rows hold 2, 3 and 4 heads; kron:12's hubs are long rows
for c in "grid, the search on the device|$tmp/grid.mtx|" \
         "grid, host-driven levels|$tmp/grid.mtx|--search-on host" \
         "kron:12 top-down, every level in the loop|kron:12|--direction top-down --device-loop 100000000" \
         "kron:12 auto|kron:12|--direction auto"; do
    name=${c%%|*} rest=${c#*|}
    graph=${rest%%|*} opts=${rest#*|}
    # shellcheck disable=SC2086
    check "short rows, $name: the same levels and traffic, 16 bytes a vertex" \
          "short_same '$graph' $opts"
done
short_dropped() {
    m=$(python3 -c "import json; print(json.load(open('$tmp/short.json'))['devices'][0]['memory_bytes'])")
    "$BOXBFS" bfs kron:12 --backend cpu --devices 1 --roots 2 --memory-limit $((m - 1)) \
        --json "$tmp/drop.json" >"$tmp/drop.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    grep -q '^validation: PASS' "$tmp/drop.txt" && grep -q 'dropped: short_rows' "$tmp/drop.txt" &&
        python3 - "$tmp/drop.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))['devices'][0]
assert 'short_rows' not in d['arrays'] and 'rank' in d['arrays'], d
assert d['dropped'].startswith('short_rows'), d['dropped']
PY
}
check "short rows: a device without room for them drops them first (the skip stays), validated" \
      short_dropped
exit $fail
