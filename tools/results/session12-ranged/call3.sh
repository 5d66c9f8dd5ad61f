#!/bin/sh
# Session 12, call 3: call 2's Nsight Compute of the ranged host-driven
# levels again (its CSV names had commas, which the device tool does not
# bring back).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session12-ranged/call3.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
G=/tmp/bbg
mkdir -p "$G"
say() { echo "$*" | tee -a "$F"; }
say "# session12-ranged call3 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -f "$G/k24.bbcsr" ] || "$B" gen kron:24 "$G/k24.bbcsr" >/dev/null 2>&1
say "gen kron:24: ($(($(date +%s) - T0)) s)"
C="--backend cuda --devices 1 --contract atomic --visited bit --direction top-down --device-loop 0"
M=$(sed -n 's/^M=//p' tools/results/session12-ranged/call2.sh)
for r in 19,2048 18,1024; do
    t=$(date +%s)
    name=$(echo "$r" | tr ',' '_')
    BOXBFS_RANGED=$r timeout 150 build-gpu/libtool --mode=execute ncu --clock-control none \
        --kernel-name regex:binsearch --metrics "$M" --csv \
        "$B" bfs "$G/k24.bbcsr" $C --roots 1 --no-validate >"$OUT/ncu-ranged-$name.csv" 2>"$OUT/ncu-ranged-$name.err"
    say "ncu ranged $r: rc=$? ($(($(date +%s) - t)) s) $(grep -c gpu__time_duration "$OUT/ncu-ranged-$name.csv") launches"
done
say "done ($(($(date +%s) - T0)) s)"
