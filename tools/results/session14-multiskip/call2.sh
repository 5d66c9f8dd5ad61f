#!/bin/sh
# Session 14, call 2: rows shorter than BB_SKIP_MIN_ROW (16) taken whole by
# the visited-prefix skip (call 1: L5, of short rows, cost more with the skip
# than without). gpu_search.sh and gpu_logical.sh; then kron:24 (32 roots,
# validated) with the skip and with BOXBFS_PREFIX_SKIP=0, as in call 1.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session14-multiskip/call2.sh
NAME="session14-multiskip call2"
. tools/call-lib.sh
G=/tmp/bbg
mkdir -p "$G"
build
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
tests gpu_search.sh gpu_logical.sh
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
C="--backend cuda --contract atomic --visited bit"
K="$G/k24.bbcsr"
for s in 1 0; do
    export BOXBFS_PREFIX_SKIP=$s
    point k24-1-td-skip$s 90 "$B" bfs "$K" $C --devices 1 --roots 32 --direction top-down
    point k24-00-td-skip$s 120 "$B" bfs "$K" $C --device-ids 0,0 --roots 32 --direction top-down
    point k24-1-host-td-skip$s 90 "$B" bfs "$K" $C --devices 1 --roots 32 --direction top-down --device-loop 0
    point k24-00-auto-skip$s 120 "$B" bfs "$K" $C --device-ids 0,0 --roots 32
    point k24-1-auto-skip$s 90 "$B" bfs "$K" $C --devices 1 --roots 32
done
finish
