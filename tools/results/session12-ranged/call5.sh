#!/bin/sh
# Session 12, call 5: l1probe.cu (what keeps L1 from holding a window of
# Visited bits): timings, then Nsight Compute's L1 hit rate and L2 requests
# of every probe launch.
#   sh tools/results/session12-ranged/call5.sh
set -u
D=tools/results/session12-ranged
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee "$OUT/final.txt"
nvcc -O3 -arch=sm_90 -std=c++17 "$D/l1probe.cu" -o /tmp/l1probe || exit 1
/tmp/l1probe | tee -a "$OUT/final.txt"
timeout 300 ncu --clock-control none --kernel-name probe \
    --metrics gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_requests.sum,lts__t_sectors_op_atom.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    --csv /tmp/l1probe >"$OUT/ncu-l1probe.csv" 2>"$OUT/ncu-l1probe.err"
echo "ncu: rc=$? $(grep -c gpu__time_duration "$OUT/ncu-l1probe.csv") launches" | tee -a "$OUT/final.txt"
