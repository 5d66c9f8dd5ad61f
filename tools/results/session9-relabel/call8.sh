#!/bin/sh
# Session 9, eighth call, after the review's refactor of the device loops
# (bb_loop_walk_t): the GPU tests that run the loops (test_gpu_engine,
# gpu_logical.sh: one device, 2 and 4 logical devices, the failing launch)
# and USA-road-FLA on 1 and 2 logical devices against session 8's figures.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call8.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
say "# session9-relabel call8 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
tests="test_gpu_engine gpu_logical.sh"
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 240 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
"$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
for ids in 0 0,0; do
    timeout 60 "$B" bfs "$G/fla.bbcsr" --backend cuda --contract atomic --visited bit --device-ids $ids \
        --roots 16 --json "$J/fla-$ids.json" >"$J/fla-$ids.log" 2>&1
    say "fla --device-ids $ids: rc=$? $(grep -h 'validation:' "$J/fla-$ids.log") $(python3 -c "
import json; j = json.load(open('$J/fla-$ids.json')); print('median %.2f ms, small level %.2f us' % (j['time_s']['median'] * 1e3, j['traffic']['small_levels']['median_time_s'] * 1e6))")"
done
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
