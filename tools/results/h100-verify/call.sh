#!/bin/sh
# The verification call on the merged main (one GPU): build, the GPU
# tests of every driver, injected faults on the cuda backend, compute-sanitizer
# memcheck, the engine benchmark (kron:24 td/auto, USA-road-FLA), msbfs at
# kron:24 x 1024 sources and bfs --sigma at kron:24. Run from the tree's root
# with BB_COMMIT set; everything lands in $OUT/g (tarball) and $OUT/final.txt.
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
left() { [ $(($(date +%s) - T0)) -lt "$1" ]; }
STAGES="build check" DEADLINE_S=300 \
CHECK_TESTS="tests/test_gpu_engine tests/gpu_cli.sh tests/gpu_msbfs.sh tests/gpu_centrality.sh tests/gpu_grid2d.sh" \
    tools/gpu-check "$OUT/g"
B=$PWD/build-gpu/src/boxbfs; R=$OUT/g/bench; mkdir -p "$R"; F=$OUT/final.txt
# faults on the cuda backend: exit 3, a message, no JSON left behind
# (launch:40 on device 0 ran at d976c19: one GPU makes fewer than 40 launches
# on kron:10 x 2 roots, the small levels run inside one launch, so nothing
# failed and the run exited 0 as designed; launch:9 lands inside the search)
for f in alloc:3 copy:2 launch:5 "launch:9:dev 0"; do
    rm -f /tmp/fault.json
    BOXBFS_FAULT="$f" "$B" bfs kron:10 --backend cuda --roots 2 --json /tmp/fault.json >/dev/null 2>"$R/fault.err"
    echo "fault $f: rc=$? json_left=$([ -e /tmp/fault.json ] && echo yes || echo no) msg=$(head -c 160 "$R/fault.err" | tr '\n' ' ')" | tee -a "$F"
done
for m in atomic valid-flag; do
    left 330 || break
    build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 "$B" bfs kron:12 \
        --backend cuda --devices 1 --contract $m --wire auto --direction auto --roots 2 >>"$R/sanitize.log" 2>&1
    echo "sanitize memcheck $m auto: rc=$?" | tee -a "$F"
done
DEADLINE_AT=$((T0 + 450)) BOXBFS=$B CACHE=/tmp/bb-cache GRAPHS="kron:24 data/USA-road-FLA.mtx.gz" ROOTS=16 \
    ROOTS_FOR="USA-road:8" COMMON="--backend cuda --devices 1 --contract atomic --visited bit" \
    VARIANTS="td:--direction top-down|auto:--direction auto" tools/bench-engine "$R/engine" >>"$R/engine.log" 2>&1
cat "$R/engine/engine.txt" >>"$F"
K=/tmp/bb-cache/kron-24.bbcsr
if left 500 && [ -f "$K" ]; then
    "$B" msbfs "$K" --backend cuda --sources 1024 --group-size 128 --groupby on --json "$R/msbfs-k24-1024.json" >"$R/msbfs.log" 2>&1
    echo "msbfs kron:24 1024 sources: rc=$? $(grep -E '^aggregate_TEPS|^validation' "$R/msbfs.log" | tr '\n' ' ')" | tee -a "$F"
fi
if left 540 && [ -f "$K" ]; then
    "$B" bfs "$K" --backend cuda --devices 1 --roots 1 --sigma /dev/null --json "$R/sigma-k24.json" >"$R/sigma.log" 2>&1
    echo "bfs --sigma kron:24: rc=$? $(grep -E '^sigma_TEPS|^sigma_validation|^validation' "$R/sigma.log" | tr '\n' ' ')" | tee -a "$F"
fi
(cd "$OUT/g" && tar czf bench.tar.gz bench && rm -rf bench)
cat "$OUT/g/summary.txt" "$F"
