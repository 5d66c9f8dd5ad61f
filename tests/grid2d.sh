#!/bin/sh
# boxbfs bfs --partition 2d (docs/architecture.md, "2D partition") from the command line:
# every grid from 1x1 to 4x4, top-down and auto, gives validated trees with
# the same levels as the 1D engine (--output of the first root), JSON that
# names the partition and the grid and books the expand and fold phases, a
# traffic CSV with them; on 16 devices 2D top-down sends at most half of 1D
# top-down's messages, and 2D auto (kron:20) fewer bytes than 1D auto and at
# most half of its messages; no grid gathers parents after the search (the
# folds carry them); bad grids and options exit 1 with a message that names
# the problem.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
B="$BOXBFS"
roots="--root 3 --root 70 --root 1000"

"$B" bfs kron:11 $roots --backend cpu --devices 3 --direction top-down --output "$tmp/1d.out" \
    >/dev/null 2>&1
check "1D reference run" "[ -s '$tmp/1d.out' ]"
cut -d' ' -f1,2 "$tmp/1d.out" >"$tmp/1d.levels"
for r in 1 2 3 4; do
    for c in 1 2 3 4; do
        for dir in top-down auto; do
            "$B" bfs kron:11 $roots --backend cpu --partition 2d --grid ${r}x$c --wire auto \
                --direction $dir --output "$tmp/2d.out" >"$tmp/o" 2>"$tmp/e"
            rc=$?
            cut -d' ' -f1,2 "$tmp/2d.out" >"$tmp/2d.levels"
            check "grid ${r}x$c $dir: exit 0, validation PASS, levels as 1D" \
                "[ $rc -eq 0 ] && grep -q 'validation: PASS' '$tmp/o' && cmp -s '$tmp/1d.levels' '$tmp/2d.levels'"
            [ $rc -eq 0 ] || cat "$tmp/e"
        done
    done
done

# JSON and CSV: the partition, the grid, the phases; the squarest grid by default
"$B" bfs kron:10 --roots 2 --backend cpu --devices 8 --partition 2d --json "$tmp/g.json" \
    --traffic-csv "$tmp/g.csv" >"$tmp/o" 2>&1
check "--devices 8 --partition 2d: exit 0" "[ $? -eq 0 ]"
check "text report names the grid" "grep -q '^# partition: 2d  grid: 4x2' '$tmp/o'"
check "JSON: partition 2d on a 4x2 grid, expand and fold booked" "python3 - '$tmp/g.json' <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
o, t = j['options'], j['traffic']
assert o['partition'] == '2d' and o['grid_rows'] == 4 and o['grid_cols'] == 2, o
assert o['direction'] == 'auto'
assert {l['direction'] for l in j['traffic']['levels']} == {'top-down', 'bottom-up'}
assert t['phases']['expand'] > 0 and t['phases']['fold'] > 0
assert t['phases']['frontier_exchange'] == 0
assert sum(t['phases'].values()) == t['total_bytes'] == sum(l['bytes'] for l in t['links'])
# links off the grid (neither same grid row nor column) carry only termination (device 0)
for l in t['links']:
    s, d = l['src'], l['dst']
    if s // 4 != d // 4 and s % 4 != d % 4 and 0 not in (s, d):
        assert l['bytes'] == 0 and l['messages'] == 0, l
PY"
check "traffic CSV books expand and fold" \
    "grep -q '^phase,,,,expand,[1-9]' '$tmp/g.csv' && grep -q '^phase,,,,fold,[1-9]' '$tmp/g.csv'"

# 16 devices: 2D (4x4) sends fewer than half of 1D's messages
"$B" bfs kron:12 --roots 2 --backend cpu --devices 16 --direction top-down --json "$tmp/a.json" \
    >/dev/null 2>&1
"$B" bfs kron:12 --roots 2 --backend cpu --devices 16 --partition 2d --json "$tmp/b.json" \
    >/dev/null 2>&1
check "16 devices: 2D messages <= 1D's / 2" "python3 - '$tmp/a.json' '$tmp/b.json' <<'PY'
import json, sys
a, b = (json.load(open(p))['traffic']['total_messages'] for p in sys.argv[1:3])
assert 2 * b <= a, (a, b)
PY"

# 16 devices, auto, kron:20: the 4x4 grid moves fewer bytes than 1D and at most half of
# its messages (the bottom-up levels' frontier travels along grid columns, the parents
# along grid rows)
"$B" bfs kron:20 --roots 2 --backend cpu --devices 16 --wire auto --json "$tmp/a.json" \
    >/dev/null 2>&1
"$B" bfs kron:20 --roots 2 --backend cpu --devices 16 --partition 2d --wire auto \
    --json "$tmp/b.json" >/dev/null 2>&1
check "16 devices, auto, kron:20: 2D bytes < 1D's, messages <= 1D's / 2" "python3 - '$tmp/a.json' '$tmp/b.json' <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['validation'] == b['validation'] == 'passed'
assert a['options']['direction'] == b['options']['direction'] == 'auto'
ta, tb = a['traffic'], b['traffic']
assert any(l['direction'] == 'bottom-up' for l in tb['levels'])
assert tb['total_bytes'] < ta['total_bytes'], (ta['total_bytes'], tb['total_bytes'])
assert 2 * tb['total_messages'] <= ta['total_messages'], (ta['total_messages'], tb['total_messages'])
PY"

# parents: every fold carries (vertex, parent) pairs, so no grid gathers them after the search
for run in "2 1 top-down" "1 2 top-down" "1 2 bottom-up" "2 2 auto" "2 3 top-down"; do
    set -- $run   # R C direction
    "$B" bfs kron:11 --root 3 --root 70 --backend cpu --devices $(($1 * $2)) --partition 2d \
        --grid "$1x$2" --direction "$3" --json "$tmp/p.json" >/dev/null 2>&1
    check "grid $1x$2 $3: no parent gather, trees valid" \
        "python3 - '$tmp/p.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d['validation'] == 'passed'
assert all(r['gather_s'] == 0 for r in d['runs']), d['runs']
assert d['traffic']['phases']['parent_gather'] == 0, d['traffic']['phases']
PY"
done

# bad grids and options: exit 1 and a message naming the problem
bad() {   # name expected-message args...
    name=$1 want=$2
    shift 2
    "$B" bfs kron:6 --roots 1 --backend cpu "$@" >/dev/null 2>"$tmp/e"
    rc=$?
    check "$name: exit 1, says '$want'" "[ $rc -eq 1 ] && grep -q -- '$want' '$tmp/e'"
}
bad "R*C != devices" "needs 6 devices, but --devices is 4" --partition 2d --grid 2x3 --devices 4
bad "0x2" "whole numbers in \[1, 1024\]" --partition 2d --grid 0x2
bad "garbage grid" "expected RxC" --partition 2d --grid abc
bad "grid 2x" "expected RxC" --partition 2d --grid 2x
bad "grid without a value" "needs a value" --partition 2d --grid
bad "grid with 1d" "applies to --partition 2d" --grid 2x2
bad "unknown partition" "--partition: unknown value" --partition 3d
# --exchange nccl reaches the 2D rounds (tests/gpu_grid2d.sh, tests/test_nccl_rounds); here
# only its own refusals: not built in, or not on the cpu backend
"$B" bfs kron:6 --roots 1 --backend cpu --partition 2d --grid 2x2 --exchange nccl >/dev/null 2>"$tmp/e"
rc=$?
check "2d nccl on the cpu backend: exit 1, the exchange's reason" \
    "[ $rc -eq 1 ] && grep -q -E 'not built into|cuda backend only' '$tmp/e' && ! grep -q 'wired' '$tmp/e'"
exit $fail
