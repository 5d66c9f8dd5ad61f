#!/bin/sh
# The CLI end to end: the default report shape, JSON fields scripts rely on,
# --output with external ids, usage errors (exit 1 with a message), the
# traffic CSV, --backend cpu never starting the GPU driver, and on a
# terminal the setup's elapsed time with each warning on a line of its own.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"

"$BOXBFS" bfs kron:10 --roots 8 --backend cpu --devices 3 --contract valid-flag --wire auto \
    --link-model expether-2x10g --json "$tmp/r.json" --traffic-csv "$tmp/t.csv" >"$tmp/out" 2>"$tmp/err"
check "bfs exit 0" "[ $? -eq 0 ]"
check "text verdict" "grep -q '^validation: PASS' '$tmp/out'"
check "harmonic mean line" "grep -q '^harmonic_mean_TEPS: [0-9]' '$tmp/out'"
check "per-link matrix" "grep -q 'bytes per BFS on each link' '$tmp/out'"
for key in '"graph"' '"vertices": 1024' '"backend": "cpu"' '"runs"' '"teps"' '"teps_arc"' \
           '"harmonic_mean"' '"validation": "passed"' '"options"' '"version"' '"commit"' \
           '"traffic"' '"links"' '"levels"' '"phases"' '"modeled_exchange_s"' \
           '"link_model"' '"memory_bytes"' '"name": "expether-2x10g"'; do
    check "json has $key" "grep -qF '$key' '$tmp/r.json'"
done
if command -v python3 >/dev/null 2>&1; then
    check "json parses, 8 runs, links sum to total, per level too" "python3 -c '
import json,sys
r=json.load(open(\"$tmp/r.json\"))
t=r[\"traffic\"]
assert len(r[\"runs\"])==8 and all(x[\"validated\"] for x in r[\"runs\"])
assert sum(l[\"bytes\"] for l in t[\"links\"])==t[\"total_bytes\"]==sum(t[\"phases\"].values())
assert all(sum(k[\"bytes\"] for k in L[\"links\"])==L[\"bytes\"] for L in t[\"levels\"])
'"
    check "json: every search its levels' time and the rest outside them" "python3 -c '
import json,statistics
r=json.load(open(\"$tmp/r.json\"))
R=r[\"runs\"]
assert all(0 < x[\"levels_s\"] <= x[\"time_s\"] for x in R)
assert all(abs(x[\"time_s\"]-x[\"levels_s\"]-x[\"outside_levels_s\"]) < 1e-12 for x in R)
first=sum(l[\"time_s\"] for l in r[\"traffic\"][\"levels\"])
assert abs(R[0][\"levels_s\"]-first) < 1e-9
assert abs(r[\"outside_levels_s\"][\"median\"]-statistics.median(x[\"outside_levels_s\"] for x in R)) < 1e-12
'"
fi
check "text: median_outside_levels_s" "grep -q '^median_outside_levels_s: [0-9]' '$tmp/out'"
check "csv header" "head -1 '$tmp/t.csv' | grep -q '^kind,src,dst,level,phase,bytes,messages'"
check "csv link rows" "[ \$(grep -c '^link,' '$tmp/t.csv') -eq 6 ]"

# --output: one line per vertex, Matrix Market ids are 1-based
cat >"$tmp/g.mtx" <<'MTX'
%%MatrixMarket matrix coordinate pattern symmetric
4 4 3
2 1
3 2
4 3
MTX
"$BOXBFS" bfs "$tmp/g.mtx" --root 1 --backend cpu --devices 2 --output "$tmp/o.txt" >/dev/null 2>&1
check "output exit 0" "[ $? -eq 0 ]"
check "output lines" "[ \"\$(cat '$tmp/o.txt' | tr '\n' ';')\" = '1 0 1;2 1 1;3 2 2;4 3 3;' ]"

# missing peer access: staged through the host, said on stderr, same bytes
# (valid-flag: host-driven levels either way; atomic's search across devices
# needs peer access and books its own protocol; no device loop, which needs
# peer access too and may send the lists of a level it undoes)
"$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 3 --contract valid-flag --device-loop 0 \
    --json "$tmp/p.json" >/dev/null 2>&1
BOXBFS_DISABLE_PEER=1 "$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 3 --contract valid-flag \
    --device-loop 0 --json "$tmp/h.json" >/dev/null 2>"$tmp/hw"
check "no peer access: warning" "grep -q 'using the host-staged exchange' '$tmp/hw'"
check "no peer access: same bytes" "[ \"\$(grep -m1 total_bytes '$tmp/p.json')\" = \"\$(grep -m1 total_bytes '$tmp/h.json')\" ]"

# usage errors: exit 1 and a message naming the problem
"$BOXBFS" bfs kron:8 --contract fastest >/dev/null 2>"$tmp/e1"; rc=$?
check "bad --contract exit 1" "[ $rc -eq 1 ] && grep -q \"unknown value 'fastest'\" '$tmp/e1'"
"$BOXBFS" bfs kron:8 --root 999999 --backend cpu >/dev/null 2>"$tmp/e2"; rc=$?
check "root out of range exit 1" "[ $rc -eq 1 ] && grep -q '999999' '$tmp/e2'"
"$BOXBFS" bfs kron:8 --devices 0 >/dev/null 2>"$tmp/e3"; rc=$?
check "--devices 0 exit 1" "[ $rc -eq 1 ] && grep -q 'devices' '$tmp/e3'"
"$BOXBFS" bfs kron:8 --expand-k 3 >/dev/null 2>"$tmp/e8"; rc=$?
check "bad --expand-k exit 1" "[ $rc -eq 1 ] && grep -q 'is not auto, 1, 2, 4, 8 or 16' '$tmp/e8'"
"$BOXBFS" bfs kron:8 --link-model warp9 >/dev/null 2>"$tmp/e4"; rc=$?
check "bad link model exit 1" "[ $rc -eq 1 ] && grep -q 'unknown link model' '$tmp/e4'"
# every build: not built in (no NCCL), or NCCL needs the cuda backend
"$BOXBFS" bfs kron:8 --backend cpu --exchange nccl >/dev/null 2>"$tmp/e5"; rc=$?
check "nccl on the cpu backend exit 1" "[ $rc -eq 1 ] && grep -q -e 'not built in' -e 'cuda backend only' '$tmp/e5'"
"$BOXBFS" bfs kron:8 --backend cpu --memory-limit 100 >/dev/null 2>"$tmp/e6"; rc=$?
check "memory limit exit 3" "[ $rc -eq 3 ] && grep -q 'short by' '$tmp/e6'"
"$BOXBFS" bfs kron:8 --backend cpu --parents foo >/dev/null 2>"$tmp/e9"; rc=$?
check "bad --parents exit 1" "[ $rc -eq 1 ] && grep -q \"parents: unknown value 'foo'\" '$tmp/e9'"
"$BOXBFS" bfs kron:8 --backend cpu --search-on sky >/dev/null 2>"$tmp/e12"; rc=$?
check "bad --search-on exit 1" "[ $rc -eq 1 ] && grep -q \"search-on: unknown value 'sky'\" '$tmp/e12'"
"$BOXBFS" bfs kron:8 --backend cpu --hub-degree 0 >/dev/null 2>"$tmp/e14"; rc=$?
check "bad --hub-degree exit 1" "[ $rc -eq 1 ] && grep -q \"hub-degree: '0' is not auto, off or a degree\" '$tmp/e14'"
"$BOXBFS" bfs kron:8 --backend cpu --devices 2 --contract valid-flag --search-on device \
    >/dev/null 2>"$tmp/e13"; rc=$?
check "--search-on device with valid-flag on 2 devices: exit 1, says why" \
      "[ $rc -eq 1 ] && grep -q 'cannot run on these 2 devices at once: it needs --contract atomic' '$tmp/e13'"
"$BOXBFS" bfs kron:8 --backend cpu --devices 4 --partition 2d --direction top-down \
    --parents recompute >/dev/null 2>"$tmp/e10"; rc=$?
check "--parents recompute with --partition 2d: refused" \
      "[ $rc -ne 0 ] && grep -q 'recompute runs with the 1d partition only' '$tmp/e10'"
# a shortfall names every part of the plan and what would help
"$BOXBFS" bfs kron:12 --backend cpu --devices 2 --contract atomic --wire auto --parents keep \
    --search-on host --memory-limit 200000 >/dev/null 2>"$tmp/e11"; rc=$?
check "memory shortfall with kept parents: names the parts, suggests recompute" \
      "[ $rc -eq 3 ] && grep -q 'remote parents .* outbox .* inbox .* parent gather' '$tmp/e11' &&
       grep -q 'or --parents recompute' '$tmp/e11'"
# warnings read as errors do ("boxbfs: warning: MESSAGE"), with the source
# line only under BOXBFS_LOG=debug
"$BOXBFS" bfs kron:12 --backend cpu --memory-limit 1000 >/dev/null 2>"$tmp/w"
BOXBFS_LOG=debug "$BOXBFS" bfs kron:12 --backend cpu --memory-limit 1000 >/dev/null 2>"$tmp/wd"
check "--memory-limit 1000 warns: 'boxbfs: warning: ', no source line" \
      "grep -q '^boxbfs: warning: [^ ]' '$tmp/w' && ! grep -q '\\.cu*:[0-9]' '$tmp/w'"
check "every stderr line starts 'boxbfs: '" "! grep -v '^boxbfs: ' '$tmp/w'"
check "BOXBFS_LOG=debug: the warning's source line after 'warning: '" \
      "grep -q '^boxbfs: warning: src/[a-z0-9_/]*\\.c:[0-9]*: ' '$tmp/wd'"
# --backend cpu never starts the GPU driver: no run loads libcuda (glibc's
# LD_DEBUG names every library a process looks for; a build with CUDA looks
# for libcuda as soon as it counts GPUs)
for cmd in "bfs kron:6 --roots 1" "msbfs kron:6 --sources 4" "bc kron:6 --sources 4" "topo"; do
    # shellcheck disable=SC2086 # cmd: words on purpose
    LD_DEBUG=libs "$BOXBFS" $cmd --backend cpu >/dev/null 2>"$tmp/ld"
    check "${cmd%% *} --backend cpu: exit 0, libcuda not looked for" \
          "[ $? -eq 0 ] && ! grep -q 'libcuda\.so' '$tmp/ld'"
done
"$BOXBFS" frobnicate >/dev/null 2>"$tmp/e7"; rc=$?
check "unknown command exit 1" "[ $rc -eq 1 ] && grep -q 'unknown command' '$tmp/e7'"
"$BOXBFS" bfs --help >"$tmp/h" 2>&1
check "bfs --help" "[ $? -eq 0 ] && grep -q -- '--contract' '$tmp/h'"

# on a terminal (script(1)): the devices' setup shows its elapsed time, and the warnings the
# setup prints under --memory-limit each start a cleared line (not the progress line's end)
if command -v script >/dev/null 2>&1; then
    script -qec "'$BOXBFS' bfs kron:12 --backend cpu --devices 2 --roots 1 --memory-limit 300000" \
        /dev/null >"$tmp/tty" 2>&1
    rc=$?
    cleared=$(printf '\r\033')   # a carriage return, then the escape of "erase the line"
    check "on a terminal: the setup's elapsed time, every warning on a cleared line" \
          "[ $rc -eq 0 ] && grep -q 'setting up the devices \.\.\.' '$tmp/tty' &&
           [ \$(grep -c 'boxbfs: warning' '$tmp/tty') -ge 1 ] &&
           [ \$(grep -c 'boxbfs: warning' '$tmp/tty') -eq \$(grep -c '$cleared\[Kboxbfs: warning' '$tmp/tty') ]"
else
    echo "script(1) not found: the terminal's progress line not checked"
fi
exit $fail
