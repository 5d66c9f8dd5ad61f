#!/bin/sh
# Session 8, the device loop across devices (src/engine/device_loop.c,
# kernels/cuda/small_levels.cu peer_levels) on logical devices of one GPU
# (--device-ids 0,0: two engine devices with their own streams, host threads
# and kernels, on the same GPU): each point with the loop (default
# --device-loop 16384) and without it (--device-loop 0: the host-driven levels
# of session 7) in the same build, then the logical-device tests and
# memchecks. tools/level-costs splits the small levels' time into phases.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session8-peerloop/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-540} - ${1:-0})) ]; }
say "# session8-peerloop $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
say "gen: ($(($(date +%s) - T0)) s)"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 60; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic\|median\|validation\|rror' "$J/$name.log" | head -3 | tr -s ' \n' ' ')"
}
C="--backend cuda --contract atomic --visited bit"
pt fla-1 60 "$B" bfs "$G/fla.bbcsr" $C --devices 1 --roots 8
pt fla-00 60 "$B" bfs "$G/fla.bbcsr" $C --device-ids 0,0 --roots 8
pt fla-00-dl0 60 "$B" bfs "$G/fla.bbcsr" $C --device-ids 0,0 --roots 4 --device-loop 0
pt fla-0000 60 "$B" bfs "$G/fla.bbcsr" $C --device-ids 0,0,0,0 --roots 8
pt fla-00-default 60 "$B" bfs "$G/fla.bbcsr" --backend cuda --device-ids 0,0 --roots 8
pt k24-td-00 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction top-down
pt k24-td-00-dl0 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction top-down --device-loop 0
pt k24-auto-00 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction auto
pt k24-auto-00-dl0 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction auto --device-loop 0
pt k24-auto-1 60 "$B" bfs "$G/k24.bbcsr" $C --devices 1 --roots 16 --direction auto
python3 tools/level-costs "$J"/*.json | tee -a "$F"
tests=${TESTS:-gpu_logical.sh test_gpu_engine gpu_cli.sh}
if ! late 150; then
    STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
        timeout $((${BUDGET_S:-540} - $(date +%s) + T0 - 60)) tools/gpu-check "$OUT/g" >/dev/null 2>&1
    for t in $tests; do
        say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
    done
    (cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
fi
for dl in 0 16384; do   # the loop's kernels must run at once: memcheck may serialize them
    if late 30; then break; fi
    timeout 25 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 "$B" bfs \
        kron:12 --backend cuda --device-ids 0,0,0 --contract atomic --roots 2 --device-loop $dl >"$OUT/memcheck$dl.log" 2>&1
    say "memcheck 000 atomic --device-loop $dl: rc=$? $(grep -h 'ERROR SUMMARY\|rror:' "$OUT/memcheck$dl.log" | tail -2 | tr '\n' ' ')"
done
(cd "$OUT" && rm -f j/*.log && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
