#!/bin/sh
# --partition 2d with one device per MPI rank (docs/architecture.md, "2D partition"):
# `mpirun -np R*C boxbfs bfs ... --exchange mpi --partition 2d` gives
# validated trees and the same traffic (totals, phases, per-link matrix,
# level table) and the same tree as one process with --devices R*C, for
# grids 1x1 .. 2x3 and every wire format; every rank loads the whole graph.
# Skips (77) when boxbfs is built without MPI or mpirun is missing.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
need_mpi
roots="--root 1 --root 5 --root 17 --root 100"

for grid in 1x1 1x2 2x1 2x2 1x3 2x3; do
    for wire in list auto; do
        name="$grid $wire"
        "$BOXBFS" bfs kron:10 $roots --backend cpu --partition 2d --grid $grid --wire $wire \
            --json "$tmp/s.json" --output "$tmp/s.out" >/dev/null 2>"$tmp/se"
        rs=$?
        np=$(echo $grid | awk -Fx '{print $1 * $2}')
        $MPIRUN -np $np "$BOXBFS" bfs kron:10 $roots --backend cpu --exchange mpi --partition 2d \
            --grid $grid --wire $wire --json "$tmp/m.json" --output "$tmp/m.out" >"$tmp/mo" 2>"$tmp/me"
        rm=$?
        check "$name: exit 0, whole graph on every rank" \
              "[ $rs -eq 0 ] && [ $rm -eq 0 ] && grep -q '^# loaded: whole graph on every rank' '$tmp/mo'"
        [ $rm -eq 0 ] || tail -5 "$tmp/me"
        check "$name: same traffic as one process" \
              "python3 '$(dirname "$0")/same_traffic.py' '$tmp/s.json' '$tmp/m.json' mpi"
        check "$name: same tree (--output)" "cmp -s '$tmp/s.out' '$tmp/m.out'"
    done
done
# the grid must match the ranks
$MPIRUN -np 2 "$BOXBFS" bfs kron:8 --roots 1 --backend cpu --exchange mpi --partition 2d \
    --grid 2x2 >/dev/null 2>"$tmp/e1"
rc=$?
check "grid 2x2 on 2 ranks: fails, says why" "[ $rc -ne 0 ] && grep -q 'one device per process' '$tmp/e1'"
exit $fail
