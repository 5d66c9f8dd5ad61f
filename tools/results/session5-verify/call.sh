#!/bin/sh
# Session 5's verification call on the merged main (one GPU): build, every
# GPU test (engine, CLI, msbfs, counts, 2D, NCCL), compute-sanitizer memcheck
# of the paths changed this session (counts pulled bottom-up, msbfs through
# the public API, 2D over NCCL), then tools/results/nccl2d/call.sh's timings
# (1D and 2D, peer and nccl, kron:22 and kron:24). Run from the tree's root
# with BB_COMMIT set; results in $OUT (final.txt, g/, logs.tar.gz, nccl2d/).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session5-verify/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
STAGES="build check" DEADLINE_S=300 \
CHECK_TESTS="tests/test_gpu_engine tests/gpu_cli.sh tests/gpu_msbfs.sh tests/gpu_centrality.sh tests/gpu_grid2d.sh tests/gpu_nccl.sh tests/test_nccl_rounds tests/test_api_args_msbfs_bc" \
    timeout 360 tools/gpu-check "$OUT/g"
say "gpu-check: rc=$? ($(($(date +%s) - T0)) s)"
for t in test_gpu_engine gpu_cli.sh gpu_msbfs.sh gpu_centrality.sh gpu_grid2d.sh gpu_nccl.sh test_nccl_rounds test_api_args_msbfs_bc; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
B=$PWD/build-gpu/src/boxbfs
run_memcheck() {   # LABEL ARGS...
    label=$1; shift
    build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 "$B" "$@" \
        >"$OUT/memcheck-$label.log" 2>&1
    say "memcheck $label: rc=$? $(grep -h 'ERROR SUMMARY' "$OUT/memcheck-$label.log" | tail -1)"
}
if [ -x "$B" ]; then
    run_memcheck sigma-bu bfs kron:12 --backend cuda --devices 1 --roots 1 --sigma /dev/null --direction bottom-up
    run_memcheck sigma-auto bfs kron:12 --backend cuda --devices 1 --roots 1 --sigma /dev/null
    run_memcheck msbfs msbfs kron:11 --backend cuda --sources 64 --group-size 64
    run_memcheck 2d-nccl bfs kron:11 --backend cuda --partition 2d --grid 1x1 --exchange nccl --roots 2
    run_memcheck 1d-nccl bfs kron:11 --backend cuda --devices 1 --exchange nccl --roots 2 --direction auto
fi
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
(cd "$OUT" && tar czf memcheck.tar.gz memcheck-*.log && rm -f memcheck-*.log)
left=$((570 - ($(date +%s) - T0)))
if [ "$left" -gt 60 ]; then
    mkdir -p "$OUT/nccl2d"
    OUT=$OUT/nccl2d STAGES=build timeout "$left" sh tools/results/nccl2d/call.sh >/dev/null 2>&1
    say "nccl2d timings: rc=$? (timeout ${left} s)"
    cat "$OUT/nccl2d/final.txt" >>"$F" 2>/dev/null
    (cd "$OUT/nccl2d" && tar czf ../nccl2d.tar.gz . ) && rm -rf "$OUT/nccl2d"
fi
cat "$OUT/g/summary.txt" "$F"
