set -u
export NCCL_NVLS_ENABLE=0
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1; echo "build rc=$?"
B=build-gpu/src/boxbfs
tests="gpu_search.sh test_gpu_engine gpu_cli.sh gpu_grid2d.sh"
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" timeout 300 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do echo "test $t: $(sed -n 's/^:test-result: //p' build-gpu/tests/$t.trs 2>/dev/null | head -1)"; done
timeout 90 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 $B bfs kron:14 --backend cuda --devices 1 --contract atomic --roots 2 --direction top-down 2>&1 | grep -h "ERROR SUMMARY\|^validation"
for d in top-down auto; do $B bfs kron:22 --backend cuda --devices 1 --contract atomic --visited bit --roots 16 --direction $d 2>&1 | grep -h "harmonic_mean_TEPS\|^validation" | tr '\n' ' '; echo; done
