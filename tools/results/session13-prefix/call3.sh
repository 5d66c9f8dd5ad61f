#!/bin/sh
# Session 13, call 3: where the first root's L5 (465 K frontier vertices,
# 0.5 M arcs) spends 265 us with the visited-prefix skip against 71 without
# (run2). Nsight Compute, duration only, of every search_* kernel of one
# kron:24 top-down search from that root (graph nodes profiled one by one),
# with the skip and with BOXBFS_PREFIX_SKIP=0.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session13-prefix/call3.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
G=/tmp/bbg
mkdir -p "$G"
say() { echo "$*" | tee -a "$F"; }
say "# session13-prefix call3 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
"$B" gen kron:24 "$G/k24.bbcsr" >"$OUT/gen24.log" 2>&1
say "gen: ($(($(date +%s) - T0)) s)"
for s in 1 0; do
    BOXBFS_PREFIX_SKIP=$s timeout 200 build-gpu/libtool --mode=execute ncu --graph-profiling node \
        --kernel-name regex:'search_|decide' --metrics gpu__time_duration.sum --csv \
        "$B" bfs "$G/k24.bbcsr" --backend cuda --devices 1 --contract atomic --visited bit \
        --direction top-down --root 2237860 --no-validate >"$OUT/ncu-skip$s.csv" 2>"$OUT/ncu-skip$s.err"
    say "ncu skip=$s: rc=$? ($(($(date +%s) - T0)) s) $(grep -c gpu__time_duration "$OUT/ncu-skip$s.csv") kernels"
done
say "done ($(($(date +%s) - T0)) s)"
