#!/bin/sh
# tools/bxbench partition (docs/architecture.md, "2D partition") on a tiny sweep (kron:10,
# 4 and 16 cpu devices, three link models, 2 roots): a 1D and a 2D row per
# graph, device count and link model, with the grid, messages and the
# expand/fold bytes of each JSON report; bytes and messages the same on
# every link model, modeled times not; 2D at most half of 1D's messages on
# 16 devices; the summary compares them; tools/bxplot draws the partition
# figures (when gnuplot is there).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
tools=$(source_dir tools bxbench) || exit 99
python3 "$tools/bxbench" partition --boxbfs "$BOXBFS" --out "$tmp/o" --scales 10 \
    --devices 4,16 --roots 2 --link-models nvlink4,expether-2x10g,expether-2x10g-shared \
    >"$tmp/stdout" 2>"$tmp/log"
rc=$?
check "partition sweep exit 0" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || tail -5 "$tmp/log"
check "twelve points run" "[ \$(grep -c '] run ' '$tmp/log') -eq 12 ]"
check "summary compares 1d and 2d" \
    "grep -q '| 2^10 | 16 | nvlink4 | 2d | 4x4 |' '$tmp/stdout' && grep -q '| 2^10 | 16 | nvlink4 | 1d | - |' '$tmp/stdout'"
check "CSV rows match the reports; 2D <= 1D/2 messages on 16 devices" "python3 - '$tmp/o' <<'PY'
import csv, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, 'runs.csv'))))
assert len(rows) == 12, len(rows)
by = {}
for r in rows:
    rep = json.load(open(os.path.join(out, 'runs', r['point'] + '.json')))
    t, o = rep['traffic'], rep['options']
    n = t['searches']
    assert r['partition'] == o['partition']
    assert float(r['messages_per_bfs']) == t['total_messages'] / n
    assert float(r['expand_bytes_per_bfs']) == t['phases']['expand'] / n
    assert float(r['fold_bytes_per_bfs']) == t['phases']['fold'] / n
    if r['partition'] == '2d':
        assert r['grid'] == {'4': '2x2', '16': '4x4'}[r['devices']], r['grid']
        assert float(r['expand_bytes_per_bfs']) > 0 and float(r['frontier_bytes_per_bfs']) == 0
    else:
        assert r['grid'] == '' and float(r['expand_bytes_per_bfs']) == 0
    by[(r['devices'], r['partition'], r['link_model'])] = r
for d in ('4', '16'):
    for p in ('1d', '2d'):
        a, b = by[(d, p, 'nvlink4')], by[(d, p, 'expether-2x10g-shared')]
        assert a['bytes_per_bfs'] == b['bytes_per_bfs'] and a['messages_per_bfs'] == b['messages_per_bfs']
        assert float(a['modeled_exchange_s_per_bfs']) < float(b['modeled_exchange_s_per_bfs'])
        # a shared slot divides its 2.5 GB/s among the copies through it at once
        c = by[(d, p, 'expether-2x10g')]
        assert float(c['modeled_exchange_s_per_bfs']) <= float(b['modeled_exchange_s_per_bfs'])
        if (d, p) == ('16', '1d'):   # 1D: every slot carries a copy out and one in at once
            assert float(c['modeled_exchange_s_per_bfs']) < float(b['modeled_exchange_s_per_bfs'])
m1, m2 = (float(by[('16', p, 'nvlink4')]['messages_per_bfs']) for p in ('1d', '2d'))
assert 2 * m2 <= m1, (m1, m2)
PY"
if command -v gnuplot >/dev/null 2>&1; then
    python3 "$tools/bxplot" "$tmp/o/runs.csv" --format svg --out "$tmp/f" >"$tmp/made" 2>"$tmp/perr"
    check "bxplot draws the partition figures" \
        "[ -s '$tmp/f/partition_messages.svg' ] && [ -s '$tmp/f/partition_bytes.svg' ] && ls '$tmp/f' | grep -q '^partition_modeled.*svg'"
    check "the messages figure has a 1d and a 2d series" \
        "grep -q '2^10, 1d' '$tmp/f/partition_messages.dat' && grep -q '2^10, 2d' '$tmp/f/partition_messages.dat'"
fi
exit $fail
