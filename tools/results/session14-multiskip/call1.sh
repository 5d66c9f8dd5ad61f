#!/bin/sh
# Session 14, call 1: the visited-prefix skip on several devices and on
# host-driven levels. Build; memcheck (kron:14 top-down on two logical
# devices, on one device with --device-loop 0, and the device search);
# gpu_logical.sh (cuda = cpu traffic and levels, the skip on), gpu_search.sh,
# test_gpu_engine, gpu_cli.sh; then kron:24 (32 roots, validated) with the
# skip and with BOXBFS_PREFIX_SKIP=0: one device top-down and auto (device
# search), one device --device-loop 0 top-down (host levels), two logical
# devices (--device-ids 0,0) top-down and auto.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session14-multiskip/call1.sh
NAME="session14-multiskip call1"
. tools/call-lib.sh
G=/tmp/bbg
mkdir -p "$G"
build
"$B" gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1 &
genpid=$!
C="--backend cuda --contract atomic --visited bit"
mc() {   # NAME OPTIONS...: compute-sanitizer memcheck
    name=$1; shift
    timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck \
        --error-exitcode 9 "$B" bfs $C --roots 2 "$@" >"$OUT/memcheck-$name.log" 2>&1
    say "memcheck $name: rc=$? $(grep -h 'ERROR SUMMARY\|^validation\|visited-prefix' "$OUT/memcheck-$name.log" | sed 's/.*\(visited-prefix skip\)/\1/' | tr -s ' \n' ' ')"
}
mc k14-td-00 kron:14 --device-ids 0,0 --direction top-down
mc k14-td-host kron:14 --devices 1 --direction top-down --device-loop 0
mc k14-td-search kron:14 --devices 1 --direction top-down
tests gpu_logical.sh gpu_search.sh test_gpu_engine gpu_cli.sh
wait $genpid
say "gen kron:24: ($(($(date +%s) - T0)) s)"
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
