#!/bin/sh
# GPU: `bfs --sigma` on the cuda backend writes the same levels and counts as
# the cpu backend (frontier form auto/top-down/bottom-up, every spmv variant),
# and `bc --check` on cuda agrees with the sequential reference. Exit 77
# without a GPU.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
need_gpu
die() { echo "FAIL $1"; exit 1; }
g=kron:14
"$BOXBFS" bfs $g --backend cpu --devices 1 --roots 1 --sigma "$tmp/cpu" >/dev/null 2>&1 || die "cpu run"
for opts in "" "--direction top-down" "--direction bottom-up" "--algorithm spmv --spmv csc-scalar" \
        "--algorithm spmv --spmv csc-vector" "--algorithm spmv --spmv cooc" \
        "--algorithm spmv --spmv csc-vector --direction bottom-up" "--algorithm spmv --spmv cooc --direction top-down"; do
    "$BOXBFS" bfs $g --backend cuda --devices 1 --roots 1 --sigma "$tmp/gpu" $opts >"$tmp/log" 2>&1 \
        || { cat "$tmp/log"; die "cuda $opts: exit $?"; }
    cmp -s "$tmp/cpu" "$tmp/gpu" || die "cuda $opts: counts differ from cpu"
    echo "ok   cuda $opts"
done
# the counts' pair exchange between devices: two and three devices on this GPU
# (--device-ids 0,0[,0]), the same counts as one device and the same pair bytes
# per link as the cpu backend's emulated devices
for ids in 0,0 0,0,0; do
    nd=$(echo $ids | tr ',' '\n' | wc -l)
    "$BOXBFS" bfs $g --backend cpu --devices $nd --roots 1 --sigma "$tmp/cpun" --json "$tmp/cpu.json" \
        >/dev/null 2>&1 || die "cpu $nd devices"
    "$BOXBFS" bfs $g --backend cuda --device-ids $ids --roots 1 --sigma "$tmp/gpu" --json "$tmp/gpu.json" \
        >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "cuda --device-ids $ids: exit $?"; }
    cmp -s "$tmp/cpu" "$tmp/gpu" || die "cuda --device-ids $ids: counts differ from one device"
    python3 - "$tmp/cpu.json" "$tmp/gpu.json" <<'PY' || die "cuda --device-ids $ids: pair bytes differ from cpu"
import json, sys
a, b = (json.load(open(p))["sigma"] for p in sys.argv[1:])
assert a["phase_bytes"] == b["phase_bytes"] and a["phase_bytes"]["sigma_pairs"] > 0, (a, b)
PY
    echo "ok   cuda --device-ids $ids: counts and pair bytes"
done
# counts past 2^64: a chain of 70 diamonds, whose 64th end has 2^64 paths (0
# in 64 bits), pulled bottom-up: every vertex reached, the same file as cpu
awk 'BEGIN { d = 70; print "%%MatrixMarket matrix coordinate pattern symmetric"; print 3 * d + 1, 3 * d + 1, 4 * d
             for (i = 0; i < d; i++) { a = 3 * i + 1; print a + 1, a; print a + 2, a; print a + 3, a + 1; print a + 3, a + 2 } }' \
    >"$tmp/chain.mtx"
for b in cpu cuda; do
    "$BOXBFS" bfs "$tmp/chain.mtx" --backend $b --devices 1 --root 1 --direction bottom-up --sigma "$tmp/chain.$b" \
        >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "chain of diamonds on $b"; }
done
[ "$(grep -c -v '^#' "$tmp/chain.cuda")" -eq 211 ] && cmp -s "$tmp/chain.cpu" "$tmp/chain.cuda" ||
    die "chain of diamonds (counts past 2^64), bottom-up: cuda differs from cpu or loses vertices"
echo "ok   counts past 2^64, bottom-up, cuda = cpu"
"$BOXBFS" bc kron:12 --backend cuda --devices 1 --sources 64 --check >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "bc --check on cuda"; }
"$BOXBFS" bc kron:10 --directed --backend cuda --devices 1 --all --check >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "directed bc --check on cuda"; }
echo "ok   bc on cuda"
