#!/bin/sh
# boxbfs msbfs on the cuda backend: every group size, GroupBy on and off,
# --max-depth and a directed graph pass the check against the reference BFS,
# and the cpu and cuda backends give the same depths (byte-identical
# --output-depths files) and the same per-source figures (--closeness).
# Skips (77) without the CLI or without a GPU (or a build without CUDA).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
B="$BOXBFS"

if ! "$B" msbfs kron:8 --backend cuda --sources 2 >"$tmp/out" 2>"$tmp/err"; then
    if grep -q -i -e "no GPU" -e "not built in" "$tmp/err"; then
        echo "SKIP: $(grep -i -m 1 -e 'no GPU' -e 'not built in' "$tmp/err")"
        exit 77
    fi
    echo "FAIL: probe run on the cuda backend failed:" >&2
    cat "$tmp/err" >&2
    exit 1
fi

for gs in 32 64 128; do
    for gb in on off; do
        for be in cpu cuda; do
            "$B" msbfs kron:12 --backend $be --sources 300 --group-size $gs --groupby $gb \
                --output-depths "$tmp/$be.bin" --closeness "$tmp/$be.close" >"$tmp/out" 2>"$tmp/err"
            check "kron:12 $be group $gs groupby $gb: exit 0, PASS" \
                "grep -q '^validation: PASS (300 sources' '$tmp/out'"
        done
        check "kron:12 group $gs groupby $gb: cpu and cuda depths equal" "cmp -s '$tmp/cpu.bin' '$tmp/cuda.bin'"
        check "kron:12 group $gs groupby $gb: cpu and cuda closeness equal" "cmp -s '$tmp/cpu.close' '$tmp/cuda.close'"
    done
done
for k in 1 2 3; do
    for be in cpu cuda; do
        "$B" msbfs kron:14 --backend $be --sources 200 --max-depth $k --json "$tmp/$be.json" \
            --closeness "$tmp/$be.close" >"$tmp/out" 2>"$tmp/err"
        check "kron:14 $be max-depth $k: PASS" "grep -q '^validation: PASS' '$tmp/out'"
    done
    check "kron:14 max-depth $k: cpu and cuda k-hop counts equal" "cmp -s '$tmp/cpu.close' '$tmp/cuda.close'"
done
for be in cpu cuda; do
    "$B" msbfs kron:12 --directed --backend $be --sources 100 --group-size 64 \
        --output-depths "$tmp/$be.bin" >"$tmp/out" 2>"$tmp/err"
    check "directed kron:12 $be: PASS" "grep -q '^validation: PASS' '$tmp/out'"
done
check "directed kron:12: cpu and cuda depths equal" "cmp -s '$tmp/cpu.bin' '$tmp/cuda.bin'"
# --relabel degree on cuda: the depth file of the cpu backend's plain run (input order)
"$B" msbfs kron:12 --directed --backend cuda --sources 100 --group-size 64 --relabel degree \
    --output-depths "$tmp/relabel.bin" >"$tmp/out" 2>"$tmp/err"
check "directed kron:12 cuda --relabel degree: PASS, the cpu depths" \
    "grep -q '^validation: PASS' '$tmp/out' && cmp -s '$tmp/cpu.bin' '$tmp/relabel.bin'"
# a larger graph: the sampled check (first and last source of each group)
"$B" msbfs kron:18 --backend cuda --sources 512 --json "$tmp/big.json" >"$tmp/out" 2>"$tmp/err"
check "kron:18 x 512 on cuda: PASS (8 sampled)" "grep -q '^validation: PASS (8 sources' '$tmp/out'"
exit $fail
