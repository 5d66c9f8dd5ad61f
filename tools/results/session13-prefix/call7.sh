#!/bin/sh
# Session 13, call 7: after the review's mends (the rows' ranking in its own
# setup step; the cpu twin on relabel's degree order): gpu_search.sh,
# gpu_cli.sh, and kron:22 top-down with and without the skip (16 roots).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session13-prefix/call7.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
say "# session13-prefix call7 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=build-gpu/src/boxbfs
tests="gpu_search.sh gpu_cli.sh"
STAGES=check CHECK_TESTS="$(for x in $tests; do printf 'tests/%s ' $x; done)" timeout 200 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for x in $tests; do say "test $x: $(sed -n 's/^:test-result: //p' build-gpu/tests/$x.trs 2>/dev/null | head -1)"; done
for s in 1 0; do
    BOXBFS_PREFIX_SKIP=$s BOXBFS_LOG=info $B bfs kron:22 --backend cuda --devices 1 --contract atomic --visited bit \
        --direction top-down --roots 16 --json "$OUT/k22-skip$s.json" >"$OUT/k22-skip$s.log" 2>&1
    say "kron:22 top-down skip=$s: rc=$? $(grep -h 'ranked\|harmonic_mean_TEPS:\|^validation' "$OUT/k22-skip$s.log" | sed 's/.*rows ranked/ranked/' | tr -s ' \n' ' ')"
done
say "done ($(($(date +%s) - T0)) s)"
