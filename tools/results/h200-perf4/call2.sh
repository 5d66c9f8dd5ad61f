#!/bin/sh
# perf helper, call 2: build + GPU check, then the engine benchmark with alpha variants
set -u
export BB_COMMIT=5ee6a62 NCCL_NVLS_ENABLE=0
T0=$(date +%s)
STAGES="build check" CHECK_TESTS="tests/test_gpu_engine tests/gpu_cli.sh" DEADLINE_S=300 tools/gpu-check $OUT/g
B=$PWD/build-gpu/src/boxbfs; E=$OUT/g/bench/engine; C="--backend cuda --devices 1 --contract atomic --visited bit"
A="--direction auto"
run() { DEADLINE_AT=$((T0 + $1)) BOXBFS=$B CACHE=/tmp/bb-cache GRAPHS="$2" ROOTS=$3 ROOTS_FOR="USA-road:16" COMMON="$C" VARIANTS="$4" tools/bench-engine $E >>$OUT/g/engine.log 2>&1; }
run 330 kron:24 64 "td:--direction top-down|auto:$A|a30:$A --alpha 30|a50:$A --alpha 50|a80:$A --alpha 80"
run 400 "data/USA-road-FLA.mtx.gz data/email-Enron.txt.gz data/wiki-Vote.txt.gz data/facebook_combined.txt.gz data/delaunay_n14.mtx.gz data/luxembourg_osm.mtx.gz" 64 "td:--direction top-down|auto:$A|a50:$A --alpha 50"
run 520 kron:26 16 "auto:$A|a50:$A --alpha 50|td:--direction top-down"
cp $E/engine.txt $OUT/engine.txt
for dir in auto bottom-up; do
  [ $(($(date +%s) - T0)) -lt 545 ] || break
  compute-sanitizer --tool memcheck --error-exitcode 9 $B bfs kron:12 --backend cuda --devices 1 --contract atomic --wire auto --direction $dir --roots 2 >>$OUT/g/sanitize.log 2>&1
  echo "sanitize memcheck atomic $dir: rc=$?" | tee -a $OUT/engine.txt
done
(cd $OUT/g && tar czf bench.tar.gz bench && rm -rf bench)
cat $OUT/g/summary.txt $OUT/engine.txt
