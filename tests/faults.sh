#!/bin/sh
# Injected faults (BOXBFS_FAULT, kernels/fault.c; docs/cli.md, "Environment"):
# an allocation, a host<->device copy, a kernel launch (1D's or 2D's) or a peer copy failing
# at the N-th call (on any device, or one named device), and one MPI rank
# failing, each end in a message naming the fault and exit status 3, within a
# timeout (no hang), with no --output, --json or --traffic-csv file left
# behind, not even a temporary one. Under the ASan build (CI) every run is
# also leak-checked: a leak turns the exit status into 1. Out of device
# memory (--memory-limit) names what was needed and what was free and
# suggests more devices. N runs from 1 until the run succeeds (N past the
# last call of that kind), so every failure point of the run is taken; the
# sweeps of the kinds run at once, each in a folder of its own.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v timeout >/dev/null 2>&1 || { echo "timeout not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
mkdir "$tmp/w" && cd "$tmp/w" || exit 99   # the runs' own files only; out, err in $tmp

files="--output o.txt --json r.json --traffic-csv t.csv"
no_files() { [ -z "$(ls 2>/dev/null)" ]; }

# one run with BOXBFS_FAULT=$1 and the rest as arguments, in the current
# folder; sets $rc, output in $out and $err
out=$tmp/out err=$tmp/err
run_fault() {
    spec=$1; shift
    rm -f ./*
    BOXBFS_FAULT="$spec" timeout 60 "$@" >"$out" 2>"$err"
    rc=$?
}

# every N of kind until the run succeeds; at most $3 failing runs, N stepping by $4
sweep() {   # name kind max step -- command...
    name=$1 kind=$2 max=$3 step=$4; shift 5
    n=1 failed=0 bad=""
    while :; do
        run_fault "$kind:$n" "$@"
        if [ $rc -eq 0 ]; then break; fi
        if [ $rc -ne 3 ] || ! grep -q "injected fault (BOXBFS_FAULT=$kind:$n)" "$err" ||
            ! no_files; then
            bad="$bad $n(rc=$rc)"
            [ -n "$(echo $bad | cut -d' ' -f3)" ] || { echo "--- $name $kind:$n:"; tail -3 "$err"; ls; }
        fi
        failed=$((failed + 1))
        [ $failed -lt "$max" ] || break
        n=$((n + (n < 8 ? 1 : step)))
    done
    check "$name: $kind:1..$n ($failed failing runs) each exit 3, named, no file left" \
          "[ -z '$bad' ] && [ $failed -gt 0 ]"
    if [ $failed -lt "$max" ]; then
        check "$name: $kind:$n (past the last call) runs to the end and writes its files" \
              "[ -s o.txt ] && [ -s r.json ] && [ -s t.csv ]"
    fi
}

# the sweeps run at once (hundreds of short runs), each in a folder of its
# own; their lines are printed in order once all have ended
sweep_start() {   # sweep's arguments
    case_add "$1"
    k=$case_i
    ( mkdir "$tmp/w$k" && cd "$tmp/w$k" && out=$tmp/s$k.out err=$tmp/s$k.err && sweep "$@"
      echo $fail >"$tmp/s$k.fail" ) >"$tmp/s$k.log" 2>&1 &
}
sweep_report() {   # I NAME: sweep I's lines, a failure if it did not end
    cat "$tmp/s$1.log"
    [ "$(cat "$tmp/s$1.fail" 2>/dev/null)" = 0 ] || { echo "FAIL sweep $2 did not end"; fail=1; }
}
B="$BOXBFS bfs kron:6 --backend cpu --roots 2 --seed 3 $files"
sweep_start "2 devices peer" alloc 200 1 -- $B --devices 2
sweep_start "2 devices peer" copy 200 2 -- $B --devices 2
sweep_start "2 devices peer" launch 200 2 -- $B --devices 2
sweep_start "3 devices peer valid-flag" peer_copy 200 2 -- $B --devices 3 --contract valid-flag
sweep_start "2 devices host atomic" copy 200 2 -- $B --devices 2 --exchange host --contract atomic
sweep_start "2 devices sort-unique" launch 200 2 -- $B --devices 2 --contract sort-unique
sweep_start "4 devices valid-flag top-down" launch 200 2 -- $B --devices 4 --direction top-down --contract valid-flag
sweep_start "3 devices host bitmap wire" launch 200 2 -- $B --devices 3 --exchange host --wire bitmap --contract valid-flag
sweep_start "3 devices bottom-up" copy 200 2 -- $B --devices 3 --direction bottom-up
sweep_start "1 device" alloc 200 1 -- $B --devices 1
sweep_start "1 device" launch 200 2 -- $B --devices 1
# 2D: its kernels count as launches (bb_fault_wrap_grid2d), the device loop's too
sweep_start "2x2 grid, the device loop" launch 200 2 -- $B --devices 4 --partition 2d --grid 2x2
sweep_start "2x3 grid top-down, host-driven" launch 200 2 -- $B --devices 6 --partition 2d --grid 2x3 --direction top-down --device-loop 0
sweep_start "2x2 grid" copy 200 2 -- $B --devices 4 --partition 2d --grid 2x2
cases_check sweep_report

# one named device: the message names it
run_fault "alloc:4:dev 1" $B --devices 3
check "alloc:4:dev 1: exit 3 on device 1, no file" \
      "[ $rc -eq 3 ] && grep -q 'on device 1 failed' "$tmp/err" && grep -q 'ran out of memory' "$tmp/err" && no_files"
run_fault "launch:9:dev 2" $B --devices 3
check "launch:9:dev 2: exit 3 on device 2" "[ $rc -eq 3 ] && grep -q 'on device 2 failed' "$tmp/err""
run_fault "launch:9:dev 5" $B --devices 3
check "launch:9:dev 5 (no such device): nothing fails" "[ $rc -eq 0 ]"

# a malformed switch is a usage error
for spec in "alloc" "alloc:0" "alloc:x" "disk:1" "copy:2:dev" "copy:2:gpu 1" "rank:-1"; do
    run_fault "$spec" $B --devices 2
    check "BOXBFS_FAULT='$spec': exit 1, names the switch" \
          "[ $rc -eq 1 ] && grep -q \"BOXBFS_FAULT='$spec'\" "$tmp/err" && no_files"
done

# the probe's peer copies
run_fault "peer_copy:2" "$BOXBFS" topo --backend cpu --devices 2 --probe --json r.json
check "topo --probe, peer_copy:2: exit 3, no JSON" \
      "[ $rc -eq 3 ] && grep -q 'injected fault' "$tmp/err" && no_files"

# out of device memory: what was needed, what was free, more devices
rm -f ./*
timeout 60 $B --devices 2 --memory-limit 1000 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--memory-limit 1000: exit 3, needed and free named, more devices suggested, no file" \
      "[ $rc -eq 3 ] && grep -q 'needs .* but has 0.98 KiB free under --memory-limit' "$tmp/err" &&
       grep -q 'try more devices' "$tmp/err" && no_files"

# an existing output file is left as it was when the run fails
echo keep >o.txt
BOXBFS_FAULT="launch:20" timeout 60 $B --devices 2 --contract valid-flag >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a failing run leaves an existing --output file as it was" \
      "[ $rc -eq 3 ] && [ \"\$(cat o.txt)\" = keep ] && [ \$(ls | wc -l) -eq 1 ]"

# one MPI rank failing: every rank ends, exit 3, no file on rank 0
if have_mpi; then
    M="$MPIRUN -np 2 $BOXBFS bfs kron:8 --backend cpu --exchange mpi --roots 2 $files"
    for spec in rank:1 rank:0 rank:1:12 rank:0:25 rank:1:38 rank:0:40; do
        run_fault "$spec" $M
        check "mpirun -np 2, $spec: exit 3, the failing rank named, no file" \
              "[ $rc -eq 3 ] && grep -q 'injected fault (BOXBFS_FAULT=$spec): rank' "$tmp/err" && no_files"
        [ $rc -eq 3 ] || tail -3 "$tmp/err"
    done
    run_fault "alloc:3:dev 1" $M
    check "mpirun -np 2, alloc:3:dev 1 (setup of rank 1): exit 3, no file" \
          "[ $rc -eq 3 ] && grep -q 'ran out of memory' "$tmp/err" && no_files"
    run_fault "rank:7" $M
    check "mpirun -np 2, rank:7 (no such rank): runs to the end" "[ $rc -eq 0 ] && [ -s o.txt ]"
else
    echo "skip MPI rank faults: mpirun or --exchange mpi not available"
fi
exit $fail
