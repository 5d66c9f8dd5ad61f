#!/bin/sh
# Session 9, sixth call: --relabel degree for the other searches on one GPU:
# bfs --sigma (kron:24, first root), bc (kron:22, 256 sources), 2D 1x1
# top-down (kron:24), each with and without; gpu_centrality.sh (the counts'
# file order); Nsight Compute of the relabeled top-down expands at this commit.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call6.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-450} - ${1:-0})) ]; }
say "# session9-relabel call6 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
STAGES=check CHECK_TESTS="tests/gpu_centrality.sh" timeout 150 tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "test gpu_centrality.sh: $(sed -n 's/^:test-result: //p' build-gpu/tests/gpu_centrality.sh.trs 2>/dev/null | head -1)"
wait $genpid
pt() {   # NAME COMMAND...: one point, its JSON in $J/NAME.json
    name=$1; shift
    if late 30; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout 120 "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|aggregate_TEPS\|time_per_source_ms\|^check\|validation:\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
for r in none degree; do
    pt sigma-k24-$r "$B" bfs "$G/k24.bbcsr" --backend cuda --devices 1 --roots 1 --sigma /dev/null --relabel $r
    pt bc-k22-$r "$B" bc kron:22 --backend cuda --devices 1 --sources 256 --top 0 --relabel $r
    pt 2d-k24-$r "$B" bfs "$G/k24.bbcsr" --backend cuda --partition 2d --grid 1x1 --contract atomic \
        --visited bit --roots 16 --relabel $r
done
python3 - "$J" <<'PY' | tee -a "$F"
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "sigma-*.json"))):
    d = json.load(open(f))["sigma"]
    print("%s: sigma %.2f GTEPS, %.3f ms" % (os.path.basename(f), d["teps"] / 1e9, d["time_s"] * 1e3))
PY
if ! late 90; then
    timeout 80 build-gpu/libtool --mode=execute ncu --clock-control none --kernel-name regex:expand_ \
        --csv --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
        "$B" bfs "$G/k24.bbcsr" --backend cuda --devices 1 --contract atomic --visited bit \
        --direction top-down --roots 1 --no-validate --relabel degree \
        >"$OUT/ncu-td-relabel.csv" 2>"$OUT/ncu-td-relabel.err"
    say "ncu td relabel: rc=$? ($(wc -l <"$OUT/ncu-td-relabel.csv") lines)"
fi
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
