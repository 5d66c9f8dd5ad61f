#!/bin/sh
# --throttle through the CLI: a slow link model (10 MB/s, 20 ms) paces the
# exchange so that the first root's measured exchange time matches the
# modeled one (tests/paced.py): the left-right copies of one process (cpu
# backend, 2 devices, each copy paced) and, built --with-mpi, the MPI
# exchange across 2 processes (each round paced). Uses $BOXBFS.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
# OPTIONS CMD...: `CMD bfs ... OPTIONS` unthrottled, then throttled until paced (tests/paced.py);
# too slow may be a loaded machine oversleeping (parallel tests, sanitizers),
# so up to 3 tries, as tests/test_throttle does; faster than the model fails at once
paced() {
    extra=$1; shift
    "$@" bfs $opts $extra --json "$tmp/u.json" >/dev/null 2>&1
    for try in 1 2 3; do
        "$@" bfs $opts $extra --throttle --json "$tmp/t.json" >/dev/null 2>&1
        python3 "$(dirname "$0")/paced.py" "$tmp/t.json" "$tmp/u.json"
        rc=$?
        [ $rc -eq 2 ] || return $rc
    done
    return 1
}
opts="kron:10 --root 1 --backend cpu --link-model 10MB/s,20ms --no-validate"

check "peer copies, 2 devices: paced to the model" "paced '--devices 2' '$BOXBFS'"

if have_mpi; then
    M="$MPIRUN -np 2"
    check "mpi, 2 processes: paced to the model" "paced '--exchange mpi' $M '$BOXBFS'"
    $M "$BOXBFS" bfs $opts --exchange mpi --order topology >/dev/null 2>"$tmp/e"
    check "mpi with --order topology: refused, says why" \
        "grep -q 'does not combine with --link-model measured or --order topology' '$tmp/e'"
else
    echo "no MPI build or no mpirun: the MPI exchange's pacing not tested"
fi
exit $fail
