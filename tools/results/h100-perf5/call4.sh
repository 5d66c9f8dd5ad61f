#!/bin/sh
# perf5 call 4 (run from /work/main, trees under .carry/): 3613472 (AB) against
# the timestamp kernels (C, commit in $1), kron:24 64 roots interleaved, then
# the GPU tests and memcheck on C. Everything under $OUT.
set -u
T0=$(date +%s); NEW=$1
export NCCL_NVLS_ENABLE=0
R=$PWD/.carry; S=$OUT/summary.txt; L=$OUT/logs; mkdir -p $L
say() { echo "$*" | tee -a $S; }
left() { echo $((520 - ($(date +%s) - T0))); }
say "# perf5 call4 $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
for t in perf5-ab:3613472 perf5:$NEW; do
  ( cd $R/${t%%:*} && BB_COMMIT=${t#*:} STAGES=build tools/gpu-check $L/build-${t%%:*} >/dev/null 2>&1 ) &
done
wait
for t in perf5-ab perf5; do say "build $t: $(grep build: $L/build-$t/summary.txt)"; done
C="--backend cuda --devices 1 --contract atomic --visited bit"
E=$L/engine
bench() {  # tree graphs roots label options
  [ $(left) -gt 200 ] || { say "$4: skipped (time)"; return; }
  BOXBFS=$R/$1/build-gpu/src/boxbfs CACHE=/tmp/bb-cache GRAPHS="$2" ROOTS=$3 COMMON="$C" \
    VARIANTS="$4:$5" $R/perf5/tools/bench-engine $E >>$L/engine.log 2>&1
}
A="--direction auto"
bench perf5 kron:24 64 c-auto "$A"; bench perf5-ab kron:24 64 ab-auto "$A"
bench perf5 kron:24 64 c-auto2 "$A"; bench perf5-ab kron:24 64 ab-auto2 "$A"
bench perf5 kron:24 64 c-td "--direction top-down"
cat $E/engine.txt | tee -a $S
B=$R/perf5/build-gpu
t1=$(date +%s)
( cd $B && make -j16 check TESTS="tests/test_gpu_engine tests/gpu_cli.sh" ) >$L/check.log 2>&1
say "check $NEW: rc=$? ($(($(date +%s) - t1)) s) $(cd $B && grep -h '^:test-result' tests/test_gpu_engine.trs tests/gpu_cli.sh.trs | tr '\n' ' ')"
for o in "--direction auto" "--direction auto --device-loop 100"; do
  [ $(($(date +%s) - T0)) -lt 545 ] || { say "memcheck $o: skipped (time)"; continue; }
  $B/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 $B/src/boxbfs bfs kron:12 \
    $C $o --roots 2 >>$L/sanitize.log 2>&1
  say "memcheck $NEW kron:12 $o: rc=$?"
done
(cd $OUT && tar czf call4.tar.gz logs && rm -rf logs)
say "# done in $(($(date +%s) - T0)) s"
