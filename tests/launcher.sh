#!/bin/sh
# Started by an MPI launcher with several processes: --exchange peer|host
# (one process drives every device) refuses to run the same search in every
# process (usage error, exit 1); --exchange nccl across processes in a build
# without MPI (or without NCCL) fails with a message saying what is missing.
# The launcher is faked by its variable (OMPI_COMM_WORLD_SIZE) where MPI is
# not built in, and is a real `mpirun -np 2` where it is (whose report says
# it spans 2 processes). Uses $BOXBFS.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"

for ex in peer host; do
    OMPI_COMM_WORLD_SIZE=2 "$BOXBFS" bfs kron:6 --roots 1 --backend cpu --exchange $ex \
        >/dev/null 2>"$tmp/e"
    rc=$?
    check "2 launched processes, --exchange $ex: exit 1 (usage), says why" \
        "[ $rc -eq 1 ] && grep -q 'MPI launcher started 2 processes' '$tmp/e' && grep -q 'runs in one process' '$tmp/e'"
done

if "$BOXBFS" bfs kron:4 --backend cpu --exchange mpi --roots 1 >/dev/null 2>"$tmp/e0"; then
    command -v mpirun >/dev/null 2>&1 || { echo "mpirun not found: skipped"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    timeout 120 mpirun --oversubscribe -np 2 "$BOXBFS" bfs kron:6 --roots 1 --backend cpu \
        >/dev/null 2>"$tmp/e"
    rc=$?
    check "mpirun -np 2, default exchange: fails, says why" \
        "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'runs in one process' '$tmp/e'"
    timeout 120 mpirun --oversubscribe -np 2 "$BOXBFS" bfs kron:6 --roots 1 --backend cpu \
        --exchange mpi --json "$tmp/m.json" >"$tmp/o" 2>/dev/null
    check "mpirun -np 2 --exchange mpi: the report says 2 processes (text and JSON)" \
        "grep -q '^# backend: cpu  devices: 2  processes: 2' '$tmp/o' && grep -q '\"processes\": 2,' '$tmp/m.json'"
else
    # no MPI: nccl across "processes" cannot run; the message names what is missing
    OMPI_COMM_WORLD_SIZE=2 "$BOXBFS" bfs kron:6 --roots 1 --exchange nccl >/dev/null 2>"$tmp/e"
    rc=$?
    check "2 launched processes, --exchange nccl, no MPI: fails, names MPI or NCCL" \
        "[ $rc -ne 0 ] && grep -E -q 'built without MPI|not built in' '$tmp/e'"
fi
exit $fail
