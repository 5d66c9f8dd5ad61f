#!/bin/sh
# Session 7, the per-level cost of the multi-device engine on logical devices
# of one GPU (--device-ids 0,0: two engine devices, their own streams and host
# threads, the same GPU): the base commit (carried as .carry/base, built in
# its own build-gpu) against this tree, USA-road-FLA and kron:24, then the
# logical-device tests and a memcheck of this tree. tools/level-costs splits
# the small levels' time into phases.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD) BASE_COMMIT=7969c7e
#   [TESTS="gpu_logical.sh ..."] [SIGMA=1] sh tools/results/session7-pcost/call.sh
# (SIGMA=1: the counts on two logical devices against the cpu backend's.)
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-540} - ${1:-0})) ]; }
say "# session7-pcost $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT base ${BASE_COMMIT:-none}"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
builds="new:$B"
if [ -d .carry/base ]; then
    (cd .carry/base && BB_COMMIT=${BASE_COMMIT:-base} STAGES=build tools/gpu-check "$OUT/gb" >/dev/null 2>&1)
    say "base build: rc=$? ($(($(date +%s) - T0)) s)"
    [ -x .carry/base/build-gpu/src/boxbfs ] && builds="base:$PWD/.carry/base/build-gpu/src/boxbfs $builds"
fi
"$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
say "gen: ($(($(date +%s) - T0)) s)"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 60; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic\|median' "$J/$name.log" | head -2 | tr -s ' \n' ' ')"
}
C="--backend cuda --contract atomic --visited bit"
for b in $builds; do
    v=${b%%:*} X=${b#*:}
    pt $v-fla-1 60 "$X" bfs "$G/fla.bbcsr" $C --devices 1 --roots 8
    pt $v-fla-00 60 "$X" bfs "$G/fla.bbcsr" $C --device-ids 0,0 --roots 8
    pt $v-fla-0000 90 "$X" bfs "$G/fla.bbcsr" $C --device-ids 0,0,0,0 --roots 4
    pt $v-k24-td-1 60 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --roots 16 --direction top-down
    pt $v-k24-auto-1 60 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --roots 16 --direction auto
    pt $v-k24-td-00 60 "$X" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction top-down
    pt $v-k24-auto-00 60 "$X" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction auto
done
pt new-k24-td-00-list 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction top-down --wire list
pt new-k24-auto-00-list 60 "$B" bfs "$G/k24.bbcsr" $C --device-ids 0,0 --roots 16 --direction auto --wire list
python3 tools/level-costs "$J"/*.json | tee -a "$F"
tests=${TESTS:-gpu_logical.sh test_gpu_engine gpu_cli.sh}
if ! late 150; then
    STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
        timeout $((${BUDGET_S:-540} - $(date +%s) + T0 - 40)) tools/gpu-check "$OUT/g" >/dev/null 2>&1
    for t in $tests; do
        say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
    done
    (cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
fi
if [ -n "${SIGMA:-}" ] && ! late 40; then   # the counts' pair exchange on two logical devices
    "$B" bfs kron:12 --backend cpu --devices 2 --roots 1 --sigma "$OUT/sigma.cpu" >/dev/null 2>&1
    "$B" bfs kron:12 --backend cuda --device-ids 0,0 --roots 1 --sigma "$OUT/sigma.cuda" >"$OUT/sigma.log" 2>&1
    say "sigma 0,0 vs cpu 2 devices: rc=$? $(cmp "$OUT/sigma.cpu" "$OUT/sigma.cuda" >/dev/null 2>&1 && echo same || echo DIFFER)"
    rm -f "$OUT/sigma.cpu" "$OUT/sigma.cuda"
fi
if ! late 30; then
    build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 "$B" bfs \
        kron:12 --backend cuda --device-ids 0,0,0 --contract atomic --roots 2 >"$OUT/memcheck.log" 2>&1
    say "memcheck 1d-000-atomic: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
fi
(cd "$OUT" && rm -f j/*.log && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
