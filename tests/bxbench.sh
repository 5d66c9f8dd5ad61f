#!/bin/sh
# tools/bxbench end to end on a tiny sweep (kron:10, 2 cpu devices, 2 methods,
# 4 roots): runs.csv has one row per point with the right columns and the
# values of each JSON report; --resume re-runs nothing and rewrites the same
# CSV; a deleted report is the only point re-run; a failed validation fails
# the sweep by name; a corrupt CSV makes tools/bxplot name FILE:LINE, exit 1.
# The direction experiment (--quick): top-down and auto rows per graph and
# device count, bitmap bytes as the reports count them, 0 for top-down.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
tools=$(source_dir tools bxbench) || exit 99
sweep() {
    python3 "$tools/bxbench" --boxbfs "$BOXBFS" --out "$tmp/o" --scales 10 --devices 2 \
        --backends cpu --contracts sort-unique,valid-flag --link-models expether-2x10g \
        --roots 4 "$@" >"$tmp/stdout" 2>"$tmp/log"
}

sweep
check "sweep exit 0" "[ $? -eq 0 ]"
check "two points run" "[ \$(grep -c '] run ' '$tmp/log') -eq 2 ]"
check "summary table on stdout" "grep -q '^| 2^10 | 2 | cpu | valid-flag | byte | list | peer |' '$tmp/stdout'"
check "summary.md written" "cmp -s '$tmp/stdout' '$tmp/o/summary.md'"
check "graph generated once as .bbcsr" "[ -s '$tmp/o/graphs/kron10.bbcsr' ]"
check "CSV rows and columns match the JSON reports" "python3 - '$tmp/o' <<'EOF'
import csv, json, math, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, 'runs.csv'))))
cols = ('point graph scale vertices edges devices backend contract visited wire exchange '
        'direction link_model roots gteps_hmean gteps_min gteps_q1 gteps_median gteps_q3 '
        'gteps_max time_s_median bytes_per_bfs frontier_bytes_per_bfs '
        'frontier_bitmap_bytes_per_bfs link_bytes '
        'modeled_exchange_s_per_bfs expand_s contract_s exchange_s update_s device_names '
        'commit date partition grid messages_per_bfs expand_bytes_per_bfs '
        'fold_bytes_per_bfs').split()
assert list(rows[0].keys()) == cols, list(rows[0].keys())
assert len(rows) == 2, len(rows)
assert [r['contract'] for r in rows] == ['sort-unique', 'valid-flag']
close = lambda a, b: math.isclose(float(a), b, rel_tol=1e-8, abs_tol=1e-15)
for r in rows:
    j = json.load(open(os.path.join(out, 'runs', r['point'] + '.json')))
    t = j['traffic']
    assert j['validation'] == 'passed'
    assert r['graph'] == j['graph']['name'] == 'kron:10:16:1' and r['scale'] == '10'
    assert int(r['vertices']) == j['graph']['vertices'] == 1024
    assert int(r['edges']) == j['graph']['edges'] and int(r['roots']) == len(j['runs']) == 4
    assert int(r['devices']) == j['device_count'] == 2 and r['backend'] == 'cpu'
    assert r['contract'] == j['options']['contract'] and r['wire'] == j['options']['wire']
    assert r['visited'] == 'byte' and r['exchange'] == 'peer'
    # no --directions: boxbfs's default, which the id does not name
    assert r['direction'] == j['options']['direction'] == 'auto'
    assert r['point'].endswith('_expether-2x10g_r4'), r['point']
    assert r['link_model'] == t['link_model']['name'] == 'expether-2x10g'
    for k, q in (('hmean', 'harmonic_mean'), ('min', 'min'), ('q1', 'q1'),
                 ('median', 'median'), ('q3', 'q3'), ('max', 'max')):
        assert close(r['gteps_' + k], j['teps'][q] / 1e9), k
    assert close(r['time_s_median'], j['time_s']['median'])
    assert close(r['bytes_per_bfs'], t['bytes_per_bfs'])
    assert close(r['frontier_bytes_per_bfs'], t['phases']['frontier_exchange'] / t['searches'])
    assert close(r['frontier_bitmap_bytes_per_bfs'],
                 t['phases']['frontier_bitmap'] / t['searches'])
    links = dict(x.split(':') for x in r['link_bytes'].split(';'))
    assert set(links) == {'0>1', '1>0'}, links
    for l in t['links']:
        assert close(links['%d>%d' % (l['src'], l['dst'])], l['bytes'] / t['searches'])
    assert close(r['modeled_exchange_s_per_bfs'], t['modeled_exchange_s_per_bfs'])
    for p in ('expand_s', 'contract_s', 'exchange_s', 'update_s'):
        assert close(r[p], sum(L[p] for L in t['levels'])), p
    assert r['device_names'] == ';'.join(d['name'] for d in j['devices'])
    assert r['commit'] == j['commit'] and r['date'].endswith('Z')
EOF"
cp "$tmp/o/runs.csv" "$tmp/first.csv"
touch "$tmp/mark"

sweep --resume
check "resume exit 0" "[ $? -eq 0 ]"
check "resume runs nothing" "! grep -q '] run ' '$tmp/log' && [ \$(grep -c '] skip ' '$tmp/log') -eq 2 ]"
check "resume touches no report" "[ -z \"\$(find '$tmp/o/runs' -newer '$tmp/mark' -name '*.json')\" ]"
check "resume rewrites the same CSV" "cmp -s '$tmp/first.csv' '$tmp/o/runs.csv'"

gone=$(ls "$tmp/o/runs" | grep 'valid-flag.*\.json$')
rm -f "$tmp/o/runs/$gone"
sweep --resume
check "resume after a deleted report exit 0" "[ $? -eq 0 ]"
check "only the deleted point runs" "[ \$(grep -c '] run ' '$tmp/log') -eq 1 ] && grep -q '] run ${gone%.json} ' '$tmp/log'"
check "its report is back" "[ -s '$tmp/o/runs/$gone' ]"
check "the other row is unchanged" "[ \"\$(sed -n 2p '$tmp/first.csv')\" = \"\$(sed -n 2p '$tmp/o/runs.csv')\" ]"
check "still two rows" "[ \$(wc -l <'$tmp/o/runs.csv') -eq 3 ]"

# bxcollect rebuilds the same rows from the reports alone (runs made by gpu-check)
python3 "$tools/bxcollect" "$tmp"/o/runs/*.json --out "$tmp/collected.csv" 2>/dev/null
check "bxcollect: same rows as bxbench" "[ \"\$(sort '$tmp/collected.csv')\" = \"\$(sort '$tmp/o/runs.csv')\" ]"
echo '{"graph": {}}' >"$tmp/partial.json"
python3 "$tools/bxcollect" "$tmp/partial.json" --out "$tmp/x.csv" 2>"$tmp/err"
check "bxcollect: partial report named, exit 1" "[ $? -eq 1 ] && grep -q 'partial.json: report lacks a field' '$tmp/err'"

# A run whose validation fails is an error of the sweep, named.
cat >"$tmp/fakebox" <<'EOF'
#!/bin/sh
# boxbfs stand-in: convert makes the file; bfs writes a failed report, exit 2.
[ "$1" = convert ] && { : >"$3"; exit 0; }
while [ $# -gt 1 ]; do [ "$1" = --json ] && echo '{"validation": "failed"}' >"$2"; shift; done
echo "validation: FAIL (parent of 17 is not a neighbor)"; exit 2
EOF
chmod +x "$tmp/fakebox"
python3 "$tools/bxbench" --boxbfs "$tmp/fakebox" --out "$tmp/bad" --scales 10 --devices 2 \
    --contracts valid-flag --roots 4 >/dev/null 2>"$tmp/log"
check "failed validation: exit 1" "[ $? -eq 1 ]"
check "failed validation: named" "grep -q 'kron10_d2_cpu_valid-flag.*validation FAILED' '$tmp/log' && grep -q '1 of 1 points FAILED' '$tmp/log'"
check "failed validation: report and log kept aside" "[ -s \"\$(ls '$tmp'/bad/runs/*.failed.json)\" ] && grep -q 'parent of 17' '$tmp'/bad/runs/*.log && [ -z \"\$(ls '$tmp'/bad/runs/ | grep -v -e failed.json -e '.log\$')\" ]"

# Corrupt CSVs: bxplot names the file and line, exit 1 (before it needs gnuplot).
csv=$tmp/o/runs.csv
head -c $(($(wc -c <"$csv") - 40)) "$csv" >"$tmp/trunc.csv"
python3 "$tools/bxplot" "$tmp/trunc.csv" --out "$tmp/p" >/dev/null 2>"$tmp/err"
check "truncated line: exit 1" "[ $? -eq 1 ]"
check "truncated line: FILE:3 named" "grep -q 'trunc.csv:3: ' '$tmp/err'"
sed '2s/,cpu,/,cpu,/; 2s/^\([^,]*,[^,]*,[^,]*,\)[0-9]*,/\1lots,/' "$csv" >"$tmp/nan.csv"
python3 "$tools/bxplot" "$tmp/nan.csv" --out "$tmp/p" >/dev/null 2>"$tmp/err"
check "non-numeric value: exit 1" "[ $? -eq 1 ]"
check "non-numeric value: FILE:2 and column named" "grep -q \"nan.csv:2: column 'vertices': 'lots' is not an integer\" '$tmp/err'"
sed '1s/,gteps_median,/,gteps_med,/' "$csv" >"$tmp/col.csv"
python3 "$tools/bxplot" "$tmp/col.csv" --out "$tmp/p" >/dev/null 2>"$tmp/err"
check "missing column: exit 1" "[ $? -eq 1 ]"
check "missing column: named" "grep -q \"col.csv:1: missing column gteps_median\" '$tmp/err'"
sed '3s/,[^,]*,[^,]*$//' "$csv" >"$tmp/short.csv"
python3 "$tools/bxplot" "$tmp/short.csv" --out "$tmp/p" >/dev/null 2>"$tmp/err"
check "short line: exit 1 naming FILE:3" "[ $? -eq 1 ] && grep -q 'short.csv:3: 36 fields, the header has 38' '$tmp/err'"

# A CSV from before the direction columns reads as top-down with no bitmap bytes.
data=${TESTDATA:-$(dirname "$0")/data}
check "old CSV: direction top-down, bitmap 0" "python3 - '$tools' '$data/bxplot_tiny.csv' <<'EOF'
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import bxlib
rows = bxlib.read_csv(sys.argv[2])
assert len(rows) == 8 and 'direction' not in open(sys.argv[2]).readline()
assert all(r['direction'] == 'top-down' and r['frontier_bitmap_bytes_per_bfs'] == 0.0
           for r in rows)
EOF"

# The direction experiment, quick: kron:10-12 x 2, 4, 8 devices x top-down, auto.
python3 "$tools/bxbench" direction --quick --boxbfs "$BOXBFS" --out "$tmp/d" --roots 4 \
    >"$tmp/stdout" 2>"$tmp/log"
check "direction: exit 0, 18 points run" "[ $? -eq 0 ] && [ \$(grep -c '] run ' '$tmp/log') -eq 18 ]"
check "direction: summary.md on stdout" "cmp -s '$tmp/stdout' '$tmp/d/summary.md'"
check "direction: rows, bitmap bytes and modeled time match the reports" "python3 - '$tmp/d' <<'EOF'
import csv, json, math, os, re, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, 'runs.csv'))))
close = lambda a, b: math.isclose(float(a), b, rel_tol=1e-8, abs_tol=1e-15)
assert len(rows) == 18, len(rows)
assert sorted((r['scale'], r['devices'], r['direction']) for r in rows) == sorted(
    (s, n, d) for s in '10 11 12'.split() for n in '2 4 8'.split() for d in ('top-down', 'auto'))
reps = {}
for r in rows:
    j = json.load(open(os.path.join(out, 'runs', r['point'] + '.json')))
    t, n = j['traffic'], j['device_count']
    reps[(r['scale'], r['devices'], r['direction'])] = j
    assert j['validation'] == 'passed' and j['command'] == 'bfs'
    assert r['point'].endswith('_expether-2x10g_%s_r4' % r['direction']), r['point']
    assert r['direction'] == j['options']['direction']
    assert (r['backend'], r['contract'], r['wire']) == ('cpu', 'valid-flag', 'list')
    assert int(r['devices']) == n and int(r['roots']) == t['searches'] == 4
    assert close(r['frontier_bitmap_bytes_per_bfs'], t['phases']['frontier_bitmap'] / 4)
    assert close(r['frontier_bytes_per_bfs'], t['phases']['frontier_exchange'] / 4)
    assert close(r['bytes_per_bfs'], sum(t['phases'].values()) / 4)
    assert close(r['modeled_exchange_s_per_bfs'], t['modeled_exchange_s_per_bfs'])
    bitmap, msgs = t['phases']['frontier_bitmap'], t['phase_messages']['frontier_bitmap']
    if r['direction'] == 'top-down':
        assert float(r['frontier_bitmap_bytes_per_bfs']) == 0 and bitmap == msgs == 0
        assert {L['direction'] for L in t['levels']} == {'top-down'}
    else:
        # each bottom-up level all-gathers the whole bitmap (V/8 bytes, parts
        # rounded up to 32-bit words) to the n - 1 other devices
        assert bitmap > 0 and msgs % (n * (n - 1)) == 0, (bitmap, msgs)
        per_level = bitmap * n * (n - 1) / msgs / (n - 1)
        V = int(r['vertices'])
        assert V / 8 <= per_level < V / 8 + 4 * n, (per_level, V)
        bu = [L for L in t['levels'] if L['direction'] == 'bottom-up']
        assert all(L['sent_vertices'] == L['undone_vertices'] and L['bytes'] >= per_level * (n - 1)
                   for L in bu)
# both directions search from the same roots and reach the same vertices at the same depth
for (s, n, d), j in reps.items():
    if d == 'auto':
        td = reps[(s, n, 'top-down')]
        assert [(x['root'], x['reached'], x['levels']) for x in j['runs']] == \\
            [(x['root'], x['reached'], x['levels']) for x in td['runs']]
# the summary's change against top-down, from the CSV's numbers
text = open(os.path.join(out, 'summary.md')).read()
for r in rows:
    if r['direction'] != 'auto':
        continue
    td = next(x for x in rows if x['direction'] == 'top-down' and
              (x['scale'], x['devices']) == (r['scale'], r['devices']))
    pct = lambda c: '%+.1f%%' % (100 * (float(r[c]) - float(td[c])) / float(td[c]))
    line = '| 2^%s | %s | auto | ' % (r['scale'], r['devices'])
    got = [l for l in text.splitlines() if l.startswith(line)]
    assert len(got) == 1, line
    assert pct('bytes_per_bfs') in got[0] and pct('modeled_exchange_s_per_bfs') in got[0], got
EOF"
python3 "$tools/bxbench" direction --quick --boxbfs "$BOXBFS" --out "$tmp/d" --roots 4 \
    --resume >/dev/null 2>"$tmp/log"
check "direction: resume runs nothing" "[ $? -eq 0 ] && [ \$(grep -c '] skip ' '$tmp/log') -eq 18 ] && ! grep -q '] run ' '$tmp/log'"
python3 "$tools/bxbench" --boxbfs "$BOXBFS" --directions top-down,sideways --out "$tmp/x" \
    >/dev/null 2>"$tmp/err"
check "--directions: a bad value is a usage error, named" "[ $? -ne 0 ] && grep -q \"'sideways' is not one of top-down, bottom-up, auto\" '$tmp/err'"
exit $fail
