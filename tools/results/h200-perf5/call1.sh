#!/bin/sh
# perf5 call 1 (run from /work/main, trees carried under .carry/): build three
# trees (base e33f89b, A 4d9c0b3 queued device loop, AB 3613472 + dead-vertex
# bits), kron:24 64 roots interleaved base/AB/A/base/AB (auto) and td, then the
# GPU tests and memcheck on AB. Everything under $OUT (one tarball + summary).
set -u
T0=$(date +%s)
export NCCL_NVLS_ENABLE=0
R=$PWD/.carry; S=$OUT/summary.txt; L=$OUT/logs; mkdir -p $L
say() { echo "$*" | tee -a $S; }
left() { echo $((540 - ($(date +%s) - T0))); }
say "# perf5 call1 $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
for t in base:e33f89b perf5-a:4d9c0b3 perf5:3613472; do
  ( cd $R/${t%%:*} && BB_COMMIT=${t#*:} STAGES=build tools/gpu-check $L/build-${t%%:*} >/dev/null 2>&1 ) &
done
wait
for t in base perf5-a perf5; do say "build $t: $(grep build: $L/build-$t/summary.txt)"; done
C="--backend cuda --devices 1 --contract atomic --visited bit"
E=$L/engine
bench() {  # tree label variant-options
  [ $(left) -gt 60 ] || { say "$2: skipped (time)"; return; }
  BOXBFS=$R/$1/build-gpu/src/boxbfs CACHE=/tmp/bb-cache GRAPHS=kron:24 ROOTS=64 COMMON="$C" \
    VARIANTS="$2:$3" $R/perf5/tools/bench-engine $E >>$L/engine.log 2>&1
}
A="--direction auto"
bench base base-auto "$A"; bench perf5 ab-auto "$A"; bench perf5-a a-auto "$A"
bench base base-auto2 "$A"; bench perf5 ab-auto2 "$A"
bench perf5 ab-td "--direction top-down"; bench base base-td "--direction top-down"
cat $E/engine.txt | tee -a $S
B=$R/perf5/build-gpu
if [ $(left) -gt 170 ]; then
  t1=$(date +%s)
  ( cd $B && make -j16 check TESTS="tests/test_gpu_engine tests/gpu_cli.sh" ) >$L/check.log 2>&1
  say "check AB: rc=$? ($(($(date +%s) - t1)) s) $(cd $B && grep -h '^:test-result' tests/test_gpu_engine.trs tests/gpu_cli.sh.trs | tr '\n' ' ')"
  cp $B/tests/test_gpu_engine.log $B/tests/gpu_cli.sh.log $L/ 2>/dev/null
else say "check: skipped (time)"; fi
for o in "--direction auto" "--direction auto --device-loop 100" "--direction top-down --device-loop 1000"; do
  [ $(left) -gt 25 ] || { say "memcheck $o: skipped (time)"; continue; }
  $B/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 $B/src/boxbfs bfs kron:12 \
    $C $o --roots 2 >>$L/sanitize.log 2>&1
  say "memcheck AB kron:12 $o: rc=$?"
done
(cd $OUT && tar czf call1.tar.gz logs && rm -rf logs)
say "# done in $(($(date +%s) - T0)) s"
