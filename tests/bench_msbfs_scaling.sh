#!/bin/sh
# benchmarks/bench-msbfs-scaling end to end on the cpu backend (msbfs kron:10
# with 64 and 256 sources in groups of 32, bc kron:8 with 16 sources, 1 and 2
# emulated devices, two msbfs variants): a report per point, the first msbfs
# point validated, the side-by-side table with a speed-up and the busy spread
# per run, scaling.json with the documented fields and the reports'
# provenance (the build's commit and the date), and no point started past
# DEADLINE_S.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
bench=$(source_dir benchmarks bench-msbfs-scaling) || exit 99

run() {
    BACKEND=cpu MS_SCALE=10 MS_SOURCES="64 256" GROUP_SIZE=32 BC_SCALE=8 BC_SOURCES=16 DEVICES="1 2" \
        MS_VARIANTS="default:|a2:--alpha 2" GRAPH_CACHE="$tmp/graphs" BOXBFS="$BOXBFS" BB_COMMIT=abc123 \
        env "$@" sh "$bench/bench-msbfs-scaling" "$tmp/o" >"$tmp/stdout" 2>"$tmp/stderr"
}
run
check "exit 0" "[ $? -eq 0 ]"
for p in msbfs-kron10-n64 msbfs-kron10-n256 msbfs-kron10-n64-a2 msbfs-kron10-n256-a2 bc-kron8-n16; do
    for d in 1 2; do
        check "point $p.${d}dev ran" "grep -q '^$p.${d}dev: rc=0 ' '$tmp/stdout' && [ -s '$tmp/o/json/$p.${d}dev.json' ]"
    done
    check "table row $p, 2 devices" "grep -q '^  $p  *2 .* [0-9.]*x  [0-9.]* ([0-9.]* %)' '$tmp/o/scaling.txt'"
done
check "the first msbfs point validated, the next not" \
    "grep -q '^msbfs-kron10-n64.1dev: rc=0 .*validation passed' '$tmp/stdout' &&
     grep -q '^msbfs-kron10-n64.2dev: rc=0 .*validation skipped' '$tmp/stdout'"
check "the default variant's points before bc, the others after" \
    "[ \$(grep -n '^bc-kron8-n16.1dev' '$tmp/stdout' | cut -d: -f1) -gt \$(grep -n '^msbfs-kron10-n256.2dev' '$tmp/stdout' | cut -d: -f1) ] &&
     [ \$(grep -n '^bc-kron8-n16.2dev' '$tmp/stdout' | cut -d: -f1) -lt \$(grep -n '^msbfs-kron10-n64-a2.1dev' '$tmp/stdout' | cut -d: -f1) ]"
check "scaling.json rows" "python3 - '$tmp/o/scaling.json' <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 10, len(rows)
for r in rows:
    for k in ('point', 'command', 'device_count', 'figure', 'speedup', 'busy_s', 'busy_spread_s',
              'options', 'backend', 'devices', 'commit', 'date', 'validation'):
        assert k in r, (k, r)
    assert r['backend'] == 'cpu' and r['commit'] and r['date'] and r['figure'] > 0, r
    assert len(r['busy_s']) == r['device_count'] == len(r['devices']), r
    assert (r['speedup'] == 1) == (r['device_count'] == 1), r
PY"
check "summary.md and summary.json" "[ -s '$tmp/o/summary.md' ] && [ -s '$tmp/o/summary.json' ]"
run DEADLINE_S=0
check "DEADLINE_S=0: no point started" "grep -q 'msbfs-kron10-n64.1dev: not started (DEADLINE_S)' '$tmp/stdout' && ! grep -q ': rc=' '$tmp/stdout'"
run VALIDATE=sometimes
check "VALIDATE: a bad value fails by name" "[ $? -ne 0 ] && grep -q 'VALIDATE=sometimes' '$tmp/stdout'"
exit $fail
