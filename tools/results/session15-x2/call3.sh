#!/bin/sh
# Session 15, call 3 (2 GPUs, warm or fresh): why a device-loop level of
# --direction auto costs ~120 us on each of two GPUs where top-down's costs
# ~15 us (call 1: kron:24 L0 and L1, kron:26 L0). kron:24 auto on 2 GPUs with
# one option changed at a time, top-down beside it; then test_gpu_engine on
# the two GPUs (never run on two physical GPUs before).
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); BUDGET_S=240 sh tools/results/session15-x2/call3.sh
NAME="session15-x2 call3"
. tools/call-lib.sh
build
G=build-gpu/graphs
mkdir -p $G
[ -f $G/k24.bbcsr ] || { "$B" gen kron:24 $G/k24.bbcsr >/dev/null 2>&1; say "gen kron:24: rc=$?"; }
C="--backend cuda --contract atomic --visited bit --devices 2 --roots 8"
point k24-auto-2 30 "$B" bfs $G/k24.bbcsr $C --direction auto
point k24-td-2 30 "$B" bfs $G/k24.bbcsr $C --direction top-down
export BOXBFS_PREFIX_SKIP=0
point k24-auto-2-skip0 30 "$B" bfs $G/k24.bbcsr $C --direction auto
unset BOXBFS_PREFIX_SKIP
point k24-auto-2-recompute 30 "$B" bfs $G/k24.bbcsr $C --direction auto --parents recompute
point k24-auto-2-dl0 30 "$B" bfs $G/k24.bbcsr $C --direction auto --device-loop 0
python3 tools/level-costs "$J"/*.json | tee -a "$F"
for f in "$J"/*.json; do
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1].split('/')[-1], [(l['level'], l['direction'][0], l['device_loop'], round(l['time_s']*1e6,1)) for l in d['traffic']['levels'][:4]])" "$f"
done | tee -a "$F"
TESTS_TIMEOUT=$((BUDGET_S - ($(date +%s) - T0) - 15)) tests test_gpu_engine
finish
