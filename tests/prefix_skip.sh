#!/bin/sh
# The visited-prefix skip (docs/architecture.md, "The visited-prefix skip"), cpu backend: with
# it (the default for --contract atomic in one process, any device count)
# every vertex gets the level it gets with BOXBFS_PREFIX_SKIP=0, with the
# same roots, levels and reached counts per root and a validated tree,
# undirected and directed, byte and bit visited, top-down and auto,
# --max-depth, --relabel degree, the device search and host-driven levels
# (--device-loop 0); on several devices also the same traffic (totals,
# phases, links, level table, per-root bytes: a skipped arc leads to a
# vertex the device has marked, which the atomic test would drop unsent);
# the big levels do skip arcs, on every device; the report and JSON say
# whether it is on; it is off with other contractions and where its arrays
# do not fit --memory-limit (the search then runs without it). The 2D
# engine's top-down expand skips too (each grid row ranked apart): the same
# levels and traffic on 1 x 2, 2 x 2 and 2 x 3 grids, fewer arcs scanned.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
data="$(dirname "$0")/data"

# NAME GRAPH OPTIONS...: the same levels and per-root rows with and without
# the skip, each validated, the skip on in one and off in the other; one
# device unless OPTIONS say --devices P, then also the same traffic.
same_levels() {
    name=$1 graph=$2
    shift 2
    for s in 1 0; do
        BOXBFS_PREFIX_SKIP=$s "$BOXBFS" bfs "$graph" --backend cpu --devices 1 --contract atomic \
            --roots 4 "$@" --output "$tmp/$s.out" --json "$tmp/$s.json" >"$tmp/$s.txt" \
            2>"$tmp/err" || { cat "$tmp/err"; return 1; }
        cut -d' ' -f1,2 "$tmp/$s.out" >"$tmp/$s.lv"
        root_rows "$tmp/$s.txt" >"$tmp/$s.rows"
        grep -q '"validation": "passed"' "$tmp/$s.json" || return 1
    done
    [ -s "$tmp/1.lv" ] && cmp -s "$tmp/1.lv" "$tmp/0.lv" && [ -s "$tmp/1.rows" ] &&
        cmp -s "$tmp/1.rows" "$tmp/0.rows" &&
        grep -q 'visited-prefix skip' "$tmp/1.txt" && ! grep -q 'visited-prefix skip' "$tmp/0.txt" &&
        grep -q '"prefix_skip": true' "$tmp/1.json" && grep -q '"prefix_skip": false' "$tmp/0.json" &&
        python3 "$(dirname "$0")/same_traffic.py" "$tmp/0.json" "$tmp/1.json" peer
}

check "kron:12 top-down, byte visited: the same levels" \
    'same_levels k12 kron:12 --direction top-down'
check "kron:14 top-down, bit visited: the same levels" \
    'same_levels k14 kron:14 --direction top-down --visited bit'
check "kron:14 auto, bit visited: the same levels" 'same_levels k14a kron:14 --visited bit'
check "directed kron:12, top-down and auto: the same levels" \
    'same_levels d12 kron:12 --directed --direction top-down && same_levels d12a kron:12 --directed'
check "SNAP ids with gaps, --root 10: the same levels" \
    'same_levels gaps "$data/io_gaps.txt" --root 10'
check "kron:13 --max-depth 2: the same levels" \
    'same_levels depth kron:13 --direction top-down --max-depth 2'
check "kron:13 --relabel degree: the same levels" \
    'same_levels relabel kron:13 --direction top-down --relabel degree'
check "kron:13 host-driven levels (--device-loop 0): the same levels" \
    'same_levels host kron:13 --direction top-down --device-loop 0'
for p in 2 3 5; do
    check "kron:14 top-down on $p devices: the same levels and traffic" \
        "same_levels td$p kron:14 --direction top-down --devices $p"
done
check "kron:14 auto on 4 devices, bit visited, wire auto: the same levels and traffic" \
    'same_levels auto4 kron:14 --devices 4 --visited bit --wire auto'
check "directed kron:13 on 3 devices, auto: the same levels and traffic" \
    'same_levels d3 kron:13 --directed --devices 3'
check "kron:13 on 3 devices --parents recompute: the same levels and traffic" \
    'same_levels rec3 kron:13 --direction top-down --devices 3 --parents recompute'

# The big top-down levels start their rows past the prefix (debug log), on
# one device and on each of three.
skips() {   # P: every device's log has a level that skips arcs
    BOXBFS_LOG=debug "$BOXBFS" bfs kron:14 --backend cpu --devices "$1" --contract atomic \
        --direction top-down --roots 2 >/dev/null 2>"$tmp/debug" || return 1
    [ "$(awk '/visited prefix/ && $(NF - 2) > 0 && match($0, /\[dev [0-9]+\]/) {
                  print substr($0, RSTART, RLENGTH) }' "$tmp/debug" | sort -u | wc -l)" -eq "$1" ]
}
check "kron:14 top-down: a level skips arcs into a visited prefix" 'skips 1'
check "kron:14 top-down on 3 devices: each skips arcs" 'skips 3'

# Off where it does not apply.
off() {   # OPTIONS...: the run says the skip is off
    "$BOXBFS" bfs kron:10 --backend cpu --roots 2 --json "$tmp/off.json" "$@" >/dev/null 2>&1 &&
        grep -q '"prefix_skip": false' "$tmp/off.json" && grep -q '"validation": "passed"' "$tmp/off.json"
}
check "off with valid-flag" 'off --devices 1 --contract valid-flag'
check "off with sort-unique on two devices" 'off --devices 2 --contract sort-unique'

# 2D: the same levels and traffic, and the top-down levels scan fewer arcs
# (a top-down run's level table counts the arcs its expands scanned)
check "2D 2 x 2 top-down: the same levels and traffic" \
    'same_levels g22 kron:14 --devices 4 --partition 2d --grid 2x2 --direction top-down'
check "2D 1 x 2 auto: the same levels and traffic" \
    'same_levels g12 kron:14 --devices 2 --partition 2d --grid 1x2'
check "2D 2 x 3 top-down, wire auto, directed: the same levels and traffic" \
    'same_levels g23 kron:13 --directed --devices 6 --partition 2d --grid 2x3 --direction top-down --wire auto'
check "2D 2 x 2 top-down: fewer arcs scanned with the skip" \
    'same_levels g22s kron:14 --devices 4 --partition 2d --grid 2x2 --direction top-down &&
     python3 - "$tmp/1.json" "$tmp/0.json" <<PY
import json, sys
on, off = (sum(l["frontier_arcs"] for l in json.load(open(f))["traffic"]["levels"])
           for f in sys.argv[1:3])
assert 0 < on < off, (on, off)
PY'

# Under a --memory-limit that holds the plan without the skip's arrays (and
# the short rows, which go first) but not with them: the search runs
# without both and validates.
BOXBFS_PREFIX_SKIP=0 BOXBFS_SHORT_ROWS=0 "$BOXBFS" bfs kron:12 --backend cpu --devices 1 \
    --contract atomic --roots 1 --json "$tmp/plain.json" >/dev/null 2>&1
limit=$(sed -n 's/.*"memory_bytes": \([0-9]*\).*/\1/p' "$tmp/plain.json" | head -1)
"$BOXBFS" bfs kron:12 --backend cpu --devices 1 --contract atomic --roots 2 \
    --memory-limit "$limit" --json "$tmp/lim.json" >/dev/null 2>"$tmp/lim.err"
check "--memory-limit of the plan without it ($limit bytes): off, short rows dropped first, validated" \
    '[ -n "$limit" ] && grep -q "\"prefix_skip\": false" "$tmp/lim.json" &&
     grep -q "\"dropped\": \"short_rows.*; rank, by_rank, skip" "$tmp/lim.json" &&
     grep -q "\"validation\": \"passed\"" "$tmp/lim.json"'
# Two devices under a --memory-limit that holds the plan with the remote
# parents but without the skip: the skip goes, the parents stay.
BOXBFS_PREFIX_SKIP=0 "$BOXBFS" bfs kron:12 --backend cpu --devices 2 --contract atomic --roots 1 \
    --parents keep --json "$tmp/plain2.json" >/dev/null 2>&1
limit2=$(python3 -c 'import json,sys; print(max(d["memory_bytes"] for d in json.load(open(sys.argv[1]))["devices"]))' "$tmp/plain2.json")
"$BOXBFS" bfs kron:12 --backend cpu --devices 2 --contract atomic --roots 2 \
    --memory-limit "$limit2" --json "$tmp/lim2.json" >/dev/null 2>"$tmp/lim2.err"
check "two devices, --memory-limit of the plan with parents, without the skip: parents kept, skip off" \
    'grep -q "\"prefix_skip\": false" "$tmp/lim2.json" && [ "$(grep -c "\"parents\": \"keep\"" "$tmp/lim2.json")" -eq 2 ] &&
     grep -q "\"validation\": \"passed\"" "$tmp/lim2.json"'
exit $fail
