#!/bin/sh
# perf5 call 2 (run from /work/main, trees carried under .carry/): base e33f89b
# against perf5 3613472 on the other graphs (regressions?), kron:26 auto, a
# third kron:24 pair, then the GPU tests again; Nsight Compute on the
# bottom-up kernels of one kron:24 auto search (for the next session) if time
# is left. Everything under $OUT (one tarball + summary).
set -u
T0=$(date +%s)
export NCCL_NVLS_ENABLE=0
R=$PWD/.carry; S=$OUT/summary.txt; L=$OUT/logs; mkdir -p $L
say() { echo "$*" | tee -a $S; }
left() { echo $((540 - ($(date +%s) - T0))); }
say "# perf5 call2 $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
for t in base:e33f89b perf5:3613472; do
  ( cd $R/${t%%:*} && BB_COMMIT=${t#*:} STAGES=build tools/gpu-check $L/build-${t%%:*} >/dev/null 2>&1 ) &
done
wait
for t in base perf5; do say "build $t: $(grep build: $L/build-$t/summary.txt)"; done
C="--backend cuda --devices 1 --contract atomic --visited bit"
E=$L/engine
bench() {  # tree graphs roots label variant-options
  [ $(left) -gt 45 ] || { say "$4: skipped (time)"; return; }
  BOXBFS=$R/$1/build-gpu/src/boxbfs CACHE=/tmp/bb-cache GRAPHS="$2" ROOTS=$3 ROOTS_FOR="USA-road:16" COMMON="$C" \
    VARIANTS="$4:$5" $R/perf5/tools/bench-engine $E >>$L/engine.log 2>&1
}
A="--direction auto"; TD="--direction top-down"
SMALL="data/USA-road-FLA.mtx.gz $(ls $R/datasets/*.gz | tr '\n' ' ')"
bench base kron:24 64 base-auto3 "$A"; bench perf5 kron:24 64 ab-auto3 "$A"
bench base "$SMALL" 64 base-auto "$A"; bench perf5 "$SMALL" 64 ab-auto "$A"
bench base "$SMALL" 64 base-td "$TD"; bench perf5 "$SMALL" 64 ab-td "$TD"
bench perf5 kron:26 16 ab-auto "$A"; bench base kron:26 16 base-auto "$A"
cat $E/engine.txt | tee -a $S
B=$R/perf5/build-gpu
if [ $(left) -gt 170 ]; then
  t1=$(date +%s)
  ( cd $B && make -j16 check TESTS="tests/test_gpu_engine tests/gpu_cli.sh" ) >$L/check.log 2>&1
  say "check perf5: rc=$? ($(($(date +%s) - t1)) s) $(cd $B && grep -h '^:test-result' tests/test_gpu_engine.trs tests/gpu_cli.sh.trs | tr '\n' ' ')"
else say "check: skipped (time)"; fi
if [ $(left) -gt 50 ]; then
  for t in base perf5; do
    timeout $(( $(left) / 2 - 5 )) $R/$t/build-gpu/libtool --mode=execute ncu --clock-control none --kernel-name regex:bottom_up --csv --page details \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
      $R/$t/build-gpu/src/boxbfs bfs /tmp/bb-cache/kron-24.bbcsr $C $A --roots 1 --no-validate >$L/ncu-bu-$t.csv 2>>$L/ncu.log
    say "ncu bottom_up $t: rc=$? ($(wc -l <$L/ncu-bu-$t.csv) lines)"
  done
fi
(cd $OUT && tar czf call2.tar.gz logs && rm -rf logs)
say "# done in $(($(date +%s) - T0)) s"
