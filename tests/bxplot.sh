#!/bin/sh
# tools/bxplot on tests/data/bxplot_tiny.csv (8 points: 2^10 and 2^11, 2 and
# 3 devices, sort-unique and valid-flag): non-empty SVGs whose series (the
# .dat files gnuplot drew) hold the CSV's values and whose legends name the
# series; with $BOXBFS, the per-level figures of a run report hold its levels.
# tests/data/bxplot_direction.csv (bxbench direction --quick --scales 10,11
# --roots 4): bytes and modeled time per BFS per graph and direction; with
# $BOXBFS, a top-down run and its auto twin drawn level by level. --summary:
# GTEPS against GPU count from benchmarks/results summaries (made-up rows, and
# the committed one the README's figure comes from).
set -u
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not found"; exit 77; }
data=${TESTDATA:-$(dirname "$0")/data}
. "$(dirname "$0")/testlib.sh"
tools=$(source_dir tools bxplot) || exit 99
# the checks below read the figures back through tests/figures.py
PYTHONPATH=$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}
export PYTHONPATH PYTHONDONTWRITEBYTECODE=1

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

from figures import close, reader
series, legend = reader(out)
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
from figures import reader
series, legend = reader(out)
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
# top-down vs direction-optimizing
python3 "$tools/bxplot" "$data/bxplot_direction.csv" --out "$tmp/d" --format svg \
    >"$tmp/made" 2>"$tmp/err"
check "direction: bxplot exit 0" "[ $? -eq 0 ]"
for f in direction_bytes direction_modeled; do
    check "direction: $f.svg non-empty, .dat and .gp beside it" \
        "[ -s '$tmp/d/$f.svg' ] && [ -s '$tmp/d/$f.dat' ] && [ -s '$tmp/d/$f.gp' ]"
done
check "direction: no per-level twins without their reports" "[ ! -e '$tmp/d/direction_level_bytes.svg' ]"
check "direction: no direction figures for a top-down-only CSV" "[ ! -e '$tmp/f/direction_bytes.svg' ]"
check "direction: series match the CSV, legends name them" "python3 - '$data/bxplot_direction.csv' '$tmp/d' <<'EOF'
import csv, html, math, os, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2]
assert len(rows) == 12

from figures import close, reader
series, legend = reader(out)
mine = lambda s, d: sorted((r for r in rows if r['scale'] == s and r['direction'] == d),
                           key=lambda r: int(r['devices']))
b, m = series('direction_bytes'), series('direction_modeled')
tb, tm = legend('direction_bytes'), legend('direction_modeled')
want = {'2^%s, %s' % (s, d) for s in ('10', '11') for d in ('top-down', 'auto')}
assert set(m) == want, set(m)
assert set(b) == want | {'2^10, auto: its bitmap all-gather part',
                         '2^11, auto: its bitmap all-gather part'}, set(b)
assert 'expether-2x10g' in tm and 'devices' in tb and '(kB)' in tb and '(us)' in tm
for title in b:
    assert title in tb, title
for title in m:
    assert title in tm, title
for s in ('10', '11'):
    for d in ('top-down', 'auto'):
        t = '2^%s, %s' % (s, d)
        assert [p[0] for p in b[t]] == [p[0] for p in m[t]] == [2.0, 4.0, 8.0]
        for p, q, r in zip(b[t], m[t], mine(s, d)):
            assert close(p[1], r['bytes_per_bfs']) and close(p[2], r['frontier_bytes_per_bfs'])
            assert close(p[3], r['frontier_bitmap_bytes_per_bfs'])
            assert close(q[1], r['modeled_exchange_s_per_bfs'])
        if d == 'top-down':
            assert all(p[3] == 0 for p in b[t])
    bits = b['2^%s, auto: its bitmap all-gather part' % s]
    assert [(p[0], p[1]) for p in bits] == [(float(r['devices']),
                                            float(r['frontier_bitmap_bytes_per_bfs']))
                                           for r in mine(s, 'auto')]
    # auto sends fewer bytes than top-down on every point of this CSV
    assert all(a[1] < t[1] for a, t in zip(b['2^%s, auto' % s], b['2^%s, top-down' % s]))
# the scale divides the values as the axis label says (kB, us)
gp = open(os.path.join(out, 'direction_bytes.gp')).read()
assert 'using 1:(\$2/1000)' in gp and 'logscale x 2' in gp, gp
assert 'using 1:(\$2/1e-06)' in open(os.path.join(out, 'direction_modeled.gp')).read()
EOF"
if [ -x "${BOXBFS:-}" ]; then
    for d in top-down auto; do
        "$BOXBFS" bfs kron:12 --roots 2 --backend cpu --devices 4 --direction $d \
            --link-model expether-2x10g --json "$tmp/$d.json" >/dev/null 2>&1
    done
    python3 "$tools/bxplot" "$data/bxplot_direction.csv" --out "$tmp/dl" --format svg \
        --json "$tmp/top-down.json" --json "$tmp/auto.json" >/dev/null 2>"$tmp/err"
    check "direction levels: bxplot exit 0" "[ $? -eq 0 ]"
    check "direction levels: lists and bitmap per level match the two reports" "python3 - '$tmp' <<'EOF'
import html, json, math, os, re, sys
tmp = sys.argv[1]
td = json.load(open(os.path.join(tmp, 'top-down.json')))['traffic']
au = json.load(open(os.path.join(tmp, 'auto.json')))['traffic']
assert td['levels_root'] == au['levels_root']
bu = [L for L in au['levels'] if L['direction'] == 'bottom-up']
assert bu and td['phases']['frontier_bitmap'] == 0 < au['phases']['frontier_bitmap']
out = os.path.join(tmp, 'dl')

from figures import reader
series, legend = reader(out)

same = lambda a, b: len(a) == len(b) and all(
    len(p) == len(q) and all(math.isclose(x, y, rel_tol=1e-9) for x, y in zip(p, q))
    for p, q in zip(a, b))
for name, col in (('direction_level_bytes', 'bytes'),
                  ('direction_level_modeled', 'modeled_exchange_s')):
    s = series(name)
    text = html.unescape(re.sub(r'<[^>]+>', '', open(os.path.join(out, name + '.svg')).read()))
    t1 = 'top-down run: frontier lists (every level top-down)'
    t2 = 'auto run, top-down levels: frontier lists'
    t3 = 'auto run, bottom-up levels: frontier bitmap all-gather'
    assert set(s) == {t1, t2, t3} and all(t in text for t in (t1, t2, t3)), set(s)
    assert 'root %d' % td['levels_root'] in text
    # x: level - 0.2 for the top-down run, level + 0.2 for its twin; zeros are not drawn
    assert same(s[t1], [[L['level'] - 0.2, L[col]] for L in td['levels'] if L[col] > 0])
    assert same(s[t2], [[L['level'] + 0.2, L[col]] for L in au['levels']
                        if L[col] > 0 and L['direction'] == 'top-down']), (s[t2], col)
    assert same(s[t3], [[L['level'] + 0.2, L[col]] for L in bu if L[col] > 0])
# a bottom-up level sends at least the whole bitmap (V / 8 bytes) to each of the 3 others
assert all(L['bytes'] >= 4096 / 8 * 3 for L in bu)
EOF"
fi
# GTEPS against GPU count from benchmarks/results summaries (--summary): one
# series per graph, direction and varying option, the newest row at each GPU
# count; logical devices of one GPU, other graphs than Kronecker's, other
# commands and failed validations are left out
python3 - "$tmp/summary.json" <<'EOF'
import json, sys
def row(graph, n, direction, teps, date, commit, relabel="none", command="bfs",
        validation="passed", logical=False):
    devs = ["NVIDIA H200 (0000:%02x:00.0)" % (0 if logical else d) for d in range(n)]
    return {"command": command, "graph": graph, "backend": "cuda", "device_count": n,
            "devices": devs, "options": {"direction": direction, "relabel": relabel},
            "teps": teps, "time_s": 1e-3, "validation": validation, "commit": commit,
            "date": date, "point": "p"}
json.dump([row("kron:10", 1, "auto", 100e9, "2026-11-01T00:00:00Z", "aaa"),
           row("kron:10", 2, "auto", 150e9, "2026-11-01T00:00:00Z", "aaa"),
           row("kron:10", 2, "auto", 160e9, "2026-11-02T00:00:00Z", "bbb"),
           row("kron:10", 1, "auto", 120e9, "2026-11-01T00:00:00Z", "aaa", relabel="degree"),
           row("kron:10", 1, "top-down", 20e9, "2026-11-01T00:00:00Z", "aaa"),
           row("kron:10", 4, "top-down", 50e9, "2026-11-01T00:00:00Z", "aaa"),
           row("kron:10", 2, "top-down", 99e9, "2026-11-03T00:00:00Z", "ccc", logical=True),
           row("kron:10", 2, "top-down", 98e9, "2026-11-03T00:00:00Z", "ccc", validation="failed"),
           row("kron:10", 2, "auto", 999e9, "2026-11-03T00:00:00Z", "ccc", command="msbfs"),
           row("road.mtx", 2, "auto", 1e9, "2026-11-03T00:00:00Z", "ccc")],
          open(sys.argv[1], "w"))
EOF
python3 "$tools/bxplot" --summary "$tmp/summary.json" --out "$tmp/s" --format svg >"$tmp/made" 2>"$tmp/err"
check "summary: bxplot exit 0, scaling_gteps.svg only" \
      "[ $? -eq 0 ] && [ \"\$(cat '$tmp/made')\" = '$tmp/s/scaling_gteps.svg' ] && [ -s '$tmp/s/scaling_gteps.svg' ]"
check "summary: GTEPS per GPU count, the newest row, per graph, direction and relabel" "python3 - '$tmp/s' <<'EOF'
import sys
from figures import reader
series, legend = reader(sys.argv[1])
s = series('scaling_gteps')
assert s == {'kron:10, top-down, relabel none': [[1.0, 20.0, 'aaa'], [4.0, 50.0, 'aaa']],
             'kron:10, auto, relabel degree': [[1.0, 120.0, 'aaa']],
             'kron:10, auto, relabel none': [[1.0, 100.0, 'aaa'], [2.0, 160.0, 'bbb']]}, s
text = legend('scaling_gteps')
assert all(t in text for t in s) and '4 GPUs' in text and 'H200' in text, text
EOF"
benchmarks=$(cd "$tools/../benchmarks/results" 2>/dev/null && pwd)
python3 "$tools/bxplot" --summary "$benchmarks/2026-11-27-h200-x2-hubs.json" --out "$tmp/h" \
    --format svg >/dev/null 2>"$tmp/err"
check "summary: the README's figure from its committed summary" \
      "[ $? -eq 0 ] && grep -q '^# series: kron:26, auto' '$tmp/h/scaling_gteps.dat'"
python3 "$tools/bxplot" --out "$tmp/n" >/dev/null 2>"$tmp/err"
check "nothing to draw: exit 1, says what to give" \
      "[ $? -eq 1 ] && grep -q 'nothing to draw: give a runs.csv, --summary' '$tmp/err'"
# no gnuplot: a clear message, exit 1
mkdir "$tmp/bin"
py=$(python3 -c 'import sys; print(sys.executable)')
PATH="$tmp/bin" "$py" "$tools/bxplot" "$data/bxplot_tiny.csv" --out "$tmp/g" \
    >/dev/null 2>"$tmp/err"
check "without gnuplot: exit 1 and the package named" \
    "[ $? -eq 1 ] && grep -q 'bxplot: gnuplot not found: apt-get install gnuplot-nox' '$tmp/err'"
exit $fail
