#!/bin/sh
# Session 11, call 2: binned top-down levels, one block per bin (--expand binned). The GPU
# tests of the device search (gpu_search.sh runs device_search.sh's binned
# cases on the GPU), memcheck of binned levels, and kron:24 (64 roots,
# validated): top-down with binsearch (the base, same call) and binned, with
# --relabel degree, and auto with binned.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session11-binned/call2.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session11-binned call2 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
tests=${TESTS:-gpu_search.sh}
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 200 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
mc() {   # NAME OPTIONS...: compute-sanitizer memcheck of kron:14 on the device search
    name=$1; shift
    BOXBFS_LOG=debug timeout 90 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$B" bfs kron:14 --backend cuda --devices 1 --contract atomic --roots 2 "$@" \
        >"$OUT/memcheck-$name.log" 2>&1
    say "memcheck $name: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck-$name.log") binned levels: $(grep -c 'top-down, binned' "$OUT/memcheck-$name.log")"
}
mc td-binned --direction top-down --expand binned
mc auto-bit-binned --visited bit --expand binned
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
C="--backend cuda --devices 1 --contract atomic --visited bit"
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
BOXBFS_LOG=debug "$B" bfs "$G/k24.bbcsr" $C --roots 2 --no-validate --direction top-down \
    --expand binned 2>&1 | grep "device search\|binned" | tail -6 | tee -a "$F"
pt k24-td 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --direction top-down
pt k24-td-binned 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --direction top-down --expand binned
pt k24-auto-binned 90 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --expand binned
# the binned kernels' times, first root (kernel nodes of the graph, one metric)
late 60 || timeout 120 ncu --metrics gpu__time_duration.sum -k regex:'bins_|search_scan|search_binsearch' \
    -c 40 "$B" bfs "$G/k24.bbcsr" $C --roots 1 --no-validate --direction top-down --expand binned \
    >"$OUT/ncu-binned.txt" 2>&1
say "ncu: rc=$? $(grep -c 'gpu__time_duration' "$OUT/ncu-binned.txt") kernels"
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
