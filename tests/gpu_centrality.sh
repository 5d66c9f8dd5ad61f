#!/bin/sh
# GPU: `bfs --sigma` on the cuda backend writes the same levels and counts as
# the cpu backend (frontier form auto/top-down/bottom-up, every spmv variant),
# and `bc --check` on cuda agrees with the sequential reference. Exit 77
# without a GPU.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
"$BOXBFS" bfs kron:4 --backend cuda --devices 1 --roots 1 >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
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
"$BOXBFS" bc kron:12 --backend cuda --devices 1 --sources 64 --check >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "bc --check on cuda"; }
"$BOXBFS" bc kron:10 --directed --backend cuda --devices 1 --all --check >"$tmp/log" 2>&1 || { cat "$tmp/log"; die "directed bc --check on cuda"; }
echo "ok   bc on cuda"
