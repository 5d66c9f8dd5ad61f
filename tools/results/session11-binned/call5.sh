#!/bin/sh
# Session 11, call 5: kron:26 on one H200 with the search on the device
# (code e88da5b's; not measured at kron:26 since session 9): auto, top-down
# and auto with --relabel degree, 8 roots each, validated, as far as the
# 10-minute call allows after generating the graph (~6 min).
#   sh tools/results/session11-binned/call5.sh COMMIT
set -u
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-560} - ${1:-0})) ]; }
say "# session11-binned call5 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit ${1:-?}"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "build: rc=$? ($(($(date +%s) - T0)) s)"
B=$PWD/build-gpu/src/boxbfs
[ -x "$B" ] || exit 1
timeout 430 "$B" gen kron:26 "$G/k26.bbcsr" >"$J/gen26.log" 2>&1
say "gen kron:26: rc=$? ($(($(date +%s) - T0)) s)"
pt() {   # NAME NEED_S COMMAND...: one point, its JSON in $J/NAME.json
    name=$1 need=$2; shift 2
    if late "$need"; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout $((${BUDGET_S:-560} - (t - T0))) "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
}
C="--backend cuda --devices 1 --contract atomic --visited bit --roots 8"
pt k26-auto 40 "$B" bfs "$G/k26.bbcsr" $C
pt k26-td 40 "$B" bfs "$G/k26.bbcsr" $C --direction top-down
pt k26-auto-relabel 55 "$B" bfs "$G/k26.bbcsr" $C --relabel degree
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
