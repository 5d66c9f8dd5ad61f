#!/bin/sh
# The first two-GPU call since session 1 (2 x H200, NVLink): one call for
# every issue's two-GPU target, benchmarks first (the targets), then the GPU
# tests that need two GPUs, each started only while time is left
# (BUDGET_S, default 480 s from the start). Graphs generated once as .bbcsr.
#   #11/#12: 1D kron:24 and kron:26, top-down and auto, 1 vs 2 GPUs; FLA 1 vs 2
#   #15: 2D 1x2 and 2x1 (top-down) against 1D top-down at kron:26
#   #13: msbfs kron:24, 1024 sources, 1 vs 2 GPUs; #14: bc kron:22, 1 vs 2 GPUs
#   #16: part 3 mpirun -np 2 --exchange nccl at kron:26 against one process;
#        part 2 tests/gpu_topo.sh (probe with peer access, NVLink check)
#   tests: gpu_topo.sh gpu_nccl.sh gpu_grid2d.sh test_gpu_engine (2 GPUs)
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/x2-session6/call.sh
set -u
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-480} - ${1:-0})) ]; }
say "# x2-session6 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
nvidia-smi topo -m >"$OUT/topo-m.txt" 2>&1
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { cat "$OUT/g/build.log" | tail -30; exit 1; }
for s in 24 26; do
    t=$(date +%s); "$B" gen kron:$s "$G/k$s.bbcsr" >"$J/gen$s.log" 2>&1
    say "gen kron:$s: rc=$? ($(($(date +%s) - t)) s)"
done
"$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 15; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s)"
}
C="--backend cuda --contract atomic --visited bit"
for d in 1 2; do
    pt k26-auto-$d 60 "$B" bfs "$G/k26.bbcsr" $C --devices $d --roots 8 --direction auto
    pt k26-td-$d 60 "$B" bfs "$G/k26.bbcsr" $C --devices $d --roots 8 --direction top-down
done
for grid in 1x2 2x1; do
    pt k26-2d-$grid 60 "$B" bfs "$G/k26.bbcsr" --backend cuda --partition 2d --grid $grid --roots 8
done
for d in 1 2; do
    pt k24-auto-$d 40 "$B" bfs "$G/k24.bbcsr" $C --devices $d --roots 16 --direction auto
    pt k24-td-$d 40 "$B" bfs "$G/k24.bbcsr" $C --devices $d --roots 16 --direction top-down
    pt fla-auto-$d 40 "$B" bfs "$G/fla.bbcsr" $C --devices $d --roots 8
done
for d in 1 2; do
    pt msbfs-k24-$d 60 "$B" msbfs "$G/k24.bbcsr" --backend cuda --devices $d --sources 1024 \
        --group-size 128 --no-validate
    pt bc-k22-$d 60 "$B" bc kron:22 --backend cuda --devices $d --sources 256 --top 0
done
pt k26-nccl-2 90 "$B" bfs "$G/k26.bbcsr" $C --devices 2 --roots 8 --exchange nccl
pt k26-mpirun-nccl-2 120 mpirun -np 2 --bind-to none "$B" bfs "$G/k26.bbcsr" $C --roots 8 --exchange nccl
rm -f "$G/k26.bbcsr"
python3 - "$J" <<'PY' | tee -a "$F"
import glob, json, os, sys
print("%-20s %4s %12s %12s %10s" % ("point", "dev", "median_ms", "GTEPS(hm)", "valid"))
for p in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try:
        j = json.load(open(p))
    except Exception as e:
        print(os.path.basename(p), "unreadable", e); continue
    n = os.path.basename(p)[:-5]
    if j.get("command") == "bfs":
        print("%-20s %4s %12.3f %12.2f %10s" % (n, j["device_count"], j["time_s"]["median"] * 1e3,
                                               j["teps"]["harmonic_mean"] / 1e9, j["validation"]))
    elif j.get("command") == "msbfs":
        print("%-20s %4s total %.3f s, %.1f GTEPS (graph500 aggregate)" % (n, j["device_count"], j["total_time_s"],
              j["teps"]["graph500"] / 1e9))
    elif j.get("command") == "bc":
        print("%-20s %4s total %.3f s, %.3f ms/source, hm %.2f GTEPS" % (n, j["devices"], j["total_time_s"],
              j["time_per_source_s"] * 1e3, j["harmonic_mean_TEPS"] / 1e9))
PY
# tests that need two GPUs, while time is left
for t in gpu_topo.sh gpu_nccl.sh gpu_grid2d.sh test_gpu_engine; do
    if late 40; then say "test $t: not started (budget)"; continue; fi
    t0=$(date +%s)
    left=$((${BUDGET_S:-480} - (t0 - T0) - 10))
    (cd build-gpu && timeout "$left" make check TESTS="tests/$t" >"$OUT/check-$t.log" 2>&1)
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1) ($(($(date +%s) - t0)) s)"
done
(cd build-gpu/tests && tar czf "$OUT/testlogs.tar.gz" ./*.log ./*.trs 2>/dev/null)
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
