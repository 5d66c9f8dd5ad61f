#!/bin/sh
# Session 13, call 2: the visited-prefix skip raised only where a level's
# arcs reach n (bb_prefix_raises). Build; memcheck (kron:14 top-down and
# auto); gpu_search.sh and gpu_cli.sh; then kron:24 (32 roots, validated)
# top-down and auto, as generated and with --relabel degree, each with the
# skip and with BOXBFS_PREFIX_SKIP=0, alternating; USA-road-FLA (16 roots).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session13-prefix/call1.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session13-prefix call4 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
C="--backend cuda --devices 1 --contract atomic --visited bit"
mc() {   # NAME OPTIONS...: compute-sanitizer memcheck of the device search
    name=$1; shift
    timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$B" bfs $C --roots 2 "$@" >"$OUT/memcheck-$name.log" 2>&1
    say "memcheck $name: rc=$? $(grep -h 'ERROR SUMMARY\|^validation\|visited-prefix' "$OUT/memcheck-$name.log" | sed 's/.*\(visited-prefix skip\)/\1/' | tr -s ' \n' ' ')"
}
mc k14-td kron:14 --direction top-down
mc k14-auto kron:14
tests="gpu_search.sh gpu_cli.sh gpu_grid2d.sh test_gpu_engine"
t=$(date +%s)
STAGES=check CHECK_TESTS="$(for x in $tests; do printf 'tests/%s ' $x; done)" timeout 240 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for x in $tests; do say "test $x: $(sed -n 's/^:test-result: //p' build-gpu/tests/$x.trs 2>/dev/null | head -1)"; done
say "tests: ($(($(date +%s) - t)) s)"
cp build-gpu/tests/*.log "$OUT/g/" 2>/dev/null
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'ranked\|harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | sed 's/.*rows ranked/ranked/' | head -5 | tr -s ' \n' ' ')"
}
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
for r in 1; do
    for d in top-down auto; do
        pt k24-$d-$r 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction $d
        BOXBFS_PREFIX_SKIP=0 pt k24-$d-noskip-$r 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction $d
    done
done
for d in top-down auto; do
    pt k24-$d-relabel 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction $d --relabel degree
    BOXBFS_PREFIX_SKIP=0 pt k24-$d-relabel-noskip 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction $d --relabel degree
done
FLA=data/USA-road-FLA.mtx.gz
for d in top-down auto; do
    pt fla-$d 60 "$B" bfs $FLA $C --roots 16 --direction $d
    BOXBFS_PREFIX_SKIP=0 pt fla-$d-noskip 60 "$B" bfs $FLA $C --roots 16 --direction $d
done
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
