#!/bin/sh
# perf5 call 3 (run from /work/main, tree under .carry/perf5): the host round
# trip's parts (roundtrip.cu), then Nsight Compute on the expand and
# bottom-up kernels of one kron:24 auto search at 3613472 (for the next session).
set -u
T0=$(date +%s)
R=$PWD/.carry; S=$OUT/summary.txt; L=$OUT/logs; mkdir -p $L
say() { echo "$*" | tee -a $S; }
left() { echo $((540 - ($(date +%s) - T0))); }
say "# perf5 call3 $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader)"
( cd $R/perf5 && BB_COMMIT=3613472 STAGES=build tools/gpu-check $L/build >/dev/null 2>&1 ) &
nvcc -O2 -arch=sm_90 -std=c++17 $R/perf5/tools/results/h200-perf5/roundtrip.cu -o /tmp/roundtrip >$L/nvcc.log 2>&1 && /tmp/roundtrip | tee -a $S
wait
say "$(grep build: $L/build/summary.txt)"
B=$R/perf5/build-gpu
$B/src/boxbfs gen kron:24 /tmp/k24.bbcsr >$L/gen.log 2>&1; say "gen kron:24: rc=$? ($(($(date +%s) - T0)) s)"
C="--backend cuda --devices 1 --contract atomic --visited bit --direction auto"
$B/src/boxbfs bfs /tmp/k24.bbcsr $C --roots 1 --json $L/kron24-auto-1root.json >$L/bfs.log 2>&1; say "bfs 1 root: rc=$?"
timeout $(( $(left) - 20 )) $B/libtool --mode=execute ncu --clock-control none --kernel-name regex:'bottom_up|expand_binsearch|unpack|small_levels' \
  --csv --page details --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  $B/src/boxbfs bfs /tmp/k24.bbcsr $C --roots 1 --no-validate >$L/ncu-auto-3613472.csv 2>$L/ncu.log
say "ncu: rc=$? ($(wc -l <$L/ncu-auto-3613472.csv) lines, $(($(date +%s) - T0)) s)"
(cd $OUT && tar czf call3.tar.gz logs && rm -rf logs)
say "# done in $(($(date +%s) - T0)) s"
