#!/bin/sh
# Session 9, final call at the final code: kron:24 top-down and auto with and
# without --relabel degree (64 roots, the same root set), kron:26 (16 roots),
# then the GPU tests the change touches and compute-sanitizer memcheck of
# relabeled searches (K = 8 and 16: the warp stage's direct append).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call4.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-550} - ${1:-0})) ]; }
say "# session9-relabel call4 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
tests=${TESTS:-test_gpu_engine gpu_cli.sh gpu_grid2d.sh gpu_logical.sh}
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 200 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
wait $genpid
say "gen kron:24 + tests: ($(($(date +%s) - T0)) s)"
for k in 8 16; do
    build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 \
        "$B" bfs kron:14 --backend cuda --devices 1 --contract atomic --visited bit --roots 2 \
        --relabel degree --direction top-down --expand-k $k >"$OUT/memcheck-k$k.log" 2>&1
    say "memcheck kron:14 --relabel degree top-down K=$k: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck-k$k.log")"
done
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 40; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'relabeled by\|harmonic_mean_TEPS:\|median_TEPS\|validation\|rror' "$J/$name.log" | head -5 | tr -s ' \n' ' ')"
}
C="--backend cuda --devices 1 --contract atomic --visited bit"
pt k24-td 120 "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 64
pt k24-td-relabel 120 "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 64 --relabel degree
pt k24-auto 120 "$B" bfs "$G/k24.bbcsr" $C --roots 64
pt k24-auto-relabel 120 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --relabel degree
pt k24-default-relabel 120 "$B" bfs "$G/k24.bbcsr" --backend cuda --devices 1 --roots 64 --relabel degree
if ! late 200; then
    "$B" gen kron:26 "$G/k26.bbcsr" >"$J/gen26.log" 2>&1
    say "gen kron:26: ($(($(date +%s) - T0)) s)"
    pt k26-td-relabel 110 "$B" bfs "$G/k26.bbcsr" $C --direction top-down --roots 16 --relabel degree
    pt k26-auto-relabel 110 "$B" bfs "$G/k26.bbcsr" $C --roots 16 --relabel degree
    pt k26-td 110 "$B" bfs "$G/k26.bbcsr" $C --direction top-down --roots 16
fi
(cd "$OUT" && rm -f j/*.log.x && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
