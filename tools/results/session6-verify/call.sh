#!/bin/sh
# Session 6's first call on one GPU (an H200 where one is lent): build the
# tree, the GPU tests (engine, CLI, counts incl. the spmv cooc changes of
# 27db7eb/a55bc46 not run on a GPU before, 2D, and the new gpu_logical.sh:
# the multi-device engine on logical devices of one GPU), compute-sanitizer
# memcheck of multi-device runs on logical devices, then tools/bench-engine
# over the shared datasets and kron:24, top-down vs auto (issue #12's "auto
# never more than 5 % slower"), two passes. Carry data-small (the datasets)
# and the autoreconf outputs.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session6-verify/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
tests="test_gpu_engine gpu_cli.sh gpu_centrality.sh gpu_logical.sh gpu_grid2d.sh"
STAGES="build check" DEADLINE_S=280 CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 330 tools/gpu-check "$OUT/g"
say "gpu-check ($BB_COMMIT): rc=$? ($(($(date +%s) - T0)) s)"
for t in $tests; do
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
    run_memcheck 1d-00-atomic-auto bfs kron:12 --backend cuda --device-ids 0,0 --contract atomic --roots 2
    run_memcheck 1d-000-vf-bu bfs kron:12 --backend cuda --device-ids 0,0,0 --contract valid-flag --direction bottom-up --roots 2
    run_memcheck 2d-2x2 bfs kron:12 --backend cuda --device-ids 0,0,0,0 --partition 2d --grid 2x2 --roots 2
    run_memcheck sigma-cooc bfs kron:12 --backend cuda --devices 1 --roots 1 --sigma /dev/null --algorithm spmv --spmv cooc
fi
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./*.log ./*.trs 2>/dev/null)
(cd "$OUT" && tar czf memcheck.tar.gz memcheck-*.log && rm -f memcheck-*.log)
G="data-small/facebook_combined.txt.gz data-small/wiki-Vote.txt.gz data-small/email-Enron.txt.gz"
G="$G data-small/delaunay_n14.mtx.gz data-small/luxembourg_osm.mtx.gz data/USA-road-FLA.mtx.gz kron:24"
mkdir -p "$OUT/b"
for pass in 1 2; do
    BOXBFS=$B CACHE=/tmp/bb-cache GRAPHS="$G" ROOTS=64 DEADLINE_AT=$((T0 + 560)) \
        COMMON="--backend cuda --devices 1 --contract atomic --visited bit" \
        VARIANTS="td:--direction top-down|auto:--direction auto" \
        tools/bench-engine "$OUT/b/pass-$pass" >"$OUT/b/pass-$pass.log" 2>&1
    say "== pass $pass ($(($(date +%s) - T0)) s)"; cat "$OUT/b/pass-$pass/engine.txt" >>"$F" 2>/dev/null
done
(cd "$OUT" && tar czf bench.tar.gz b && rm -rf b)
cat "$OUT/g/summary.txt" "$F"
