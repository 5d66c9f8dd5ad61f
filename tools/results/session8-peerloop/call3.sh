#!/bin/sh
# Session 8, third call: compute-sanitizer racecheck, synccheck and initcheck of
# the device loop (one device, and across 2 and 3 logical devices) on a grid,
# every level of which runs in the loop, and on kron:12.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session8-peerloop/call3.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
say "# session8-peerloop call3 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
awk 'BEGIN { n = 48; m = 0
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) { if (j + 1 < n) m++; if (i + 1 < n) m++ }
    print "%%MatrixMarket matrix coordinate pattern symmetric"; print n * n, n * n, m
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
        v = i * n + j + 1; if (j + 1 < n) print v + 1, v; if (i + 1 < n) print v + n, v } }' \
    >/tmp/grid.mtx
for tool in racecheck synccheck initcheck; do
    for ids in 0 0,0 0,0,0; do
        for g in /tmp/grid.mtx kron:12; do
            [ $(($(date +%s) - T0)) -lt ${BUDGET_S:-500} ] || { say "$tool $ids $g: not started (budget)"; continue; }
            log=$OUT/$tool-$(echo $ids | tr , _)-$(basename $g | tr : _).log
            timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool $tool --error-exitcode 9 \
                "$B" bfs "$g" --backend cuda --device-ids $ids --contract atomic --roots 2 >"$log" 2>&1
            say "$tool --device-ids $ids $(basename $g): rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY\|validation' "$log" | tr '\n' ' ')"
        done
    done
done
say "done ($(($(date +%s) - T0)) s)"
