#!/bin/sh
# benchmarks/bench-pair end to end on the cpu backend (kron:10 and kron:11,
# one binary as both base and head): STAGE=scaling leaves bench-ab's table
# (one and two devices) and bench-scaling's side by side; STAGE=one bench-ab's
# three variants on one device, a real graph's row and validated trees of
# both graphs; STAGE=2d bench-ab's
# 1D, 2 x 1 and 1 x 2 rows, the 2 x 2 grid and 1D on four logical devices and
# a road network's roots side by side, every tree validated; a bad stage or no
# binaries: exit 2 with the reason.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
bench=$(source_dir benchmarks bench-pair) || exit 99
grid_mtx 12 "$tmp/road.mtx"
export BACKEND=cpu GRAPHS="kron:10 kron:11" ROAD="$tmp/road.mtx" GRAPH_CACHE="$tmp/graphs"
export BASE="$BOXBFS" HEAD="$BOXBFS" BASE_COMMIT=aaa HEAD_COMMIT=bbb

STAGE=scaling sh "$bench/bench-pair" "$tmp/s" >"$tmp/stdout" 2>"$tmp/stderr"
check "scaling: exit 0" "[ $? -eq 0 ]"
check "scaling: bench-ab's rows on one and two devices" \
    "[ \$(grep -c '^| kron-10-\(default\|none\)\.[12]dev | GTEPS | .* | [0-9.]*x | ' '$tmp/s/summary.txt') -eq 4 ]"
check "scaling: bench-scaling's side by side, every variant of both graphs" \
    "[ \$(grep -c '^| kron:1[01] | kron-1[01]\.\(default\|auto\|top-down\) | .* | [0-9.]*x |' '$tmp/s/summary.txt') -eq 6 ]"
check "scaling: every tree of bench-scaling validated" \
    "! grep -h '\"validation\"' '$tmp/s/scaling/json/'*.json | grep -qv passed"

STAGE=one FILES="$tmp/road.mtx" sh "$bench/bench-pair" "$tmp/o" >"$tmp/stdout" 2>"$tmp/stderr"
check "one: exit 0" "[ $? -eq 0 ]"
check "one: bench-ab's three variants on one device and the real graph's row" \
    "[ \$(grep -c '^| kron-10-\(default\|none\|top-down\)\.1dev | GTEPS | .* | [0-9.]*x | ' '$tmp/o/summary.txt') -eq 3 ] &&
     grep -q '^| road-default\.1dev | ms | .* | [0-9.]*x | ' '$tmp/o/summary.txt'"
check "one: HEAD's trees of kron:10 and the road validated, 16 roots" \
    "python3 - '$tmp/o/json' <<'PY'
import json, os, sys
for name in ('kron-10.validated.1dev', 'road.validated.1dev'):
    d = json.load(open(os.path.join(sys.argv[1], name + '.json')))
    assert d['validation'] == 'passed' and len(d['runs']) == 16, (name, d['validation'])
PY"

STAGE=2d sh "$bench/bench-pair" "$tmp/d" >"$tmp/stdout" 2>"$tmp/stderr"
check "2d: exit 0" "[ $? -eq 0 ]"
check "2d: bench-ab's 1D, 2 x 1 and 1 x 2 rows, validated" \
    "[ \$(grep -c '^| kron-11-\(1d\|2x1\|1x2\)\.2dev | GTEPS | .* | [0-9.]*x | ' '$tmp/d/summary.txt') -eq 3 ] &&
     python3 -c \"import json,sys; r=json.load(open(sys.argv[1])); assert len(r) == 3 and all(x['validation'] == ['passed'] for x in r), r\" '$tmp/d/ab2d/ab.json'"
check "2d: the 2 x 2 grid and 1D on four logical devices, and the road's roots side by side, validated" \
    "python3 - '$tmp/d/json' <<'PY'
import json, os, sys
for name, devices in (('kron-11-2x2.0011', 4), ('kron-11-1d.0011', 4), ('road.side-by-side.2dev', 2)):
    d = json.load(open(os.path.join(sys.argv[1], name + '.json')))
    assert d['validation'] == 'passed' and d['device_count'] == devices, (name, d['validation'])
PY"

STAGE=3d sh "$bench/bench-pair" "$tmp/x" >"$tmp/stdout" 2>"$tmp/stderr"
check "STAGE=3d: exit 2, named" "[ $? -eq 2 ] && grep -q \"STAGE='3d': scaling, one or 2d\" '$tmp/stdout'"
BASE= sh "$bench/bench-pair" "$tmp/n" >"$tmp/stdout" 2>"$tmp/stderr"
check "no BASE: exit 2, named" "[ $? -eq 2 ] && grep -q 'BASE and HEAD must name boxbfs binaries' '$tmp/stderr'"
exit $fail
