#!/bin/sh
# tools/bxplot on tests/data/bxplot_tiny.csv (8 points: 2^10 and 2^11, 2 and
# 3 devices, sort-unique and valid-flag): non-empty SVGs whose series (the
# .dat files gnuplot drew) hold the CSV's values and whose legends name the
# series; with $BOXBFS, the per-level figures of a run report hold its levels.
set -u
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not found"; exit 77; }
tools=$(cd "$(dirname "$0")/../tools" 2>/dev/null && pwd)
[ -f "$tools/bxplot" ] || tools=$(cd "${TESTDATA:-.}/../../tools" 2>/dev/null && pwd)
[ -f "$tools/bxplot" ] || { echo "tools/bxplot not found"; exit 99; }
data=${TESTDATA:-$(dirname "$0")/data}
. "$(dirname "$0")/testlib.sh"

json=""
if [ -x "${BOXBFS:-}" ]; then
    "$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 3 --link-model expether-2x10g \
        --json "$tmp/run.json" >/dev/null 2>&1 && json="--json $tmp/run.json"
fi
python3 "$tools/bxplot" "$data/bxplot_tiny.csv" --out "$tmp/f" --format svg $json \
    >"$tmp/made" 2>"$tmp/err"
check "bxplot exit 0" "[ $? -eq 0 ]"
for f in traffic gteps_kron_10_16_1 gteps_kron_11_16_1 modeled; do
    check "$f.svg non-empty, .dat and .gp beside it" \
        "[ -s '$tmp/f/$f.svg' ] && [ -s '$tmp/f/$f.dat' ] && [ -s '$tmp/f/$f.gp' ]"
done
check "series match the CSV, legends name them" "python3 - '$data/bxplot_tiny.csv' '$tmp/f' <<'EOF'
import csv, html, math, os, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2]
assert len(rows) == 8

def num(x):
    try:
        return float(x)
    except ValueError:
        return x

def series(name):
    blocks, cur = {}, None
    for line in open(os.path.join(out, name + '.dat')):
        if line.startswith('# series: '):
            cur = blocks.setdefault(line[10:].strip(), [])
        elif line.strip() and not line.startswith('#'):
            cur.append([num(x) for x in line.split()])
    return blocks

def legend(name):
    svg = open(os.path.join(out, name + '.svg')).read()
    assert svg.lstrip().startswith('<?xml') and '</svg>' in svg
    return html.unescape(re.sub(r'<[^>]+>', '', svg))

close = lambda a, b: math.isclose(a, float(b), rel_tol=1e-9)
# traffic: one series per (contract, devices); x = log2 vertices, y = frontier bytes
s = series('traffic')
want = {'%s, %s devices' % (c, n) for c in ('sort-unique', 'valid-flag') for n in (2, 3)}
assert set(s) == want, set(s)
text = legend('traffic')
for title, pts in s.items():
    assert title in text, title
    c, n = title.split(', ')
    mine = sorted((r for r in rows if r['contract'] == c and r['devices'] == n.split()[0]),
                  key=lambda r: int(r['vertices']))
    assert len(pts) == len(mine) == 2
    for p, r in zip(pts, mine):
        assert close(p[0], math.log2(int(r['vertices'])))
        assert close(p[1], r['frontier_bytes_per_bfs']) and close(p[2], r['bytes_per_bfs'])
# valid-flag sends less than sort-unique in every point of the CSV
for n in ('2 devices', '3 devices'):
    for a, b in zip(s['valid-flag, ' + n], s['sort-unique, ' + n]):
        assert a[1] < b[1]
# GTEPS: one figure per graph, one series per contract; (devices, x, hmean, q1, q3)
for g, v in (('kron_10_16_1', '1024'), ('kron_11_16_1', '2048')):
    s = series('gteps_' + g)
    assert set(s) == {'sort-unique', 'valid-flag'}, set(s)
    text = legend('gteps_' + g)
    for c, pts in s.items():
        assert c in text
        mine = sorted((r for r in rows if r['contract'] == c and r['vertices'] == v),
                      key=lambda r: int(r['devices']))
        assert [p[0] for p in pts] == [float(r['devices']) for r in mine] == [2.0, 3.0]
        for p, r in zip(pts, mine):
            assert close(p[2], r['gteps_hmean']) and close(p[3], r['gteps_q1'])
            assert close(p[4], r['gteps_q3'])
# modeled vs measured: every point once, by contract
s = series('modeled')
text = legend('modeled')
for c in ('sort-unique', 'valid-flag'):
    assert c in text
    got = sorted((p[0], p[1]) for p in s[c])
    mine = sorted((float(r['time_s_median']), float(r['modeled_exchange_s_per_bfs']))
                  for r in rows if r['contract'] == c)
    assert len(got) == 4 and all(close(a[0], b[0]) and close(a[1], b[1])
                                 for a, b in zip(got, mine))
assert 'expether-2x10g' in text
EOF"
if [ -n "$json" ]; then
    check "per-level figures from the run report" "python3 - '$tmp/run.json' '$tmp/f' <<'EOF'
import html, json, math, os, re, sys
levels = json.load(open(sys.argv[1]))['traffic']['levels']
same = lambda a, b: len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-15)
                                             for x, y in zip(a, b))
out = sys.argv[2]
def num(x):
    try:
        return float(x)
    except ValueError:
        return x

def series(name):
    blocks, cur = {}, None
    for line in open(os.path.join(out, name + '.dat')):
        if line.startswith('# series: '):
            cur = blocks.setdefault(line[10:].strip(), [])
        elif line.strip() and not line.startswith('#'):
            cur.append([num(x) for x in line.split()])
    return blocks
s = series('level_phases')
text = html.unescape(re.sub(r'<[^>]+>', '', open(os.path.join(out, 'level_phases.svg')).read()))
for p in ('expand', 'contract', 'exchange', 'update'):
    t = p + ' (measured)'
    assert t in text and same([q[1] for q in s[t]], [L[p + '_s'] for L in levels]), t
assert same([q[1] for q in s['exchange modeled on expether-2x10g']],
            [L['modeled_exchange_s'] for L in levels])
b = series('level_bytes')
assert sum(sum(q[1] for q in pts) for pts in b.values()) == sum(L['bytes'] for L in levels)
assert [q[0] for q in next(iter(b.values()))] == [L['level'] for L in levels]
EOF"
fi
# no gnuplot: a clear message, exit 1
mkdir "$tmp/bin"
py=$(python3 -c 'import sys; print(sys.executable)')
PATH="$tmp/bin" "$py" "$tools/bxplot" "$data/bxplot_tiny.csv" --out "$tmp/g" \
    >/dev/null 2>"$tmp/err"
check "without gnuplot: exit 1 and the package named" \
    "[ $? -eq 1 ] && grep -q 'bxplot: gnuplot not found: apt-get install gnuplot-nox' '$tmp/err'"
exit $fail
