#!/bin/sh
# boxbfs msbfs on the cpu backend: every instance checked against the
# reference BFS on kron graphs with each group size, GroupBy on and off, 1-3
# emulated devices and --max-depth; the same depths whatever the grouping and
# device count; exact depths and closeness on hand graphs (undirected with
# two components, directed); output formats and JSON fields; bad input exits
# 1 with a message naming the problem.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
B="$BOXBFS"

# ---- correctness on kron graphs ------------------------------------------------
for gs in 32 64 128; do
    for gb in on off; do
        for d in 1 2 3; do
            "$B" msbfs kron:11 --backend cpu --sources 150 --group-size $gs --groupby $gb \
                --devices $d --output-depths "$tmp/d_${gs}_${gb}_$d.bin" >"$tmp/out" 2>"$tmp/err"
            check "kron:11 group $gs groupby $gb devices $d: exit 0" "[ $? -eq 0 ]"
            check "kron:11 group $gs groupby $gb devices $d: all 150 checked, PASS" \
                "grep -q '^validation: PASS (150 sources checked' '$tmp/out'"
            check "kron:11 group $gs groupby $gb devices $d: same depths as group 32, on, 1 device" \
                "cmp -s '$tmp/d_32_on_1.bin' '$tmp/d_${gs}_${gb}_$d.bin'"
        done
    done
done
"$B" msbfs kron:11 --backend cpu --sources 300 --group-size 32 --devices 3 --json "$tmp/d3.json" >/dev/null 2>&1
check "3 devices: exit 0" "[ $? -eq 0 ]"
if command -v python3 >/dev/null 2>&1; then
    check "3 devices: 10 groups, each on one of them, device sums match" "python3 -c '
import json
r=json.load(open(\"$tmp/d3.json\"))
assert len(r[\"groups\"])==10 and len(r[\"devices\"])==3
assert all(0<=g[\"device\"]<3 for g in r[\"groups\"])
assert sum(d[\"groups\"] for d in r[\"devices\"])==10
assert sum(d[\"arcs_touched\"] for d in r[\"devices\"])==sum(g[\"arcs_touched\"] for g in r[\"groups\"])
'"
fi
for k in 0 1 2 3; do
    "$B" msbfs kron:11 --backend cpu --sources 100 --max-depth $k --closeness "$tmp/c$k" \
        --json "$tmp/k$k.json" >"$tmp/out" 2>"$tmp/err"
    check "max-depth $k: PASS" "grep -q '^validation: PASS' '$tmp/out'"
    check "max-depth $k: eccentricities at most $k" \
        "awk '!/^#/ && \$3 > $k { bad = 1 } END { exit bad }' '$tmp/c$k'"
done
check "max-depth 0: every source reaches itself only" "awk '!/^#/ && \$2 != 1 { bad = 1 } END { exit bad }' '$tmp/c0'"
check "k-hop counts grow with k" "paste '$tmp/c1' '$tmp/c2' | awk '!/^#/ && \$7 < \$2 { bad = 1 } END { exit bad }'"
# 2^16 vertices x 1100 sources > 2^26: the sample policy (first and last of each group)
"$B" msbfs kron:16 --backend cpu --sources 1100 --group-size 128 >"$tmp/out" 2>"$tmp/err"
check "kron:16 x 1100 sources: 2 per group (9 groups) checked" "grep -q '^validation: PASS (18 sources checked' '$tmp/out'"

# ---- hand graphs -----------------------------------------------------------------
# undirected: path 0-1-2-3, triangle 4-5-6, an isolated edge 7-8
printf '0 1\n1 2\n2 3\n4 5\n5 6\n6 4\n7 8\n' >"$tmp/hand.txt"
printf '# sources\n0 5\n3  # the far end\n' >"$tmp/src.txt"
"$B" msbfs "$tmp/hand.txt" --backend cpu --source-file "$tmp/src.txt" --group-size 32 \
    --output-depths "$tmp/hand.depths.txt" --closeness "$tmp/hand.close" >"$tmp/out" 2>"$tmp/err"
check "hand graph: exit 0, PASS" "grep -q '^validation: PASS (3 sources' '$tmp/out'"
cat >"$tmp/hand.expect" <<'EOF'
# vertex 0 5 3
0 0 -1 3
1 1 -1 2
2 2 -1 1
3 3 -1 0
4 -1 1 -1
5 -1 0 -1
6 -1 1 -1
7 -1 -1 -1
8 -1 -1 -1
EOF
check "hand graph: depths" "cmp -s '$tmp/hand.expect' '$tmp/hand.depths.txt'"
cat >"$tmp/close.expect" <<'EOF'
# source reached eccentricity sum_depth closeness (Wasserman-Faust)
0 4 3 6 0.1875
5 3 1 2 0.25
3 4 3 6 0.1875
EOF
check "hand graph: closeness ((r-1)/(n-1)) * ((r-1)/sum)" "cmp -s '$tmp/close.expect' '$tmp/hand.close'"
# directed: 1 -> 2 -> 3 -> 1 and a self-loop on 4 (Matrix Market ids)
printf '2 4\n' >"$tmp/dsrc.txt"
"$B" msbfs "$TESTDATA/io_general.mtx" --backend cpu --source-file "$tmp/dsrc.txt" \
    --output-depths - >"$tmp/dout" 2>"$tmp/err"
check "directed: exit 0" "[ $? -eq 0 ]"
check "directed: depths along the arcs" \
    "grep -q '^1 2 -1\$' '$tmp/dout' && grep -q '^3 1 -1\$' '$tmp/dout' && grep -q '^4 -1 0\$' '$tmp/dout'"
"$B" msbfs kron:10 --directed --backend cpu --sources 40 --group-size 32 >"$tmp/out" 2>&1
check "kron as read directed: PASS" "grep -q '^validation: PASS' '$tmp/out'"

# ---- output formats and JSON -------------------------------------------------------
"$B" msbfs kron:9 --backend cpu --sources 5 --output-depths "$tmp/d.bin" --json "$tmp/r.json" >/dev/null 2>&1
check "binary depths: magic" "[ \"\$(head -c 8 '$tmp/d.bin')\" = BBMSDEP1 ]"
check "binary depths: 24 + 8 x 5 + 4 x 512 x 5 bytes" "[ \$(wc -c <'$tmp/d.bin') -eq 10304 ]"
for key in '"command": "msbfs"' '"options"' '"group_size": 128' '"groupby": "on"' '"backend": "cpu"' \
           '"device_count": 1' '"commit"' '"date"' '"graph500"' '"paper"' '"time_per_group_s"' \
           '"devices"' '"groups"' '"sources"' '"closeness"' '"eccentricity"' '"result": "passed"'; do
    check "json has $key" "grep -qF '$key' '$tmp/r.json'"
done
if command -v python3 >/dev/null 2>&1; then
    check "json: per-source edges sum to the aggregate" "python3 -c '
import json
r=json.load(open(\"$tmp/r.json\"))
assert sum(s[\"input_edges\"] for s in r[\"sources\"])==r[\"input_edges\"]
assert sum(g[\"size\"] for g in r[\"groups\"])==5 and len(r[\"sources\"])==5
assert abs(r[\"teps\"][\"graph500\"]*r[\"total_time_s\"]-r[\"input_edges\"])<1e-6*r[\"input_edges\"]+1
'"
fi

# ---- bad input: exit 1 and a message --------------------------------------------------
bad() {   # bad NAME FRAGMENT ARGS...
    name=$1 fragment=$2
    shift 2
    "$B" msbfs "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "bad input: $name: exit 1" "[ $rc -eq 1 ]"
    grep -qF -- "$fragment" "$tmp/err"
    check "bad input: $name: says the fragment" "[ $? -eq 0 ]"
}
printf '1\n99999\n' >"$tmp/range.txt"
printf '0 1 2\n1\n' >"$tmp/dup.txt"
printf '# nothing here\n\n' >"$tmp/empty.txt"
printf '0 x1\n' >"$tmp/junk.txt"
bad "source out of range" "range.txt:2: source 99999 is not a vertex" "$tmp/hand.txt" --backend cpu --source-file "$tmp/range.txt"
bad "duplicate source" "dup.txt:2: source 1 given twice" "$tmp/hand.txt" --backend cpu --source-file "$tmp/dup.txt"
bad "empty source file" "no sources in the file" "$tmp/hand.txt" --backend cpu --source-file "$tmp/empty.txt"
bad "junk in source file" "'x1' is not a vertex id" "$tmp/hand.txt" --backend cpu --source-file "$tmp/junk.txt"
bad "missing source file" "cannot open" "$tmp/hand.txt" --backend cpu --source-file "$tmp/nope.txt"
bad "more sources than vertices" "more sources than the 9 vertices" "$tmp/hand.txt" --backend cpu --sources 10
bad "more sources than vertices with an edge" "vertices of kron:9:16:1 have an edge" kron:9 --backend cpu --sources 512
bad "group size 48" "--group-size: '48' is not 32, 64 or 128" kron:9 --backend cpu --group-size 48
bad "group size junk" "is not 32, 64 or 128" kron:9 --backend cpu --group-size 12x
bad "groupby maybe" "--groupby: 'maybe' is not on or off" kron:9 --groupby maybe
bad "sources and source file" "exclude each other" kron:9 --sources 3 --source-file "$tmp/src.txt"
bad "no graph" "no GRAPH given" --sources 3
bad "unknown option" "unknown option '--bogus'" kron:9 --bogus
bad "zero sources" "--sources: '0' is not a count" kron:9 --sources 0
exit $fail
