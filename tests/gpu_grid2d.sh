#!/bin/sh
# --partition 2d on the cuda backend (docs/architecture.md, "2D partition"): for every grid
# the GPUs here allow (R x C <= GPUs, R, C <= 2), in every direction
# (top-down, bottom-up, auto), the cuda run counts the same traffic
# (totals, phases, per-link matrix, level table, per-root bytes) and gives
# the same levels as the cpu backend, and validates; on 1x1 also with each
# expand load balancer and arcs per thread.
# --exchange nccl (built with NCCL): grid 1x1 on one GPU counts the same
# traffic and gives the same levels as --exchange peer; with two GPUs, grids
# 1x2 and 2x1 over NCCL equal peer (bytes and messages per phase, link and
# level), and `mpirun -np 2 ... --exchange nccl` (built --with-mpi) equals
# one process. A section that needs what is missing (NCCL, a second GPU,
# MPI) is skipped and the log says so. Skips (77) without a GPU or without
# the cuda backend. The cases of a grid run at once (each in files of its
# own) and are checked in order.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
need_gpu
if ! "$BOXBFS" bfs kron:6 --backend cuda --devices 1 --partition 2d --roots 1 >/dev/null 2>"$tmp/e"; then
    if grep -q "2D kernels are not built in" "$tmp/e"; then
        echo "the cuda backend has no 2D kernels yet: skipped"; exit 77
    fi
    echo "FAIL --partition 2d on the cuda backend:"; cat "$tmp/e"; exit 1
fi
gpus=$(python3 - "$BOXBFS" <<'PY'
import subprocess, sys
n = 1
for k in range(2, 9):
    r = subprocess.run([sys.argv[1], "bfs", "kron:4", "--backend", "cuda", "--devices", str(k),
                        "--roots", "1", "--no-validate"], capture_output=True)
    if r.returncode != 0:
        break
    n = k
print(n)
PY
)
against_start() {   # I OPTIONS...: case I's cpu then cuda run on kron:14, 4 roots, in the background
    i=$1; shift
    ( "$BOXBFS" bfs kron:14 --roots 4 --backend cpu --partition 2d "$@" \
          --json "$tmp/$i.c.json" --output "$tmp/$i.c.out" >/dev/null 2>&1
      "$BOXBFS" bfs kron:14 --roots 4 --backend cuda --partition 2d "$@" \
          --json "$tmp/$i.g.json" --output "$tmp/$i.g.out" >/dev/null 2>"$tmp/$i.ge"
      echo $? >"$tmp/$i.rc" ) &
}
against_check() {   # I NAME: case I's cuda run against its cpu run
    i=$1 name=$2
    rc=$(cat "$tmp/$i.rc" 2>/dev/null)
    check "$name: cuda exit 0" "[ '$rc' = 0 ]"
    [ "$rc" = 0 ] || cat "$tmp/$i.ge"
    check "$name: same traffic as cpu" "python3 - '$tmp/$i.c.json' '$tmp/$i.g.json' <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['validation'] == b['validation'] == 'passed'
ta, tb = a['traffic'], b['traffic']
for k in ('total_bytes', 'total_messages', 'phases', 'phase_messages', 'links'):
    assert ta[k] == tb[k], (k, ta[k], tb[k])
keys = ('level', 'frontier', 'frontier_arcs', 'sent_vertices', 'bytes', 'messages',
        'bitmap_messages')
assert [[l[k] for k in keys] for l in ta['levels']] == [[l[k] for k in keys] for l in tb['levels']]
assert [r['bytes'] for r in a['runs']] == [r['bytes'] for r in b['runs']]
PY"
    check "$name: same levels as cpu" \
        "cut -d' ' -f1,2 '$tmp/$i.c.out' >'$tmp/$i.c.l'; cut -d' ' -f1,2 '$tmp/$i.g.out' >'$tmp/$i.g.l'
         cmp -s '$tmp/$i.c.l' '$tmp/$i.g.l'"
}
# the cases of one grid (and then the expand's) run at once, checked in order
against() {   # NAME OPTIONS...: start case NAME
    case_add "$1"
    shift
    against_start "$case_i" "$@"
}
for grid in 1x1 1x2 2x1 2x2; do
    np=$(echo $grid | awk -Fx '{print $1 * $2}')
    [ "$np" -le "$gpus" ] || continue
    for wire in list auto; do
        for dir in top-down bottom-up auto; do
            against "$grid $wire $dir" --grid $grid --wire $wire --direction $dir
        done
    done
    cases_check against_check
done
# the expand's load balancers and arcs per thread (the cpu backend has neither)
for ex in "mergepath" "auto --expand-f0 3" "binsearch --expand-k 1" "binsearch --expand-k 16"; do
    # shellcheck disable=SC2086
    against "1x1 --expand $ex" --grid 1x1 --wire auto --direction top-down --expand $ex
done
cases_check against_check

# --exchange nccl: the same rounds as peer, moved by NCCL (docs/architecture.md, "2D partition")
same_traffic() {   # reference.json tested.json: validated, same traffic and level table
    python3 "$(dirname "$0")/same_traffic.py" "$1" "$2" nccl
}
same_levels() {    # a.out b.out: the same level of every vertex
    cut -d' ' -f1,2 "$1" >"$tmp/a.l"; cut -d' ' -f1,2 "$2" >"$tmp/b.l"; cmp -s "$tmp/a.l" "$tmp/b.l"
}
nccl_pair() {      # GRID WIRE: one process, --exchange peer against --exchange nccl
    name="$1 $2 nccl"
    set -- kron:14 --roots 4 --backend cuda --partition 2d --grid "$1" --wire "$2"
    "$BOXBFS" bfs "$@" --exchange peer --json "$tmp/p.json" --output "$tmp/p.out" >/dev/null 2>"$tmp/pe"
    prc=$?
    "$BOXBFS" bfs "$@" --exchange nccl --json "$tmp/n.json" --output "$tmp/n.out" >/dev/null 2>"$tmp/ne"
    nrc=$?
    check "$name: exit 0 (peer $prc, nccl $nrc)" "[ $prc -eq 0 ] && [ $nrc -eq 0 ]"
    if [ $prc -ne 0 ] || [ $nrc -ne 0 ]; then sed 's/^/    /' "$tmp/pe" "$tmp/ne"; return; fi
    check "$name: validated, same bytes and messages (phases, links, levels) as peer" \
        "same_traffic '$tmp/p.json' '$tmp/n.json'"
    check "$name: same levels as peer" "same_levels '$tmp/p.out' '$tmp/n.out'"
}
"$BOXBFS" bfs kron:4 --backend cuda --exchange nccl --partition 2d --roots 1 >/dev/null 2>"$tmp/e"
if grep -q 'not built in' "$tmp/e"; then
    echo "built without NCCL: the --exchange nccl sections skipped"
else
    for wire in list auto; do nccl_pair 1x1 $wire; done
    if [ "$gpus" -lt 2 ]; then
        echo "$gpus GPU: the 2-GPU nccl section (1x2, 2x1, mpirun -np 2) skipped"
    else
        for grid in 1x2 2x1; do
            for wire in list auto; do nccl_pair $grid $wire; done
        done
        # across processes: one GPU and one NCCL rank per process, the same as one process
        if ! command -v mpirun >/dev/null 2>&1 ||
           ! "$BOXBFS" bfs kron:4 --backend cpu --exchange mpi --roots 1 >/dev/null 2>&1; then
            echo "no MPI build or no mpirun: the mpirun -np 2 nccl section skipped"
        else
            export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
            for grid in 1x2 2x1; do
                set -- kron:14 --roots 4 --backend cuda --partition 2d --grid $grid --wire auto \
                    --exchange nccl
                "$BOXBFS" bfs "$@" --json "$tmp/o.json" --output "$tmp/o.out" >/dev/null 2>"$tmp/oe"
                orc=$?
                timeout 300 mpirun -np 2 "$BOXBFS" bfs "$@" --json "$tmp/m.json" \
                    --output "$tmp/m.out" >"$tmp/mo" 2>"$tmp/me"
                mrc=$?
                check "mpirun -np 2 $grid nccl: exit 0 (one process $orc, mpirun $mrc)" \
                    "[ $orc -eq 0 ] && [ $mrc -eq 0 ]"
                if [ $orc -ne 0 ] || [ $mrc -ne 0 ]; then tail -5 "$tmp/oe" "$tmp/me"; continue; fi
                check "mpirun -np 2 $grid nccl: validated, same traffic as one process" \
                    "same_traffic '$tmp/o.json' '$tmp/m.json'"
                check "mpirun -np 2 $grid nccl: same levels as one process" \
                    "same_levels '$tmp/o.out' '$tmp/m.out'"
            done
        fi
    fi
fi
exit $fail
