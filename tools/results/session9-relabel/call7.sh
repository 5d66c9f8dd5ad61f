#!/bin/sh
# Session 9, seventh call: with --relabel degree the binsearch kernel's L1
# room depends on K (K = 2: 32 registers, 8 blocks per SM; K = 4: 64, and
# 17 KiB of shared memory per block instead of 25), and auto's switches
# (alpha, beta) were tuned on scrambled ids: kron:24, 16 roots, atomic, bit.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session9-relabel/call7.sh
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-400} - ${1:-0})) ]; }
say "# session9-relabel call7 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || { tail -30 "$OUT/g/build.log"; exit 1; }
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
pt() {   # NAME OPTIONS...: one point on kron:24 with --relabel degree
    name=$1; shift
    if late 25; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout 60 "$B" bfs "$G/k24.bbcsr" --backend cuda --devices 1 --contract atomic --visited bit \
        --roots 16 --relabel degree "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|validation:\|rror' "$J/$name.log" | head -3 | tr -s ' \n' ' ')"
    python3 - "$J/$name.json" <<'PY' | tee -a "$F"
import json, sys
j = json.load(open(sys.argv[1]))
print("   median %.3f ms;" % (j["time_s"]["median"] * 1e3), " ".join("L%d %s %d %.0fus" % (i, l["direction"][:2], l["frontier"], l["time_s"] * 1e6)
                           for i, l in enumerate(j["traffic"]["levels"]) if l["time_s"] > 20e-6))
PY
}
for k in 8 4 2; do pt td-k$k --direction top-down --expand-k $k; done
pt auto-k8
pt auto-k4 --expand-k 4
pt auto-beta6 --beta 6
pt auto-beta48 --beta 48
pt auto-alpha30 --alpha 30
pt auto-alpha8 --alpha 8
pt td-k8-again --direction top-down
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
