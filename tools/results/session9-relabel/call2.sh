#!/bin/sh
# Session 9, second call: the binsearch expand's L1 / shared-memory split
# (BOXBFS_EXPAND_CARVEOUT, an experiment's knob: percent of the most shared
# memory) with and without --relabel degree, kron:24 top-down and auto.
#   export BB_COMMIT=...; sh tools/results/session9-relabel/call2.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-550} - ${1:-0})) ]; }
say "# session9-relabel call2 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt() {   # NAME CARVEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 cv=$2; shift 2
    if late 40; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    if [ "$cv" = - ]; then unset BOXBFS_EXPAND_CARVEOUT; else export BOXBFS_EXPAND_CARVEOUT=$cv; fi
    timeout 100 "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_TEPS\|validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
    python3 - "$J/$name.json" <<'PY' | tee -a "$F"
import json, sys
j = json.load(open(sys.argv[1]))
print("   levels:", " ".join("L%d %s %d %.0fus" % (i, l["direction"][:2], l["frontier"], l["time_s"] * 1e6)
                           for i, l in enumerate(j["traffic"]["levels"]) if l["time_s"] > 20e-6))
PY
}
C="--backend cuda --devices 1 --contract atomic --visited bit --roots 16"
R="--relabel degree"
for cv in - 72 58 44 28; do
    pt td-relabel-c$cv $cv "$B" bfs "$G/k24.bbcsr" $C --direction top-down $R
done
pt td-plain-c- - "$B" bfs "$G/k24.bbcsr" $C --direction top-down
pt td-plain-c44 44 "$B" bfs "$G/k24.bbcsr" $C --direction top-down
pt auto-relabel-c- - "$B" bfs "$G/k24.bbcsr" $C $R
pt auto-relabel-c44 44 "$B" bfs "$G/k24.bbcsr" $C $R
pt auto-relabel-c28 28 "$B" bfs "$G/k24.bbcsr" $C $R
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
