#!/bin/sh
# --relabel degree (docs/architecture.md, "Vertex order by degree"): the search runs on a
# copy numbered by decreasing degree, but everything a user sees is in the
# input's ids: the same roots, and per vertex the same level in --output
# (parents may differ among equally deep ones, each validated) in the same
# row order, the same reached counts and TEPS edges; on 1-4 devices,
# undirected and directed, SNAP ids with gaps, --root given, 2D; msbfs's
# depth files byte for byte, bfs --sigma's counts and bc's scores; refused
# with per-rank slices.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"
data="$(dirname "$0")/data"

# NAME GRAPH OPTIONS...: levels per vertex and per-root rows equal with and
# without --relabel degree, validated, the report saying what it did.
same_levels() {
    name=$1 graph=$2
    shift 2
    "$BOXBFS" bfs "$graph" --backend cpu --roots 4 "$@" --output "$tmp/plain.out" \
        >"$tmp/plain.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    "$BOXBFS" bfs "$graph" --backend cpu --roots 4 "$@" --relabel degree --json "$tmp/r.json" \
        --output "$tmp/relabel.out" >"$tmp/relabel.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    cut -d' ' -f1,2 "$tmp/plain.out" | sort >"$tmp/plain.lv"
    cut -d' ' -f1,2 "$tmp/relabel.out" | sort >"$tmp/relabel.lv"
    # root, levels, reached and validated columns of the per-root table
    root_rows "$tmp/plain.txt" >"$tmp/plain.rows"
    root_rows "$tmp/relabel.txt" >"$tmp/relabel.rows"
    # rows in the input's order: the vertex columns equal unsorted
    cut -d' ' -f1 "$tmp/plain.out" >"$tmp/plain.v"
    cut -d' ' -f1 "$tmp/relabel.out" >"$tmp/relabel.v"
    [ -s "$tmp/plain.lv" ] && cmp -s "$tmp/plain.lv" "$tmp/relabel.lv" &&
        cmp -s "$tmp/plain.v" "$tmp/relabel.v" &&
        [ -s "$tmp/plain.rows" ] && cmp -s "$tmp/plain.rows" "$tmp/relabel.rows" &&
        grep -q 'relabeled: by degree' "$tmp/relabel.txt" &&
        grep -q '"relabel": "degree"' "$tmp/r.json" && grep -q '"validation": "passed"' "$tmp/r.json"
}

check "kron:12, 1 device: the same levels and roots" 'same_levels k1 kron:12 --devices 1'
check "kron:12, 3 devices, atomic: the same levels and roots" \
    'same_levels k3 kron:12 --devices 3 --contract atomic'
check "kron:12, 2 devices, top-down, bit visited" \
    'same_levels k2 kron:12 --devices 2 --direction top-down --visited bit'
check "directed kron:11, 2 devices, auto" \
    'same_levels d2 kron:11 --directed --devices 2'
check "SNAP ids with gaps, --root 10 given" \
    'same_levels gaps "$data/io_gaps.txt" --devices 2 --root 10'
check "2d partition 2x2" 'same_levels p2 kron:10 --partition 2d --devices 4'

# one stripe per device
check "stripes = devices in the report" \
    '"$BOXBFS" bfs kron:10 --backend cpu --devices 3 --roots 1 --relabel degree >"$tmp/s.txt" 2>&1 &&
     grep -q "relabeled: by degree, 3 stripes" "$tmp/s.txt"'

check "bfs --sigma: the same counts file (input order)" \
    '"$BOXBFS" bfs kron:11 --backend cpu --devices 2 --roots 1 --sigma "$tmp/s1" >/dev/null 2>&1 &&
     "$BOXBFS" bfs kron:11 --backend cpu --devices 2 --roots 1 --sigma "$tmp/s2" --relabel degree \
         >/dev/null 2>&1 && [ -s "$tmp/s1" ] && cmp -s "$tmp/s1" "$tmp/s2"'

# bc: the same vertices and scores in the same order (sums in another order:
# equal to 1e-9 relative), --check passes
bc_same() {   # GRAPH OPTIONS...
    graph=$1
    shift
    "$BOXBFS" bc "$graph" --backend cpu "$@" --output "$tmp/bc1" >/dev/null 2>"$tmp/err" &&
        "$BOXBFS" bc "$graph" --backend cpu "$@" --relabel degree --check --json "$tmp/bc.json" \
            --output "$tmp/bc2" >"$tmp/bc.txt" 2>>"$tmp/err" || { cat "$tmp/err"; return 1; }
    grep -q '^check: passed' "$tmp/bc.txt" && grep -q '"relabel": "degree"' "$tmp/bc.json" &&
        [ -s "$tmp/bc1" ] && awk 'NR == FNR { v[FNR] = $1; s[FNR] = $2; n = FNR; next }
            $1 != v[FNR] { bad = 1 }
            { d = $2 - s[FNR]; if (d < 0) d = -d; m = s[FNR] < 0 ? -s[FNR] : s[FNR];
              if (d > 1e-9 * (m > 1 ? m : 1)) bad = 1 }
            END { exit bad || FNR != n }' "$tmp/bc1" "$tmp/bc2"
}
check "bc kron:10, 32 sources, 2 devices: the same scores" 'bc_same kron:10 --sources 32 --devices 2'
check "bc directed kron:9, every vertex a source" 'bc_same kron:9 --directed --all --devices 1'

# msbfs: every source's depths, text and binary, equal byte for byte
msbfs_same() {   # GRAPH SOURCES OPTIONS...
    graph=$1 ns=$2
    shift 2
    for f in d.txt d.bin; do
        "$BOXBFS" msbfs "$graph" --backend cpu --sources $ns "$@" --output-depths "$tmp/plain.$f" \
            >"$tmp/m.txt" 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
        "$BOXBFS" msbfs "$graph" --backend cpu --sources $ns "$@" --relabel degree \
            --output-depths "$tmp/relabel.$f" --json "$tmp/m.json" >"$tmp/mr.txt" 2>"$tmp/err" ||
            { cat "$tmp/err"; return 1; }
        cmp -s "$tmp/plain.$f" "$tmp/relabel.$f" || return 1
    done
    grep -q '"relabel": "degree"' "$tmp/m.json" && grep -q 'relabeled: by degree' "$tmp/mr.txt"
}
check "msbfs kron:10: the same depth files (text, binary)" 'msbfs_same kron:10 40'
check "msbfs directed kron:9, groups of 32, 2 devices" \
    'msbfs_same kron:9 40 --directed --group-size 32 --devices 2'
check "msbfs SNAP ids with gaps" 'msbfs_same "$data/io_gaps.txt" 3'

"$BOXBFS" bfs kron:6 --backend cpu --relabel sideways >/dev/null 2>"$tmp/e"
st=$?
check "--relabel sideways: exit status 1 and the message names the value" \
    '[ $st -eq 1 ] && grep -q "relabel: unknown value .sideways." "$tmp/e"'

# --relabel auto (the default): degree on a large skewed graph (a star of
# 2^20 + 24 vertices: the top 1 % hold half the arcs), none on a large flat
# one (a perfect matching) and on small graphs; the copy's time is reported
# as construction, apart from the searches
awk 'BEGIN { for (i = 1; i < 1048600; i++) print 0, i }' >"$tmp/star.txt"
awk 'BEGIN { for (i = 0; i < 1048600; i += 2) print i, i + 1 }' >"$tmp/pairs.txt"
"$BOXBFS" bfs "$tmp/star.txt" --backend cpu --roots 2 --json "$tmp/star.json" >"$tmp/star.out" 2>&1
check "--relabel auto, a large star: relabeled by degree, construction time apart, validated" \
    "grep -q '\"relabel\": \"degree\"' '$tmp/star.json' && grep -q '\"relabel_asked\": \"auto\"' '$tmp/star.json' &&
     grep -q '\"relabel_s\"' '$tmp/star.json' && grep -q 'construction: not timed; --relabel auto' '$tmp/star.out' &&
     grep -q '^validation: PASS' '$tmp/star.out'"
"$BOXBFS" bfs "$tmp/pairs.txt" --backend cpu --roots 2 --json "$tmp/pairs.json" >/dev/null 2>&1
check "--relabel auto, a large matching: not relabeled" \
    "grep -q '\"relabel\": \"none\"' '$tmp/pairs.json' && ! grep -q '\"relabel_s\"' '$tmp/pairs.json'"
"$BOXBFS" bfs kron:12 --backend cpu --roots 2 --json "$tmp/small.json" >/dev/null 2>&1
check "--relabel auto, kron:12 (at most 2^20 vertices): not relabeled" \
    "grep -q '\"relabel\": \"none\"' '$tmp/small.json'"
"$BOXBFS" bfs "$tmp/star.txt" --backend cpu --roots 2 --relabel none --json "$tmp/star0.json" >/dev/null 2>&1
check "--relabel none on the star: not relabeled" "grep -q '\"relabel_asked\": \"none\"' '$tmp/star0.json' && grep -q '\"relabel\": \"none\"' '$tmp/star0.json'"

if have_mpi; then
    $MPIRUN -np 2 "$BOXBFS" bfs kron:8 --backend cpu --exchange mpi --roots 1 --relabel degree \
        >/dev/null 2>"$tmp/mpi_err"
    st=$?
    check "mpirun with per-rank slices: --relabel refused (exit 1), naming --whole-graph" \
        '[ $st -eq 1 ] && grep -q "add --whole-graph" "$tmp/mpi_err"'
    check "mpirun --whole-graph --relabel degree: the same levels as one process" \
        '$MPIRUN -np 2 "$BOXBFS" bfs kron:10 --backend cpu --exchange mpi --whole-graph --roots 2 \
             --relabel degree --output "$tmp/mpi.out" >"$tmp/mpi.txt" 2>"$tmp/mpi_err" &&
         "$BOXBFS" bfs kron:10 --backend cpu --devices 2 --roots 2 --output "$tmp/one.out" \
             >/dev/null 2>&1 &&
         cut -d" " -f1,2 "$tmp/mpi.out" | sort >"$tmp/a" && cut -d" " -f1,2 "$tmp/one.out" | sort >"$tmp/b" &&
         cmp -s "$tmp/a" "$tmp/b" && grep -q "validation: PASS" "$tmp/mpi.txt"'
    check "mpirun with per-rank slices: --relabel auto keeps the order (exit 0)" \
        '$MPIRUN -np 2 "$BOXBFS" bfs kron:8 --backend cpu --exchange mpi --roots 1 --relabel auto \
             --json "$tmp/mpi_auto.json" >/dev/null 2>&1 && grep -q "\"relabel\": \"none\"" "$tmp/mpi_auto.json"'
fi
exit $fail
