#!/bin/sh
# boxbfs bfs --sigma and boxbfs bc on the cpu backend: a hand-checked graph
# (counts and betweenness in the stored answers below), kron graphs on 1-4
# emulated devices and every spmv variant (each validated against the
# sequential reference by the command itself), the pair bytes in the JSON,
# the shared datasets (bc --check; skipped where ../shared/datasets is
# absent), and bad input -> a clear message and exit 1.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
B=$BOXBFS
cat >"$tmp/g.mtx" <<'MTX'
%%MatrixMarket matrix coordinate pattern symmetric
6 6 7
2 1
3 1
4 2
4 3
5 4
6 4
6 5
MTX
"$B" bfs "$tmp/g.mtx" --backend cpu --devices 2 --root 1 --sigma "$tmp/s" >/dev/null 2>&1
check "sigma hand graph exit 0" '[ $? -eq 0 ]'
printf '1 0 1\n2 1 1\n3 1 1\n4 2 2\n5 3 2\n6 3 2\n' >"$tmp/want"
check "sigma hand graph counts" 'cmp -s "$tmp/s" "$tmp/want"'
# --device-ids names the counts' devices too (one named twice: two devices on it)
for ids in 1,0 0,0; do
    rm -f "$tmp/s"
    "$B" bfs "$tmp/g.mtx" --backend cpu --device-ids $ids --root 1 --sigma "$tmp/s" >/dev/null 2>&1
    check "sigma --device-ids $ids" '[ $? -eq 0 ] && cmp -s "$tmp/s" "$tmp/want"'
done
"$B" bc "$tmp/g.mtx" --backend cpu --devices 3 --all --output "$tmp/bc" --top 1 >"$tmp/log" 2>&1
check "bc hand graph exit 0" '[ $? -eq 0 ]'
printf '1 0.5\n2 1.5\n3 1.5\n4 6.5\n5 0\n6 0\n' >"$tmp/want"
check "bc hand graph values" 'cmp -s "$tmp/bc" "$tmp/want"'
check "bc --top names vertex 4" 'grep -Eq "^ +1 +4 +6.5" "$tmp/log"'
"$B" bc "$tmp/g.mtx" --backend cpu --devices 1 --all --normalized --output "$tmp/bcn" >/dev/null 2>&1
check "bc --normalized (networkx: 6.5 x 2 / (5 x 4))" 'grep -q "^4 0.65" "$tmp/bcn"'

for run in "1" "2" "3" "4" "1 --direction top-down" "1 --direction bottom-up" \
        "1 --algorithm spmv --spmv csc-scalar" "1 --algorithm spmv --spmv csc-vector" \
        "1 --algorithm spmv --spmv cooc" "1 --algorithm spmv --spmv cooc --direction top-down" \
        "1 --algorithm spmv --direction bottom-up"; do
    for dir in --undirected --directed; do
        "$B" bfs kron:10 $dir --backend cpu --devices $run --roots 2 --sigma "$tmp/k" --json "$tmp/j" >"$tmp/log" 2>&1
        check "sigma kron:10 $dir devices $run" '[ $? -eq 0 ] && grep -q "sigma_validation: passed" "$tmp/log"'
    done
done
"$B" bfs kron:10 --backend cpu --devices 3 --roots 1 --sigma "$tmp/k" --json "$tmp/j" >/dev/null 2>&1
check "sigma JSON has pair bytes on links" 'python3 -c "
import json,sys
s=json.load(open(sys.argv[1]))[\"sigma\"]
assert s[\"phase_bytes\"][\"sigma_pairs\"] > 0 and s[\"phase_bytes\"][\"sigma_pairs\"] % 12 == 0
assert sum(l[\"bytes\"] for l in s[\"links\"]) == sum(s[\"phase_bytes\"].values())
assert s[\"validation\"] == \"passed\"
" "$tmp/j"'
for run in "1 --all" "2 --all" "4 --sources 30" "3 --directed --all"; do
    "$B" bc kron:8 --backend cpu --devices $run --check --json "$tmp/bj" >"$tmp/log" 2>&1
    check "bc kron:8 devices $run --check" '[ $? -eq 0 ] && grep -q "check: passed" "$tmp/log"'
done
check "bc JSON" 'python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"command\"] == \"bc\" and d[\"options\"][\"devices\"] == 3 and len(d[\"source_time_s\"]) == 256
assert d[\"harmonic_mean_TEPS\"] > 0 and d[\"check\"] == \"passed\" and \"date\" in d and \"commit\" in d
" "$tmp/bj"'

# the shared datasets (the small ones): bc --check on sampled sources
if [ -f "${SHARED_DATASETS:-}/BFS_REFERENCE.tsv" ]; then
    grep -v '^#' "$SHARED_DATASETS/BFS_REFERENCE.tsv" | grep -v '^USA-road' | while IFS="$(printf '\t')" read -r file kind source reached depth sum counts; do
        flag="--undirected"; [ "$kind" = directed ] && flag="--directed"
        "$B" bfs "$SHARED_DATASETS/$file" $flag --backend cpu --devices 3 --root "$source" --roots 1 \
            --sigma "$tmp/ds" >"$tmp/log" 2>&1
        if [ $? -eq 0 ] && grep -q "sigma_validation: passed" "$tmp/log" && \
                [ "$(awk '$2 >= 0' "$tmp/ds" | wc -l)" -eq "$reached" ]; then
            echo "ok   sigma $file"
        else
            echo "FAIL sigma $file"; cat "$tmp/log"; echo x >>"$tmp/dsfail"
        fi
        "$B" bc "$SHARED_DATASETS/$file" $flag --backend cpu --devices 2 --sources 8 --check >"$tmp/log" 2>&1
        if [ $? -eq 0 ] && grep -q "check: passed" "$tmp/log"; then echo "ok   bc $file"
        else echo "FAIL bc $file"; cat "$tmp/log"; echo x >>"$tmp/dsfail"; fi
    done
    check "shared datasets" '[ ! -f "$tmp/dsfail" ]'
else
    echo "no shared datasets: that part skipped"
fi

bad() {   # name, grep pattern, command...
    name=$1; pat=$2; shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$name: exit 1" "[ $rc -eq 1 ]"
    check "$name: message" 'grep -q -- "$pat" "$tmp/err"'
}
bad "bc --sources x" "--sources: 'x' is not a count" "$B" bc kron:6 --backend cpu --sources x
bad "bc --sources 0" "--sources: '0'" "$B" bc kron:6 --backend cpu --sources 0
bad "bc --all --sources" "exclude each other" "$B" bc kron:6 --backend cpu --all --sources 3
bad "bc unknown option" "unknown option '--bogus'" "$B" bc kron:6 --bogus
bad "bc --devices 0" "--devices: '0'" "$B" bc kron:6 --devices 0
bad "bfs --algorithm bogus" "--algorithm: unknown value 'bogus'" "$B" bfs kron:6 --sigma "$tmp/x" --algorithm bogus
bad "bfs --spmv bogus" "--spmv: unknown value 'bogus'" "$B" bfs kron:6 --sigma "$tmp/x" --algorithm spmv --spmv bogus
bad "bfs --algorithm without --sigma" "add --sigma FILE" "$B" bfs kron:6 --algorithm spmv
bad "bfs --spmv without spmv" "--spmv picks a variant" "$B" bfs kron:6 --sigma "$tmp/x" --spmv cooc
bad "bfs --sigma spmv on 2 devices" "runs on one device" "$B" bfs kron:6 --backend cpu --devices 2 --sigma "$tmp/x" --algorithm spmv
bad "bfs --sigma bottom-up on 2 devices" "needs --devices 1" "$B" bfs kron:6 --backend cpu --devices 2 --sigma "$tmp/x" --direction bottom-up
bad "bfs --sigma missing value" "--sigma needs a value" "$B" bfs kron:6 --sigma
exit $fail
