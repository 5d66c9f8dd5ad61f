#!/bin/sh
# Session 12, call 4: the host-driven binsearch expand built for four blocks
# per SM (kBinsearchBlocks, 64 registers; before: 80 registers, three
# blocks), measured against the same tree built without it (base, patched
# back with sed) in the same call: kron:24 with --device-loop 0 (one
# device), two engine devices on the one GPU (--device-ids 0,0), 2D 1x1;
# the device search at K = 8 (unchanged) and K = 16 (now unbounded); GPU tests.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session12-ranged/call4.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session12-ranged call4 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
[ -f "$G/k24.bbcsr" ] || { STAGES=build tools/gpu-check "$OUT/g0" >/dev/null 2>&1;
    build-gpu/src/boxbfs gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1; } &
genpid=$!
# the base: this tree with the two launch bounds as before
rm -rf /tmp/base && mkdir -p /tmp/base && tar cf - --exclude=./build-gpu . | tar xf - -C /tmp/base
sed -i 's/__launch_bounds__(kThreads, kBinsearchBlocks<K>)$/__launch_bounds__(kThreads)/' /tmp/base/kernels/cuda/expand_lb.cuh
sed -i 's/__launch_bounds__(kThreads, kBinsearchBlocks<K>) search_binsearch/__launch_bounds__(kThreads, 4) search_binsearch/' /tmp/base/kernels/cuda/expand.cu
say "base patched: $(grep -c 'kBinsearchBlocks<K>)' /tmp/base/kernels/cuda/expand_lb.cuh /tmp/base/kernels/cuda/expand.cu | tr '\n' ' ')"
(cd /tmp/base && STAGES=build tools/gpu-check "$OUT/gb" >/dev/null 2>&1)
say "base build: rc=$? ($(($(date +%s) - T0)) s)"
wait $genpid
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
A=/tmp/base/build-gpu/src/boxbfs
[ -x "$B" ] && [ -x "$A" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
C="--backend cuda --contract atomic --visited bit --roots 16"
for v in base new; do
    X=$B; [ $v = base ] && X=$A
    pt host-td-$v 90 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --device-loop 0 --direction top-down
    pt host-auto-$v 90 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --device-loop 0
    pt two-td-$v 120 "$X" bfs "$G/k24.bbcsr" $C --devices 2 --device-ids 0,0 --direction top-down
    pt g2d-td-$v 120 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --partition 2d
    pt search-td-k16-$v 90 "$X" bfs "$G/k24.bbcsr" $C --devices 1 --direction top-down --expand-k 16
done
pt search-td-new 90 "$B" bfs "$G/k24.bbcsr" $C --devices 1 --direction top-down
pt search-auto-new 90 "$B" bfs "$G/k24.bbcsr" $C --devices 1
tests=${TESTS:-gpu_search.sh test_gpu_engine gpu_cli.sh gpu_logical.sh gpu_grid2d.sh}
if ! late 150; then
    STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
        timeout 150 tools/gpu-check "$OUT/g" >/dev/null 2>&1
    for t in $tests; do
        say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
    done
    (cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
fi
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
