#!/bin/sh
# The device search (README "The search on the device"): one device with the
# atomic method runs the whole search without the host. Its levels must be
# the levels the host drives: per vertex the same level, per level of the
# first root the same direction, device-loop mark and frontier, against
# --contract valid-flag on the cpu backend (host-driven levels, the same
# rules). BACKEND=cuda (tests/gpu_search.sh) runs the device search on a GPU.
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
same "kron:12 directed, reversed" kron:12 --directed --reverse --visited bit
same "kron:14 by degree" kron:14 --relabel degree --visited bit
# the report says where the levels ran: every row of the device search is
# marked as such in the JSON (device_search), none of the host's
"$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --roots 1 --contract atomic --json - \
    >"$tmp/dev.json" 2>/dev/null
"$BOXBFS" bfs kron:12 --backend "$backend" --devices 1 --roots 1 --json - >"$tmp/host.json" 2>/dev/null
check "JSON: device_search true with atomic" "grep -q '\"device_search\": true' '$tmp/dev.json'"
check "JSON: device_search false with valid-flag" "grep -q '\"device_search\": false' '$tmp/host.json'"
exit $fail
