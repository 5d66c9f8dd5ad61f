#!/bin/sh
# Session 11, call 4: binned process with 512 threads and prefetch. The
# device-search GPU test, then kron:24 top-down (16 roots, validated) with
# binsearch and binned, the first root's levels.
#   sh tools/results/session11-binned/call4.sh COMMIT
set -u
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
say "# session11-binned call4 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit ${1:-?}"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
mkdir -p /tmp/bbg "$OUT/j"
"$B" gen kron:24 /tmp/bbg/k24.bbcsr >/dev/null 2>&1 &
STAGES=check CHECK_TESTS="tests/gpu_search.sh" timeout 200 tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "test gpu_search.sh: $(sed -n 's/^:test-result: //p' build-gpu/tests/gpu_search.sh.trs)"
wait
say "gen: ($(($(date +%s) - T0)) s)"
C="--backend cuda --devices 1 --contract atomic --visited bit --direction top-down --roots 16"
for ex in binsearch binned; do
    "$B" bfs /tmp/bbg/k24.bbcsr $C --expand $ex --json "$OUT/j/td-$ex.json" >"$OUT/j/td-$ex.log" 2>&1
    say "td $ex: rc=$? $(grep -h 'harmonic_mean_TEPS:\|median_time_s\|^validation' "$OUT/j/td-$ex.log" | head -3 | tr -s ' \n' ' ')"
    grep -A9 'levels of the first' "$OUT/j/td-$ex.log" | awk '{print $1, $3, $8}' | tr '\n' ';' | tee -a "$F"; echo | tee -a "$F"
done
say "done ($(($(date +%s) - T0)) s)"
