#!/bin/sh
# --exchange nccl (one process, one NCCL rank per GPU): for 1 .. all GPUs and
# every contraction x wire format (visited layout and expand method varied
# along), `boxbfs bfs --exchange nccl` gives validated trees and the same
# traffic (total bytes and messages, phases, per-link matrix, level table,
# per-root bytes) as the same run with --exchange peer; built --with-mpi, the
# same across processes (mpirun -np P, one GPU each). Skips (77) when NCCL
# is not built in; without a GPU it checks that --exchange nccl fails cleanly
# (exit 3, "no GPU") and then skips. Uses $BOXBFS.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"

"$BOXBFS" bfs kron:4 --backend cpu --exchange nccl --roots 1 >/dev/null 2>"$tmp/e0"
if grep -q 'not built in' "$tmp/e0"; then echo "built without NCCL: skipped"; exit 77; fi
check "nccl on the cpu backend: exit 1, says so" \
    "grep -q 'cuda backend only' '$tmp/e0'"
# every GPU (--devices auto counts a device from 1 arc of its own here)
BOXBFS_DEVICES_MIN_ARCS=1 "$BOXBFS" bfs kron:10 --exchange nccl --roots 1 --json "$tmp/probe.json" \
    >"$tmp/o0" 2>"$tmp/e1"
rc=$?
if [ $rc -ne 0 ]; then
    if grep -q -i 'no GPU' "$tmp/e1"; then
        check "no GPU: exit 3 with a message" "[ $rc -eq 3 ]"
        [ $fail -eq 0 ] || exit 1
        echo "no GPU: skipped"; exit 77
    fi
    echo "FAIL probe search with --exchange nccl:"; cat "$tmp/e1"; exit 1
fi
gpus=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['device_count'])" "$tmp/probe.json")
echo "$gpus GPU(s)"

same_traffic() {   # reference.json tested.json (the reference's loop may undo a level: 4 B a vertex)
    python3 "$(dirname "$0")/same_traffic.py" "$1" "$2" nccl 4
}

# (the peer reference's levels driven from the host, as NCCL's are: with
# atomic its search across devices would book another protocol's bytes)
pair_start() {   # I OPTIONS...: pair I's peer then nccl search, in the background
    i=$1; shift
    ( "$BOXBFS" bfs kron:12 --roots 4 "$@" --exchange peer --search-on host --json "$tmp/$i.p.json" \
          >/dev/null 2>"$tmp/$i.pe"
      echo $? >"$tmp/$i.prc"
      "$BOXBFS" bfs kron:12 --roots 4 "$@" --exchange nccl --json "$tmp/$i.n.json" >/dev/null \
          2>"$tmp/$i.ne"
      echo $? >"$tmp/$i.nrc" ) &
}
pair_check() {   # I NAME: both exited 0, validated, the same traffic
    prc=$(cat "$tmp/$1.prc" 2>/dev/null) nrc=$(cat "$tmp/$1.nrc" 2>/dev/null)
    if [ "$prc" != 0 ] || [ "$nrc" != 0 ]; then
        check "$2: both exit 0 (peer $prc, nccl $nrc)" false
        sed 's/^/    /' "$tmp/$1.pe" "$tmp/$1.ne"
        return
    fi
    check "$2: validated, same traffic as peer" "same_traffic '$tmp/$1.p.json' '$tmp/$1.n.json'"
}
run_pair() {   # NAME OPTIONS...: one pair, waited for
    name=$1; shift
    pair_start one "$@"
    wait
    pair_check one "$name"
}

# the nine pairs of a device count run at once (each its own processes)
i=0
for n in $(seq 1 "$gpus"); do
    for contract in sort-unique valid-flag atomic; do
        for wire in list bitmap auto; do
            i=$((i + 1))
            if [ $((i % 2)) -eq 0 ]; then visited=bit; else visited=byte; fi
            case $((i % 3)) in 0) expand=binsearch;; 1) expand=mergepath;; *) expand=auto;; esac
            case_add "N=$n $contract $wire $visited $expand"
            pair_start "$case_i" --backend cuda --devices "$n" --contract "$contract" --wire "$wire" \
                --visited "$visited" --expand "$expand"
        done
    done
    cases_check pair_check
done
if [ "$gpus" -gt 1 ]; then   # rank order != ordinal order: NCCL ranks follow the engine order
    ids=$(seq $((gpus - 1)) -1 0 | paste -sd, -)
    run_pair "N=$gpus --device-ids $ids" --backend cuda --device-ids "$ids" --wire auto
    # --throttle paces each NCCL round to the link model (tests/paced.py)
    t="kron:10 --root 1 --backend cuda --devices $gpus --exchange nccl --link-model 10MB/s,2ms --no-validate"
    "$BOXBFS" bfs $t --json "$tmp/u.json" >/dev/null 2>&1
    "$BOXBFS" bfs $t --throttle --json "$tmp/t.json" >/dev/null 2>&1
    check "N=$gpus nccl --throttle: paced to the model" \
        "python3 '$(dirname "$0")/paced.py' '$tmp/t.json' '$tmp/u.json'"
fi

# across processes (built --with-mpi): mpirun -np P, one GPU and one NCCL rank
# per process, bootstrapped over MPI; the same traffic as --exchange peer with
# --devices P in one process. With one GPU, two processes must fail cleanly.
if have_mpi; then
    for p in $(seq 2 "$gpus"); do
        for contract in valid-flag atomic; do
            "$BOXBFS" bfs kron:12 --roots 4 --backend cuda --devices "$p" --contract "$contract" \
                --wire auto --exchange peer --search-on host --json "$tmp/p.json" >/dev/null 2>"$tmp/pe"
            timeout 300 mpirun -np "$p" "$BOXBFS" bfs kron:12 --roots 4 --backend cuda \
                --contract "$contract" --wire auto --exchange nccl --json "$tmp/m.json" \
                >"$tmp/mo" 2>"$tmp/me"
            rc=$?
            check "mpirun -np $p nccl $contract: exit 0" "[ $rc -eq 0 ]"
            [ $rc -eq 0 ] || tail -5 "$tmp/me"
            check "mpirun -np $p nccl $contract: validated, same traffic as peer" \
                "same_traffic '$tmp/p.json' '$tmp/m.json'"
        done
    done
    if [ "$gpus" -eq 1 ]; then
        timeout 300 mpirun --oversubscribe -np 2 "$BOXBFS" bfs kron:10 --roots 1 --backend cuda \
            --exchange nccl >/dev/null 2>"$tmp/me"
        rc=$?
        check "mpirun -np 2 on 1 GPU: fails, says why" \
            "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'no GPU of its own' '$tmp/me'"
    fi
else
    echo "no MPI build or no mpirun: NCCL across processes not tested"
fi
exit $fail
