#!/bin/sh
# Session 10, call 3: the device search as one switch node per level, the state copied in and out by memcpy nodes of the graph (one launch, one sync per search), against
# the base 15824a1 (the host-driven levels; carried as .carry/base) on the
# same GPU: the GPU tests it touches, compute-sanitizer memcheck of its
# steps, USA-road-FLA, kron:24 auto with and without --relabel degree and
# top-down (64 roots; the base without validation, the new code validated).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD) BASE_COMMIT=15824a1
#   sh tools/results/session10-graph/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session10-graph call3 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT base ${BASE_COMMIT:-none}"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
(cd .carry/base && BB_COMMIT=${BASE_COMMIT:-base} STAGES=build tools/gpu-check "$OUT/gb" >/dev/null 2>&1) &
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
wait
B=$PWD/build-gpu/src/boxbfs
BB=$PWD/.carry/base/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
[ -x "$BB" ] || say "base build failed"
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
tests=${TESTS:-gpu_search.sh test_gpu_engine gpu_cli.sh}
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 240 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
grep -h "FAIL" build-gpu/tests/gpu_search.sh.log 2>/dev/null | head -20 | tee -a "$F"
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
mc() {   # NAME OPTIONS...: compute-sanitizer memcheck of kron:14 on the device search
    name=$1; shift
    timeout 90 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 \
        "$B" bfs kron:14 --backend cuda --devices 1 --contract atomic --roots 2 "$@" \
        >"$OUT/memcheck-$name.log" 2>&1
    say "memcheck $name: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck-$name.log") $(grep -h 'levels: on the device' "$OUT/memcheck-$name.log" | head -1 | grep -o 'levels: on the device')"
}
mc auto-bit-loop100 --visited bit --device-loop 100
mc bottom-up-byte --direction bottom-up
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
C="--backend cuda --devices 1 --contract atomic --visited bit"
FLA=data/USA-road-FLA.mtx.gz
if [ -f "$FLA" ]; then   # (data/ carried: the road graph)
    pt fla-new 60 "$B" bfs "$FLA" $C --roots 16
    pt fla-base 60 "$BB" bfs "$FLA" $C --roots 16
fi
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
BOXBFS_LOG=debug "$B" bfs "$G/k24.bbcsr" $C --roots 8 --no-validate 2>&1 | grep "device search" | tail -6 | tee -a "$F"
BOXBFS_LOG=debug "$B" bfs "$G/k24.bbcsr" $C --roots 8 --no-validate --relabel degree 2>&1 | grep "device search" | tail -4 | tee -a "$F"
pt k24-auto-new 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64
pt k24-auto-base 60 "$BB" bfs "$G/k24.bbcsr" $C --roots 64 --no-validate
pt k24-auto-relabel-new 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --relabel degree
pt k24-auto-relabel-base 60 "$BB" bfs "$G/k24.bbcsr" $C --roots 64 --relabel degree --no-validate
pt k24-td-new 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --direction top-down
pt k24-td-base 60 "$BB" bfs "$G/k24.bbcsr" $C --roots 64 --direction top-down --no-validate
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
