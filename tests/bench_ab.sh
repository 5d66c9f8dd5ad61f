#!/bin/sh
# benchmarks/bench-ab end to end on the cpu backend (kron:10, one binary as
# both base and head, two variants, two runs each): the graph converted once
# before any run, the runs interleaved (base, head, then head, base), a JSON
# per run named as documented, ab.md and ab.json with each point's runs and
# ratio, every tree validated with VALIDATE=1; a binary whose runs fail: a
# row without a ratio; no binaries: a clear error.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
bench=$(source_dir benchmarks bench-ab) || exit 99

BACKEND=cpu GRAPHS=kron:10 ROOTS=4 REPS=2 GRAPH_CACHE="$tmp/graphs" BASE="$BOXBFS" HEAD="$BOXBFS" \
    BASE_COMMIT=aaa HEAD_COMMIT=bbb VARIANTS="default:|td:--direction top-down" \
    sh "$bench/bench-ab" "$tmp/o" >"$tmp/stdout" 2>"$tmp/stderr"
check "bench-ab exit 0" "[ $? -eq 0 ]"
for p in default td; do
    for r in aaa.r1 aaa.r2 bbb.r1 bbb.r2; do
        check "run kron-10-$p.$r.1dev: JSON" "[ -s '$tmp/o/json/kron-10-$p.$r.1dev.json' ]"
    done
done
grep -n 'rc=' "$tmp/o/summary.txt" | sed -n 's/^\([0-9]*\):\(kron-10-default\.[a-z]*\.r[0-9]\).*/\2/p' >"$tmp/order"
printf '%s\n' kron-10-default.aaa.r1 kron-10-default.bbb.r1 kron-10-default.bbb.r2 \
    kron-10-default.aaa.r2 >"$tmp/want"
check "runs interleaved: base, head, head, base" "cmp -s '$tmp/want' '$tmp/order'"
check "graph converted once, before the first run" \
    "[ \$(grep -c '^convert kron:10' '$tmp/o/summary.txt') -eq 1 ] &&
     [ \$(grep -n '^convert kron:10' '$tmp/o/summary.txt' | cut -d: -f1) -lt \
       \$(grep -n 'dev: rc=' '$tmp/o/summary.txt' | head -1 | cut -d: -f1) ]"
check "ab.md: a row per point with its ratio" \
    "[ \$(grep -c '^| kron-10-\(default\|td\)\.1dev | GTEPS | .* | [0-9.]*x | ' '$tmp/o/ab.md') -eq 2 ]"
check "ab.json: each point's runs of both" "python3 - '$tmp/o/ab.json' <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r['point'] for r in rows] == ['kron-10-default.1dev', 'kron-10-td.1dev'], rows
for r in rows:
    assert r['base'] == 'aaa' and r['head'] == 'bbb', r
    assert len(r['base_runs']) == 2 and len(r['head_runs']) == 2, r
    assert r['head_over_base'] > 0 and r['validation'] == ['skipped'], r
    assert r['base_host_s'] >= 0 and r['head_host_s'] >= 0, r   # the device search's host part
PY"

BACKEND=cpu GRAPHS=kron:10 ROOTS=4 REPS=1 GRAPH_CACHE="$tmp/graphs" BASE="$BOXBFS" HEAD="$BOXBFS" \
    VALIDATE=1 VARIANTS="default:" sh "$bench/bench-ab" "$tmp/v" >"$tmp/stdout" 2>"$tmp/stderr"
check "VALIDATE=1: exit 0" "[ $? -eq 0 ]"
check "VALIDATE=1: every tree validated" \
    "python3 -c \"import json,sys; r=json.load(open(sys.argv[1])); assert r and all(x['validation'] == ['passed'] for x in r), r\" '$tmp/v/ab.json'"

printf '#!/bin/sh\nexit 3\n' >"$tmp/fails" && chmod +x "$tmp/fails"
BACKEND=cpu GRAPHS=kron:10 ROOTS=4 REPS=1 GRAPH_CACHE="$tmp/graphs" BASE="$tmp/fails" HEAD="$BOXBFS" \
    VARIANTS="default:" sh "$bench/bench-ab" "$tmp/f" >"$tmp/stdout" 2>"$tmp/stderr"
check "a base whose runs fail: its row says so, no ratio" \
    "grep -q '^| kron-10-default.1dev | - | 0 runs | 1 runs | - | - | - |' '$tmp/f/ab.md'"

HEAD="$BOXBFS" sh "$bench/bench-ab" "$tmp/n" >"$tmp/stdout" 2>"$tmp/stderr"
check "no BASE: exit 2, named" "[ $? -eq 2 ] && grep -q 'BASE and HEAD must name boxbfs binaries' '$tmp/stderr'"
exit $fail
