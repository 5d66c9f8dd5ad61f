#!/bin/sh
# benchmarks/bench-scaling end to end on the cpu backend (kron:10, 1 and 2
# emulated devices, two variants): a validated JSON per point, the summary
# (.md and .json with the documented row fields) and the 1- and 2-device rows
# side by side; benchmarks/summarize on the same reports gives the same rows.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
bench=$(source_dir benchmarks bench-scaling) || exit 99

BACKEND=cpu GRAPHS=kron:10 DEVICES="1 2" ROOTS=4 GRAPH_CACHE="$tmp/graphs" BOXBFS="$BOXBFS" \
    VARIANTS="default:|td:--contract atomic --visited bit --direction top-down" \
    sh "$bench/bench-scaling" "$tmp/o" >"$tmp/stdout" 2>"$tmp/stderr"
check "bench-scaling exit 0" "[ $? -eq 0 ]"
for p in default.1dev default.2dev td.1dev td.2dev; do
    check "point $p validated" "grep -q '^kron-10.$p: rc=0 .*validation passed' '$tmp/stdout'"
    check "point $p JSON" "[ -s '$tmp/o/json/kron-10.$p.json' ]"
done
check "graph converted once" "[ \$(grep -c '^convert kron:10' '$tmp/o/summary.txt') -eq 1 ] && [ -s '$tmp/graphs/kron-10.bbcsr' ]"
check "summary.md and summary.json" "[ -s '$tmp/o/summary.md' ] && [ -s '$tmp/o/summary.json' ]"
check "side by side with the ratio" "grep -q '^| kron:10 | kron-10.td | cpu-emulated | 1: .* GTEPS / 2: .* GTEPS | [0-9.]*x |' '$tmp/o/summary.md'"
check "rows have the documented fields" "python3 - '$tmp/o/summary.json' <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 4, rows
keys = {'command', 'graph', 'backend', 'device_count', 'devices', 'options', 'teps', 'time_s',
        'validation', 'commit', 'date'}
for r in rows:
    assert keys <= set(r), r
    assert r['command'] == 'bfs' and r['graph'] == 'kron:10' and r['validation'] == 'passed', r
    assert r['device_count'] == len(r['devices']) and r['teps'] > 0, r
PY"
python3 "$bench/summarize" --out "$tmp/s" --name again "$tmp/o/json" >/dev/null 2>"$tmp/err"
check "summarize again: exit 0" "[ $? -eq 0 ]"
check "summarize again: the same rows" "cmp -s '$tmp/o/summary.json' '$tmp/s/again.json'"
python3 "$bench/summarize" --out "$tmp/s" "$tmp/none" >/dev/null 2>"$tmp/err"
check "summarize: a missing source fails by name" "[ $? -ne 0 ] && grep -q 'none: no such file' '$tmp/err'"
exit $fail
