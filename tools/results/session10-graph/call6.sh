#!/bin/sh
# Session 10, call 6: after the review's refactor (one grid clamp, one end-of-search rule); as call 5 (the fallback to host-driven levels
# where the graph cannot be built; the search path itself as in call 4):
# build, the GPU tests of the device search, memcheck, USA-road-FLA.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session10-graph/call5.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
mkdir -p "$J"
say() { echo "$*" | tee -a "$F"; }
say "# session10-graph call6 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
tests="gpu_search.sh test_gpu_engine gpu_cli.sh gpu_logical.sh"
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 240 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
timeout 90 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$B" bfs kron:14 --backend cuda --devices 1 --contract atomic --visited bit --roots 2 \
    --device-loop 100 >"$OUT/memcheck.log" 2>&1
say "memcheck kron:14 auto --device-loop 100: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck.log")"
BOXBFS_LOG=info timeout 60 "$B" bfs data/USA-road-FLA.mtx.gz --backend cuda --devices 1 \
    --contract atomic --visited bit --roots 16 --json "$J/fla.json" >"$J/fla.log" 2>&1
say "fla: rc=$? $(grep -h 'median_time_s\|^validation\|levels: on\|rror' "$J/fla.log" | grep -o 'median_time_s: [0-9.e-]*\|validation: [A-Z]*\|levels: on the device' | tr '\n' ' ')"
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
