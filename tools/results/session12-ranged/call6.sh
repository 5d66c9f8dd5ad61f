#!/bin/sh
# Session 12, call 6: the long rows' pieces by a warp each (BOXBFS_RANGED_WARP,
# no per-lane search; l1probe.cu showed the probes alone 3x faster in
# head-range order, so call 1's binsearch producer is what stayed slow).
# memcheck at kron:14, then kron:24 top-down (32 roots, validated) against
# the base in the same call.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session12-ranged/call6.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session12-ranged call6 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
[ -f "$G/k24.bbcsr" ] || "$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
C="--backend cuda --devices 1 --contract atomic --visited bit"
export BOXBFS_RANGED_WARP=1
mc() {   # NAME RANGED OPTIONS...: compute-sanitizer memcheck on the device search
    name=$1 r=$2; shift 2
    BOXBFS_RANGED=$r timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$B" bfs $C --roots 2 "$@" >"$OUT/memcheck-$name.log" 2>&1
    say "memcheck $name: rc=$? $(grep -h 'ERROR SUMMARY\|ranged:\|^validation' "$OUT/memcheck-$name.log" | tr -s ' \n' ' ')"
}
mc k14-td 9,16 kron:14 --direction top-down
mc k14-auto 9,16 kron:14
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'ranged:\|harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -5 | tr -s ' \n' ' ')"
}
BOXBFS_RANGED=12,64 pt k18-td-12_64 60 "$B" bfs kron:18 $C --roots 16 --direction top-down
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt k24-td 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction top-down
for r in 18,1024 18,256 19,1024 17,256 18,64; do
    n=$(echo $r | tr , _)
    BOXBFS_RANGED=$r pt k24-td-$n 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction top-down
done
BOXBFS_RANGED=18,256 pt k24-auto-18_256 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32
BOXBFS_RANGED=18,256 pt k24-td-relabel-18_256 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction top-down --relabel degree
pt k24-td-b 90 "$B" bfs "$G/k24.bbcsr" $C --roots 32 --direction top-down
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
