#!/bin/sh
# Session 9: vertex order by degree (--relabel degree) on one GPU. kron:24
# top-down and auto with and without it (64 roots, the same root set),
# Nsight Compute's L1/L2 figures of the top-down expands, USA-road-FLA,
# the GPU CLI test (cuda levels = cpu levels with --relabel), kron:26 if
# time is left.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-550} - ${1:-0})) ]; }
say "# session9-relabel call $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late 40; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'relabeled by\|harmonic_mean_TEPS:\|median_TEPS\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
C="--backend cuda --devices 1 --contract atomic --visited bit"
pt k24-td 120 "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 64
pt k24-td-relabel 120 "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 64 --relabel degree
pt k24-auto 120 "$B" bfs "$G/k24.bbcsr" $C --roots 64
pt k24-auto-relabel 120 "$B" bfs "$G/k24.bbcsr" $C --roots 64 --relabel degree
pt k24-td-relabel-k16 120 "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 64 --relabel degree --expand-k 16
if ! late 200; then
    STAGES=check CHECK_TESTS="tests/gpu_cli.sh" timeout 150 tools/gpu-check "$OUT/g" >/dev/null 2>&1
    say "test gpu_cli.sh: $(sed -n 's/^:test-result: //p' build-gpu/tests/gpu_cli.sh.trs 2>/dev/null | head -1)"
    cp build-gpu/tests/gpu_cli.sh.log "$OUT/" 2>/dev/null
fi
for v in plain relabel; do   # one top-down search after the warm-up: L1 hit rate, L2 requests
    late 120 && break
    x=""; [ $v = relabel ] && x="--relabel degree"
    timeout 100 build-gpu/libtool --mode=execute ncu --clock-control none --kernel-name regex:expand_ \
        --csv --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
        "$B" bfs "$G/k24.bbcsr" $C --direction top-down --roots 1 --no-validate $x \
        >"$OUT/ncu-td-$v.csv" 2>"$OUT/ncu-td-$v.err"
    say "ncu td $v: rc=$? ($(wc -l <"$OUT/ncu-td-$v.csv") lines)"
done
if [ -f data/USA-road-FLA.mtx.gz ] && ! late 120; then
    "$B" gen data/USA-road-FLA.mtx.gz "$G/fla.bbcsr" >"$J/genfla.log" 2>&1
    pt fla-auto 60 "$B" bfs "$G/fla.bbcsr" $C --roots 16
    pt fla-auto-relabel 60 "$B" bfs "$G/fla.bbcsr" $C --roots 16 --relabel degree
fi
if ! late 240; then
    "$B" gen kron:26 "$G/k26.bbcsr" >"$J/gen26.log" 2>&1
    say "gen kron:26: ($(($(date +%s) - T0)) s)"
    pt k26-td-relabel 100 "$B" bfs "$G/k26.bbcsr" $C --direction top-down --roots 8 --relabel degree
    pt k26-td 100 "$B" bfs "$G/k26.bbcsr" $C --direction top-down --roots 8
    pt k26-auto-relabel 100 "$B" bfs "$G/k26.bbcsr" $C --roots 8 --relabel degree
fi
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
