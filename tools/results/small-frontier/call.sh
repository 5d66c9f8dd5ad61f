#!/bin/sh
# The small-frontier rule (af1dd67: on one device a frontier of at most
# 16384 arcs stays top-down under auto) against the commit before it
# (a1a958c, its tree in .carry/base), in one call on one GPU: build both,
# the GPU tests on the new tree, then tools/bench-engine over the shared
# datasets (64 roots) and kron:24 (64 roots), top-down and auto, base and
# new interleaved twice. Carry .carry and data-small (the datasets).
#   export BB_COMMIT=af1dd67 BASE_COMMIT=a1a958c; sh tools/results/small-frontier/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
STAGES="build check" DEADLINE_S=250 CHECK_TESTS="tests/test_gpu_engine tests/gpu_cli.sh" \
    timeout 300 tools/gpu-check "$OUT/g"
say "new ($BB_COMMIT): gpu-check rc=$? ($(($(date +%s) - T0)) s)"
( cd .carry/base && BB_COMMIT=$BASE_COMMIT STAGES=build timeout 150 tools/gpu-check "$OUT/gb" )
say "base ($BASE_COMMIT): build rc=$? ($(($(date +%s) - T0)) s)"
G="data-small/facebook_combined.txt.gz data-small/wiki-Vote.txt.gz data-small/email-Enron.txt.gz"
G="$G data-small/delaunay_n14.mtx.gz data-small/luxembourg_osm.mtx.gz kron:24"
mkdir -p "$OUT/b"
for pass in 1 2; do
    for tree in base new; do
        b=$PWD/build-gpu/src/boxbfs; [ $tree = base ] && b=$PWD/.carry/base/build-gpu/src/boxbfs
        BOXBFS=$b CACHE=/tmp/bb-cache GRAPHS="$G" ROOTS=64 DEADLINE_AT=$((T0 + 540)) \
            COMMON="--backend cuda --devices 1 --contract atomic --visited bit" \
            VARIANTS="td:--direction top-down|auto:--direction auto" \
            tools/bench-engine "$OUT/b/$tree-$pass" >"$OUT/b/$tree-$pass.log" 2>&1
        say "== $tree pass $pass"; cat "$OUT/b/$tree-$pass/engine.txt" >>"$F" 2>/dev/null
    done
done
(cd "$OUT" && tar czf bench.tar.gz b && rm -rf b)
cat "$OUT/g/summary.txt" "$F"
