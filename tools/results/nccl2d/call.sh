#!/bin/sh
# The first GPU run of branch nccl2d (issue #15: --partition 2d over
# --exchange nccl) on the GPUs the machine has (one; two when lent; more are
# used as two). tools/gpu-check builds (stage build, sm_90, --with-mpi where
# mpicc exists) and runs the 2D and NCCL tests (stage check: gpu_grid2d.sh
# with its nccl sections, gpu_nccl.sh, the cpu-side 2D/NCCL tests); then
# kron:22 and kron:24, 2D against 1D top-down (and 1D auto), with --exchange
# peer and nccl, and on two GPUs mpirun -np 2 --exchange nccl: one validated
# JSON per point, a table in final.txt. Run from the tree's root with OUT
# set (the device tool) and BB_COMMIT set. gpu-check has 330 s at most; no
# graph is generated after 330 s and no point starts after 410 s, each with
# a 60-second timeout, so the call ends inside 8 minutes.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/nccl2d/call.sh
set -u
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on the shared machines
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # the GPU machines run as root
T0=$(date +%s)
OUT=${OUT:-$PWD/nccl2d-out}
R=$OUT/points
F=$OUT/final.txt
mkdir -p "$R" /tmp/nccl2d
: >"$F"
say() { echo "$*" | tee -a "$F"; }
left() { [ $(($(date +%s) - T0)) -lt "$1" ]; }
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1

# build and tests (a hang must not eat the timings: timeout kills the group)
# (STAGES=build where a caller has run the tests already)
STAGES="${STAGES:-build check}" DEADLINE_S=200 \
CHECK_TESTS="tests/test_grid2d tests/test_nccl_rounds tests/grid2d.sh tests/grid2d_mpi.sh tests/gpu_grid2d.sh tests/gpu_nccl.sh" \
    timeout 330 tools/gpu-check "$OUT/g"
say "gpu-check build+check: rc=$? ($(($(date +%s) - T0)) s)"
grep -E '^ *(cuda backend|nccl exchange|mpi) *:' "$OUT/g/build.log" | sed 's/^ */configure: /' | tee -a "$F"
mkdir -p "$OUT/tests"
cp build-gpu/tests/*.log build-gpu/tests/*.trs "$OUT/tests/" 2>/dev/null
for t in gpu_grid2d gpu_nccl test_nccl_rounds test_grid2d grid2d grid2d_mpi; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
grep -E '^(ok|FAIL)|skipped' build-gpu/tests/gpu_grid2d.log 2>/dev/null | sed 's/^/  gpu_grid2d: /' | tee -a "$F"

B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { say "no boxbfs built: no timings"; exit 1; }
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)
G=$gpus; [ "$G" -gt 2 ] && G=2
mpi=0; command -v mpirun >/dev/null 2>&1 && "$B" bfs kron:4 --backend cpu --exchange mpi --roots 1 \
    >/dev/null 2>&1 && mpi=1
say "# $gpus GPU(s), timings on $G; MPI build: $mpi"

# one point: LABEL ROOTS GRAPH OPTIONS... (mpi2: under mpirun -np 2)
td="--partition 1d --direction top-down --contract atomic --visited bit"
au="--partition 1d --direction auto --contract atomic --visited bit"
point() {
    label=$1 roots=$2 graph=$3; shift 3
    j="$R/$(basename "$graph" .bbcsr)_$label.json"
    if ! left 410; then say "$label $graph: not started (deadline)"; return; fi
    case $label in
    *-mpi2) timeout 60 mpirun -np 2 "$B" bfs "$graph" --backend cuda --roots "$roots" "$@" \
                --json "$j" >>"$OUT/points.log" 2>&1 ;;
    *) timeout 60 "$B" bfs "$graph" --backend cuda --roots "$roots" "$@" --json "$j" \
           >>"$OUT/points.log" 2>&1 ;;
    esac
    rc=$?
    python3 - "$j" "$label" "$graph" "$rc" <<'PY' | tee -a "$F"
import json, os, sys
path, label, graph, rc = sys.argv[1:]
name = os.path.basename(graph).replace(".bbcsr", "")
try:
    d = json.load(open(path))
except Exception:
    print("%-9s %-16s failed (exit %s)" % (name, label, rc)); sys.exit(0)
t = d["traffic"]
print("%-9s %-16s %3d %9.3f %8.2f %14d %10d %10.3f %s" % (
    name, label, d["device_count"], d["time_s"]["median"] * 1e3,
    d["teps"]["harmonic_mean"] / 1e9, t["bytes_per_bfs"], t["total_messages"],
    t["modeled_exchange_s_per_bfs"] * 1e3, d["validation"]))
PY
}
say "graph     point            dev median_ms    GTEPS  bytes_per_bfs   messages modeled_ms validation"
for s in 22 24; do
    g=/tmp/nccl2d/kron-$s.bbcsr
    roots=16; [ "$s" = 24 ] && roots=8
    if [ ! -f "$g" ] && ! left 330; then say "kron:$s: not generated (deadline)"; continue; fi
    [ -f "$g" ] || timeout 80 "$B" gen "kron:$s" "$g" >>"$OUT/points.log" 2>&1 ||
        { say "kron:$s: gen failed"; continue; }
    if [ "$G" -ge 2 ]; then
        point 1d-td-peer-2 $roots "$g" $td --devices 2 --exchange peer
        point 2d-1x2-peer $roots "$g" --partition 2d --grid 1x2 --exchange peer
        point 1d-td-nccl-2 $roots "$g" $td --devices 2 --exchange nccl
        point 2d-1x2-nccl $roots "$g" --partition 2d --grid 1x2 --exchange nccl
        point 2d-2x1-peer $roots "$g" --partition 2d --grid 2x1 --exchange peer
        point 2d-2x1-nccl $roots "$g" --partition 2d --grid 2x1 --exchange nccl
        point 1d-auto-peer-2 $roots "$g" $au --devices 2 --exchange peer
        [ "$mpi" = 1 ] && point 2d-1x2-nccl-mpi2 $roots "$g" --partition 2d --grid 1x2 --exchange nccl
    fi
    point 1d-td-1 $roots "$g" $td --devices 1
    point 2d-1x1-peer $roots "$g" --partition 2d --grid 1x1 --exchange peer
    point 2d-1x1-nccl $roots "$g" --partition 2d --grid 1x1 --exchange nccl
    point 1d-auto-1 $roots "$g" $au --devices 1
done
say "# done in $(($(date +%s) - T0)) s"
cat "$OUT/g/summary.txt" "$F"
