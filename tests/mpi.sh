#!/bin/sh
# --exchange mpi: `mpirun -np P boxbfs bfs ... --exchange mpi` (one device per
# rank) gives validated trees and the same traffic (total bytes and messages,
# phases, per-link matrix, level table) and the same tree as the
# single-process `--devices P` run, for P = 1..4 and every contraction
# method; whether each rank loads its slice (kron:, .bbcsr: the default) or
# the whole graph (--whole-graph), with the same partition and TEPS counts.
# Trees broken on purpose fail across ranks (tests/test_mpi_tree under
# mpirun). Skips (77) when boxbfs is built without MPI or mpirun is missing.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
need_mpi
roots="--root 1 --root 5 --root 17 --root 100"

same_traffic() {   # reference.json tested.json (a reference's loop may undo a level: 4 B a vertex)
    python3 "$(dirname "$0")/same_traffic.py" "$1" "$2" mpi 4
}

# (the single process's levels driven from the host, as a rank's are: with
# atomic its search across devices would book another protocol's bytes)
for p in 1 2 3 4; do
    for c in sort-unique valid-flag atomic; do
        "$BOXBFS" bfs kron:10 $roots --backend cpu --devices $p --contract $c --search-on host \
            --json "$tmp/s.json" --output "$tmp/s.out" >/dev/null 2>"$tmp/se"
        rs=$?
        $MPIRUN -np $p "$BOXBFS" bfs kron:10 $roots --backend cpu --exchange mpi --contract $c \
            --json "$tmp/m.json" --output "$tmp/m.out" >"$tmp/mo" 2>"$tmp/me"
        rm=$?
        check "np $p $c: exit 0" "[ $rs -eq 0 ] && [ $rm -eq 0 ]"
        [ $rm -eq 0 ] || tail -5 "$tmp/me"
        check "np $p $c: same traffic, levels and runs as --devices $p" \
              "same_traffic '$tmp/s.json' '$tmp/m.json'"
        check "np $p $c: same tree (--output)" "cmp -s '$tmp/s.out' '$tmp/m.out'"
    done
done

# per-rank slices of kron:12 and of the same graph as a .bbcsr file, and the
# whole graph on every rank: the partition (device memory), the traffic, the
# tree and the TEPS counts (input edges per root) of the single process
same_run() {   # reference.json tested.json: same device memory and input edges per root
    python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
# less the short rows: one device's loop keeps them, and the references run without the loop
mem = lambda j: [d["memory_bytes"] - d.get("arrays", {}).get("short_rows", 0) for d in j["devices"]]
assert mem(a) == mem(b), (mem(a), mem(b))
assert [r["input_edges"] for r in a["runs"]] == [r["input_edges"] for r in b["runs"]]
EOF
}
"$BOXBFS" convert kron:12 "$tmp/k12.bbcsr" >/dev/null 2>&1
check "convert kron:12 to .bbcsr" "[ -s '$tmp/k12.bbcsr' ]"
# the references without the device loop: a rank cannot run it (one process
# holds every device), and its log and mailboxes would count in their memory
for p in 1 2 3 4; do
    "$BOXBFS" bfs kron:12 $roots --backend cpu --devices $p --device-loop 0 --json "$tmp/s.json" \
        --output "$tmp/s.out" >/dev/null 2>&1
    for input in kron:12 "$tmp/k12.bbcsr"; do
        for how in slices whole; do
            flag=""; loaded="per-rank slices (rank 0 rows \[0, "
            if [ $how = whole ]; then flag="--whole-graph"; loaded="whole graph on every rank"; fi
            name="np $p $(basename "$input") $how"
            $MPIRUN -np $p "$BOXBFS" bfs "$input" $roots --backend cpu --exchange mpi $flag \
                --json "$tmp/m.json" --output "$tmp/m.out" >"$tmp/mo" 2>"$tmp/me"
            rc=$?
            check "$name: exit 0, says how it loaded" \
                  "[ $rc -eq 0 ] && grep -q '^# loaded: $loaded' '$tmp/mo'"
            [ $rc -eq 0 ] || tail -5 "$tmp/me"
            check "$name: same traffic as --devices $p" "same_traffic '$tmp/s.json' '$tmp/m.json'"
            check "$name: same partition and TEPS counts" "same_run '$tmp/s.json' '$tmp/m.json'"
            check "$name: same tree (--output)" "cmp -s '$tmp/s.out' '$tmp/m.out'"
        done
    done
done
"$BOXBFS" bfs kron:12 $roots --backend cpu --devices 3 --device-loop 0 --no-validate --json "$tmp/s.json" >/dev/null 2>&1
$MPIRUN -np 3 "$BOXBFS" bfs kron:12 $roots --backend cpu --exchange mpi --no-validate \
    --json "$tmp/m.json" >/dev/null 2>&1
check "np 3 slices --no-validate: same TEPS counts" "same_run '$tmp/s.json' '$tmp/m.json'"
check "np 3 slices: JSON says how it loaded" \
      "python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))[\"graph\"]; assert g[\"loaded\"] == \"per-rank slices\" and g[\"rank0_rows\"][0] == 0 < g[\"rank0_rows\"][1] < 4096' '$tmp/m.json'"

# a slice that cannot be read: every rank says why and exits 1, none hangs
timeout 120 $MPIRUN -np 2 "$BOXBFS" bfs "$tmp/missing.bbcsr" --backend cpu --exchange mpi \
    >/dev/null 2>"$tmp/e3"
rc=$?
check "missing .bbcsr under mpi: exit 1, says why" "[ $rc -eq 1 ] && grep -q 'missing.bbcsr: cannot open' '$tmp/e3'"

# tree checks across ranks: good trees pass, broken ones fail on every rank
tree_test="$(dirname "$BOXBFS")/../tests/test_mpi_tree"
for p in 1 2 3 4; do
    $MPIRUN -np $p "$tree_test" >"$tmp/to" 2>&1
    rc=$?
    check "np $p: test_mpi_tree (slices, broken trees across ranks)" "[ $rc -eq 0 ]"
    [ $rc -eq 0 ] || tail -20 "$tmp/to"
done

# bitmaps on the wire: same bytes as well
"$BOXBFS" bfs kron:10 $roots --backend cpu --devices 3 --contract valid-flag --wire auto \
    --json "$tmp/s.json" >/dev/null 2>&1
$MPIRUN -np 3 "$BOXBFS" bfs kron:10 $roots --backend cpu --exchange mpi --contract valid-flag --wire auto \
    --json "$tmp/m.json" >/dev/null 2>&1
check "np 3 --wire auto: same traffic" "same_traffic '$tmp/s.json' '$tmp/m.json'"

# the atomic method's bitmap outbox, and parents kept or recomputed, across
# ranks (docs/cli.md, "Memory plan"): the same traffic and tree; on 8 devices with
# bit visited and top-down the parent gather takes several rounds
for par in keep recompute; do
    opts="--root 1 --root 5 --contract atomic --wire auto --direction top-down --visited bit"
    "$BOXBFS" bfs kron:14 $opts --parents $par --backend cpu --devices 8 --search-on host --json "$tmp/s.json" \
        --output "$tmp/s.out" >/dev/null 2>&1
    BOXBFS_LOG=info $MPIRUN -np 8 "$BOXBFS" bfs kron:14 $opts --parents $par --backend cpu \
        --exchange mpi --json "$tmp/m.json" --output "$tmp/m.out" >/dev/null 2>"$tmp/me"
    check "np 8 atomic --parents $par: same traffic and tree" \
          "same_traffic '$tmp/s.json' '$tmp/m.json' && cmp -s '$tmp/s.out' '$tmp/m.out'"
    check "np 8 atomic --parents $par: the visited-prefix skip on every rank" \
          "grep -q '\"prefix_skip\": true' '$tmp/m.json' && grep -q 'visited-prefix skip' '$tmp/me'"
    check "np 8 atomic --parents $par: every rank's mode reported; the gather took rounds" \
          "python3 -c 'import json,sys; assert {d[\"parents\"] for d in json.load(open(sys.argv[1]))[\"devices\"]} == {\"$par\"}' '$tmp/m.json' && grep -q 'parent gather in [2-9] rounds' '$tmp/me'"
done

# atomic --wire list where some rank cannot hold the list layout: every rank
# takes the bitmap outbox (a collective choice), as one process does under
# the same limit: the same traffic and tree
opts="--root 1 --root 5 --contract atomic --visited bit"
BOXBFS_PREFIX_SKIP=0 "$BOXBFS" bfs kron:14 $opts --backend cpu --devices 3 --wire auto --search-on host \
    --json "$tmp/lean.json" >/dev/null 2>&1
limit=$(python3 -c 'import json,sys; print(max(d["memory_bytes"] for d in json.load(open(sys.argv[1]))["devices"]))' "$tmp/lean.json")
"$BOXBFS" bfs kron:14 $opts --backend cpu --devices 3 --search-on host --memory-limit "$limit" --json "$tmp/s.json" \
    --output "$tmp/s.out" >/dev/null 2>&1
timeout 120 $MPIRUN -np 3 "$BOXBFS" bfs kron:14 $opts --backend cpu --exchange mpi --memory-limit "$limit" \
    --json "$tmp/m.json" --output "$tmp/m.out" >/dev/null 2>"$tmp/me"
rc=$?
check "np 3 atomic --wire list over the limit: exit 0, --wire auto on every rank, said once" \
      "[ $rc -eq 0 ] && grep -q '\"wire\": \"auto\"' '$tmp/m.json' && [ \$(grep -c 'bitmap instead' '$tmp/me') -eq 1 ]"
check "np 3 atomic --wire list over the limit: same traffic and tree as one process" \
      "same_traffic '$tmp/s.json' '$tmp/m.json' && cmp -s '$tmp/s.out' '$tmp/m.out'"

# the report comes from rank 0 only: one text report
$MPIRUN -np 2 "$BOXBFS" bfs kron:8 --roots 2 --backend cpu --exchange mpi >"$tmp/o" 2>/dev/null
check "one report from rank 0" "[ \$(grep -c '^validation: PASS' '$tmp/o') -eq 1 ]"

# --devices must match the number of ranks
$MPIRUN -np 2 "$BOXBFS" bfs kron:8 --roots 1 --backend cpu --exchange mpi --devices 3 \
    >/dev/null 2>"$tmp/e1"
rc=$?
check "--devices 3 on 2 ranks: fails, says why" "[ $rc -ne 0 ] && grep -q 'one device per process' '$tmp/e1'"

# a device that fails its setup on one rank only: the others say so, no rank hangs
# (--parents keep: auto would recompute the parents where they do not fit;
# valid-flag: atomic's plan gives way under a limit, by design)
"$BOXBFS" bfs kron:12 --roots 1 --backend cpu --devices 3 --contract valid-flag --parents keep --device-loop 0 \
    --json "$tmp/mem.json" \
    >/dev/null 2>&1
limit=$(python3 -c 'import json,sys; m=[d["memory_bytes"] for d in json.load(open(sys.argv[1]))["devices"]]; print((min(m)+max(m))//2 if min(m)<max(m) else "")' "$tmp/mem.json")
if [ -n "$limit" ]; then
    timeout 120 $MPIRUN -np 3 "$BOXBFS" bfs kron:12 --roots 1 --backend cpu --exchange mpi \
        --contract valid-flag --parents keep --memory-limit "$limit" >/dev/null 2>"$tmp/e2"
    rc=$?
    check "setup fails on some ranks: exit 3, no hang" "[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'failed while setting up' '$tmp/e2' && grep -q 'short by' '$tmp/e2'"
fi
exit $fail
