#!/bin/sh
# Session 13, call 6: every GPU test at the session's last code (the skip
# and the galloping producer, which the host-driven levels on several
# logical devices use too), and memcheck of two logical devices.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session13-prefix/call6.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
say "# session13-prefix call6 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=build-gpu/src/boxbfs
tests="gpu_logical.sh gpu_msbfs.sh gpu_centrality.sh gpu_nccl.sh gpu_topo.sh gpu_search.sh gpu_cli.sh gpu_grid2d.sh test_gpu_engine"
STAGES=check CHECK_TESTS="$(for x in $tests; do printf 'tests/%s ' $x; done)" timeout 420 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for x in $tests; do say "test $x: $(sed -n 's/^:test-result: //p' build-gpu/tests/$x.trs 2>/dev/null | head -1)"; done
say "tests: ($(($(date +%s) - T0)) s)"
timeout 60 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 $B bfs kron:14 \
    --backend cuda --device-ids 0,0 --contract atomic --roots 2 --direction top-down >"$OUT/memcheck-logical.log" 2>&1
say "memcheck 2 logical devices: rc=$? $(grep -h 'ERROR SUMMARY\|^validation' "$OUT/memcheck-logical.log" | tr -s ' \n' ' ')"
for x in $tests; do cp build-gpu/tests/$x.log "$OUT/$(echo $x | tr . _).txt" 2>/dev/null; done
say "done ($(($(date +%s) - T0)) s)"
