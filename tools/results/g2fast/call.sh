#!/bin/sh
# Issue #15's one-GPU part (branch g2fast): the 2D engine's GPU path on one
# GPU against the 1D engine's top-down, in one device call. Builds this tree
# (tools/gpu-check, sm_90) and, when BASE names a copy of the commit before
# the branch, that tree too (the 2D engine before); runs the 2D and 1D GPU
# tests, 2D grids of logical devices on one GPU (--device-ids 0,0 / 0,0,0,0)
# against the cpu backend, compute-sanitizer memcheck of the 2D kernels (1x1,
# 2x2 logical, each expand load balancer) and of the 1D atomic expand; then
# tools/bench-engine: kron:22, kron:24 (16 roots) and USA-road-FLA (8 roots),
# 1D top-down (atomic, bit visited) against 2D 1x1, new and before. The
# median small-level time (small_us) is a level's fixed cost (1D's also
# without its one-device loop of small levels: 1d-td-noloop). Run from the
# tree's root with OUT and BB_COMMIT set (BASE_COMMIT with BASE):
#   BB_COMMIT=$(git rev-parse --short=12 HEAD) BASE=../g2fast-base BASE_COMMIT=a55bc46 \
#       sh tools/results/g2fast/call.sh
# Results in OUT: final.txt (every verdict and table), bench.tar.gz (the
# JSON of every point), logs.tar.gz (build, tests, comparisons), memcheck.tar.gz.
set -u
T0=$(date +%s)
OUT=${OUT:-$PWD/g2fast-out}
F=$OUT/final.txt
L=$OUT/logs
CACHE=/tmp/g2fast-cache
mkdir -p "$L" "$OUT/bench" "$CACHE"
: >"$F"
say() { echo "$*" | tee -a "$F"; }
at() { echo "$(($(date +%s) - T0))"; }
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
say "# g2fast call $(date -u +%Y-%m-%dT%H:%M:%SZ) commit ${BB_COMMIT:-unknown} base ${BASE_COMMIT:-none}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
say "# host: $(nproc) cores"

# ---- build: this tree, and the base tree beside it ------------------------------
if [ -n "${BASE:-}" ]; then
    ( cd "$BASE" && touch aclocal.m4 && sleep 1 && touch configure config.h.in Makefile.in &&
      mkdir -p build-gpu && cd build-gpu &&
      BB_COMMIT=${BASE_COMMIT:-base} ../configure --with-cuda --with-cuda-arch=sm_90 &&
      make -j6 src/boxbfs ) >"$L/base-build.log" 2>&1 &
    base_pid=$!
fi
STAGES=build timeout 240 tools/gpu-check "$L/g" >/dev/null 2>&1
say "build: rc=$? ($(at) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { say "no boxbfs built"; tail -30 "$L/g/build.log" >>"$F"; exit 1; }

# ---- while the tests run: the graphs, logical devices, memcheck -----------------
( for g in kron:22 kron:24; do "$B" gen $g "$CACHE/$(echo $g | tr : -).bbcsr"; done
  "$B" gen data/USA-road-FLA.mtx.gz "$CACHE/USA-road-FLA.bbcsr" ) >"$L/gen.log" 2>&1 &
gen_pid=$!
TESTS="tests/test_grid2d tests/grid2d.sh tests/gpu_grid2d.sh tests/test_gpu_engine tests/gpu_cli.sh"
( cd build-gpu && timeout 300 make -j6 check TESTS="$TESTS" ) >"$L/check.log" 2>&1 &
check_pid=$!

# 2D grids of logical devices on GPU 0 against the cpu backend's emulated devices
for grid in 1x2 2x1 2x2; do
    ids=$(echo $grid | awk -Fx '{s = "0"; for (i = 1; i < $1 * $2; i++) s = s ",0"; print s}')
    for wire in list auto; do
        set -- kron:14 --roots 4 --partition 2d --grid $grid --wire $wire
        "$B" bfs "$@" --backend cpu --json "$L/lc.json" >/dev/null 2>>"$L/logical.log"
        "$B" bfs "$@" --backend cuda --device-ids "$ids" --json "$L/lg.json" >/dev/null 2>>"$L/logical.log"
        rc=$?
        v=$(python3 - "$L/lc.json" "$L/lg.json" <<'PY' 2>&1 | tail -1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["validation"] == b["validation"] == "passed", "not validated"
ta, tb = a["traffic"], b["traffic"]
for k in ("total_bytes", "total_messages", "phases", "phase_messages", "links"):
    assert ta[k] == tb[k], k
keys = ("level", "frontier", "frontier_arcs", "sent_vertices", "bytes", "messages", "bitmap_messages")
assert [[l[k] for k in keys] for l in ta["levels"]] == [[l[k] for k in keys] for l in tb["levels"]], "levels"
assert [r["bytes"] for r in a["runs"]] == [r["bytes"] for r in b["runs"]], "runs"
print("same bytes as cpu: %d B, %d messages, %d levels (first root)" % (
    ta["total_bytes"], ta["total_messages"], len(ta["levels"])))
PY
)
        say "logical $grid --device-ids $ids $wire: rc=$rc $v"
    done
done

memcheck() {   # LABEL ARGS...
    label=$1; shift
    timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$B" bfs "$@" >"$L/memcheck-$label.log" 2>&1
    say "memcheck $label: rc=$? $(grep -h 'ERROR SUMMARY' "$L/memcheck-$label.log" | tail -1)"
}
memcheck 2d-1x1 kron:14 --backend cuda --partition 2d --grid 1x1 --wire auto --roots 1
memcheck 2d-1x1-mergepath kron:12 --backend cuda --partition 2d --grid 1x1 --expand mergepath --roots 2
memcheck 2d-1x1-auto-k16 kron:12 --backend cuda --partition 2d --grid 1x1 --expand auto --expand-k 16 --roots 2
memcheck 2d-2x2-logical kron:12 --backend cuda --partition 2d --grid 2x2 --device-ids 0,0,0,0 --wire auto --roots 2
memcheck 1d-atomic-td kron:12 --backend cuda --devices 1 --contract atomic --visited bit --direction top-down --device-loop 0 --roots 2
memcheck 1d-atomic-2logical kron:12 --backend cuda --device-ids 0,0 --contract atomic --visited bit --direction top-down --roots 2

wait $check_pid
say "tests: rc=$? ($(at) s) $(cd build-gpu && for t in $TESTS; do printf '%s=%s ' "${t#tests/}" "$(sed -n 's/^:test-result: //p' "$t.trs" 2>/dev/null | head -1)"; done)"
grep -E '^(ok|FAIL)' build-gpu/tests/gpu_grid2d.sh.log 2>/dev/null | sed 's/^/  gpu_grid2d: /' >>"$F"
wait $gen_pid
say "graphs: rc=$? ($(at) s)"
if [ -n "${BASE:-}" ]; then wait $base_pid; say "base build: rc=$? ($(at) s)"; fi

# ---- timings (nothing else on the GPU now) ----------------------------------------
bench() {   # BOXBFS OUTDIR VARIANTS [ROOTS_FOR]
    BOXBFS=$1 CACHE=$CACHE DEADLINE_AT=$((T0 + 470)) ROOTS=16 ROOTS_FOR="${4:-USA-road:8}" \
        GRAPHS="kron:22 kron:24 data/USA-road-FLA.mtx.gz" COMMON="--backend cuda" VARIANTS="$3" \
        tools/bench-engine "$2" >/dev/null 2>&1
    cat "$2/engine.txt" >>"$F"
}
td="--partition 1d --devices 1 --direction top-down --contract atomic --visited bit"
say "## this tree ($(at) s)"
bench "$B" "$OUT/bench/new" "1d-td:$td|2d-1x1:--partition 2d --grid 1x1"
if [ -n "${BASE:-}" ] && [ -x "$BASE/build-gpu/src/boxbfs" ]; then
    say "## base tree, 2D before ($(at) s)"
    bench "$BASE/build-gpu/src/boxbfs" "$OUT/bench/base" "2d-1x1-before:--partition 2d --grid 1x1" \
        "kron-22:8 kron-24:8 USA-road:4"
fi
say "## variants ($(at) s)"
BOXBFS=$B CACHE=$CACHE DEADLINE_AT=$((T0 + 470)) ROOTS=16 ROOTS_FOR="USA-road:8" \
    GRAPHS="kron:24 data/USA-road-FLA.mtx.gz" COMMON="--backend cuda" \
    VARIANTS="1d-td-noloop:$td --device-loop 0" \
    tools/bench-engine "$OUT/bench/variants" >/dev/null 2>&1
cat "$OUT/bench/variants/engine.txt" >>"$F"
say "# done ($(at) s)"

(cd "$OUT" && tar czf bench.tar.gz bench && rm -rf bench)
(cd "$L" && tar czf "$OUT/memcheck.tar.gz" memcheck-*.log && rm -f memcheck-*.log)
cp build-gpu/tests/*.log build-gpu/tests/*.trs "$L/" 2>/dev/null
(cd "$OUT" && tar czf logs.tar.gz logs && rm -rf logs)
cat "$F"
