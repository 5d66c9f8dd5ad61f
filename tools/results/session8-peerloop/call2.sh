#!/bin/sh
# Session 8, second call: the GPU tests at the final code (gpu_logical.sh now
# runs the device loop across devices on a grid and a failing loop launch),
# and USA-road-FLA with more roots on 1, 2 and 4 logical devices.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session8-peerloop/call2.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-540} - ${1:-0})) ]; }
say "# session8-peerloop call2 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 60; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic\|median\|validation\|rror' "$J/$name.log" | head -3 | tr -s ' \n' ' ')"
}
C="--backend cuda --contract atomic --visited bit"
pt fla-1 60 "$B" bfs "$G/fla.bbcsr" $C --devices 1 --roots 32
pt fla-00 60 "$B" bfs "$G/fla.bbcsr" $C --device-ids 0,0 --roots 32
pt fla-0000 60 "$B" bfs "$G/fla.bbcsr" $C --device-ids 0,0,0,0 --roots 16
pt fla-00-default 60 "$B" bfs "$G/fla.bbcsr" --backend cuda --device-ids 0,0 --roots 32
python3 tools/level-costs "$J"/*.json | tee -a "$F"
tests=${TESTS:-gpu_logical.sh test_gpu_engine gpu_cli.sh gpu_centrality.sh gpu_msbfs.sh gpu_grid2d.sh}
if ! late 200; then
    STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
        timeout $((${BUDGET_S:-540} - $(date +%s) + T0 - 30)) tools/gpu-check "$OUT/g" >/dev/null 2>&1
    for t in $tests; do
        say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
    done
    (cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
fi
(cd "$OUT" && rm -f j/*.log && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
