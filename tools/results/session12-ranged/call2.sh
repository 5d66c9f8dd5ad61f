#!/bin/sh
# Session 12, call 2: why head-range order did not speed up L3 (call 1).
# The same pieces on the host-driven path (--device-loop 0, BOXBFS_RANGED),
# timed (16 roots, validated), then Nsight Compute on the binsearch
# launches of one kron:24 top-down search, base and ranged: L1 hit rate,
# L2 and DRAM traffic, stall reasons.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session12-ranged/call2.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session12-ranged call2 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
C="--backend cuda --devices 1 --contract atomic --visited bit --direction top-down --device-loop 0"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'ranged:\|harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -5 | tr -s ' \n' ' ')"
}
BOXBFS_RANGED=9,16 pt k16-host-ranged 60 "$B" bfs kron:16 $C --roots 8
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt k24-host 90 "$B" bfs "$G/k24.bbcsr" $C --roots 16
BOXBFS_RANGED=18,1024 pt k24-host-18,1024 90 "$B" bfs "$G/k24.bbcsr" $C --roots 16
BOXBFS_RANGED=19,2048 pt k24-host-19,2048 90 "$B" bfs "$G/k24.bbcsr" $C --roots 16
M=gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio,smsp__cycles_active.avg
prof() {   # NAME RANGED: ncu on the binsearch launches of one search (after the warm-up)
    name=$1 r=$2
    if late 60; then say "ncu $name: not started (budget)"; return; fi
    t=$(date +%s)
    env ${r:+BOXBFS_RANGED=$r} timeout 150 build-gpu/libtool --mode=execute ncu --clock-control none \
        --kernel-name regex:binsearch --metrics "$M" --csv \
        "$B" bfs "$G/k24.bbcsr" $C --roots 1 --no-validate >"$OUT/ncu-$name.csv" 2>"$OUT/ncu-$name.err"
    say "ncu $name: rc=$? ($(($(date +%s) - t)) s) $(grep -c gpu__time_duration "$OUT/ncu-$name.csv") launches"
}
prof base ""
prof ranged-18,1024 18,1024
prof ranged-19,2048 19,2048
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
