#!/bin/sh
# Session 13, call 5: the visited-prefix skip at kron:26 on one H200 (the
# rows ranked in 64 pieces of 2^25 arcs), top-down and auto, 8 roots,
# validated, each with the skip and with BOXBFS_PREFIX_SKIP=0.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session13-prefix/call5.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# session13-prefix call5 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
"$B" gen kron:26 "$G/k26.bbcsr" >"$J/gen26.log" 2>&1
say "gen kron:26: rc=$? ($(($(date +%s) - T0)) s) $(cat "$J/gen26.log")"
C="--backend cuda --devices 1 --contract atomic --visited bit"
pt() {   # NAME TIMEOUT COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 to=$2; shift 2
    if late "$to"; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'ranked\|harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | sed 's/.*rows ranked/ranked/' | head -5 | tr -s ' \n' ' ')"
}
for d in top-down auto; do
    pt k26-$d 100 "$B" bfs "$G/k26.bbcsr" $C --roots 8 --direction $d
    BOXBFS_PREFIX_SKIP=0 pt k26-$d-noskip 100 "$B" bfs "$G/k26.bbcsr" $C --roots 8 --direction $d
done
rm -f "$G/k26.bbcsr"
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
