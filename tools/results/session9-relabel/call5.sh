#!/bin/sh
# Session 9, fifth call: msbfs --relabel degree at kron:24 x 1024 sources
# (groups of 128, GroupBy; with and without, validated), and the GPU tests
# of the CLI changes (gpu_cli.sh, gpu_msbfs.sh).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call5.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-500} - ${1:-0})) ]; }
say "# session9-relabel call5 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
tests="gpu_cli.sh gpu_msbfs.sh"
STAGES=check CHECK_TESTS="$(for t in $tests; do printf 'tests/%s ' $t; done)" \
    timeout 200 tools/gpu-check "$OUT/g" >/dev/null 2>&1
for t in $tests; do
    say "test $t: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$t.trs" 2>/dev/null | head -1)"
done
(cd build-gpu/tests && tar czf "$OUT/logs.tar.gz" ./gpu_*.log ./gpu_*.trs 2>/dev/null)
wait $genpid
say "gen kron:24 + tests: ($(($(date +%s) - T0)) s)"
pt() {   # NAME COMMAND...: one point, its JSON in $J/NAME.json
    name=$1; shift
    if late 40; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout 120 "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'GTEPS\|validation\|relabeled\|rror' "$J/$name.log" | grep -v '^  *[0-9]' | head -4 | tr -s ' \n' ' ')"
    python3 - "$J/$name.json" <<'PY' | tee -a "$F"
import json, sys
j = json.load(open(sys.argv[1]))
print("   %.1f GTEPS (Graph500), %.1f (paper), %.4f s, validation %s, relabel %s" % (j["teps"]["graph500"] / 1e9, j["teps"]["paper"] / 1e9, j["total_time_s"], j.get("validation"), j["options"].get("relabel")))
PY
}
M="--backend cuda --devices 1 --sources 1024 --group-size 128"
for r in 1 2; do
    pt msbfs-k24-$r "$B" msbfs "$G/k24.bbcsr" $M
    pt msbfs-k24-relabel-$r "$B" msbfs "$G/k24.bbcsr" $M --relabel degree
done
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
