#!/bin/sh
# Bad input through the CLI: `boxbfs info FILE` (and `boxbfs bfs FILE`) on each
# malformed fixture of tests/data must exit with status 1 and print
# "boxbfs: MESSAGE" on stderr, where MESSAGE is the library's "FILE:LINE: what
# is wrong". Uses $BOXBFS and $TESTDATA; exits 77 when the CLI is not built.

BOXBFS=${BOXBFS:-./src/boxbfs}
TESTDATA=${TESTDATA:-$(dirname "$0")/data}

if [ ! -x "$BOXBFS" ]; then
    echo "SKIP: $BOXBFS is not an executable (build the CLI first)"
    exit 77
fi
if [ ! -d "$TESTDATA" ]; then
    echo "ERROR: test data folder $TESTDATA not found" >&2
    exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bad_input.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
failures=0

# expect_bad COMMAND FILE FRAGMENT: exit status 1, and stderr holds a
# "boxbfs: " line that contains FILE and FRAGMENT (fixed strings).
expect_bad() {
    cmd=$1 file=$2 fragment=$3
    "$BOXBFS" "$cmd" "$file" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL: boxbfs $cmd $file: exit status $rc, expected 1" >&2
        sed 's/^/  stderr: /' "$tmp/err" >&2
        failures=$((failures + 1))
        return
    fi
    if ! grep -F "boxbfs: " "$tmp/err" | grep -F -- "$file" | grep -F -q -- "$fragment"; then
        echo "FAIL: boxbfs $cmd $file: stderr lacks 'boxbfs: ...$file...$fragment'" >&2
        sed 's/^/  stderr: /' "$tmp/err" >&2
        failures=$((failures + 1))
    fi
}

d=$TESTDATA
# Matrix Market
expect_bad info "$d/bad_banner.mtx" "bad_banner.mtx:1: missing Matrix Market banner"
expect_bad info "$d/bad_array.mtx" "bad_array.mtx:1: dense 'array' Matrix Market files are not supported"
expect_bad info "$d/bad_complex.mtx" "bad_complex.mtx:1: unsupported field 'complex'"
expect_bad info "$d/bad_skew.mtx" "bad_skew.mtx:1: unsupported symmetry 'skew-symmetric'"
expect_bad info "$d/bad_nonsquare.mtx" "bad_nonsquare.mtx:3: matrix is 5 x 6, a graph needs a square matrix"
expect_bad info "$d/bad_size.mtx" "bad_size.mtx:3: missing entry count"
expect_bad info "$d/bad_truncated.mtx" "bad_truncated.mtx:4: expected 4 entries, found 2"
expect_bad info "$d/bad_extra.mtx" "bad_extra.mtx:5: more entries than the 2 declared on line 2"
expect_bad info "$d/bad_range.mtx" "bad_range.mtx:3: vertex 9 out of range [1, 5]"
expect_bad info "$d/bad_zero.mtx" "bad_zero.mtx:4: vertex 0 out of range [1, 5]"
expect_bad info "$d/bad_token.mtx" "bad_token.mtx:4: non-numeric token 'x1'"
expect_bad info "$d/bad_column.mtx" "bad_column.mtx:4: missing column id"
expect_bad info "$d/bad_empty.mtx" "bad_empty.mtx: empty file"
expect_bad info "$d/bad_truncated.mtx.gz" "truncated or corrupt gzip data"
# issue 16: sizes that feed allocations; bytes after the last gzip member
expect_bad info "$d/bad_rows.mtx" "bad_rows.mtx:3: matrix has 2199023255552 rows, more than the 1099511627776 vertices"
expect_bad info "$d/bad_entries.mtx" "bad_entries.mtx:4: expected 9223372036854775807 entries, found 1"
expect_bad info "$d/bad_trailing.txt.gz" "bad_trailing.txt.gz:3: unexpected data after the end of the gzip data"
# SNAP edge lists
expect_bad info "$d/bad_negative.txt" "bad_negative.txt:3: negative target vertex id -3"
expect_bad info "$d/bad_token.txt" "bad_token.txt:2: non-numeric token 'x1'"
expect_bad info "$d/bad_third.txt" "bad_third.txt:3: unexpected token '1' after the two vertex ids"
expect_bad info "$d/bad_large.txt" "bad_large.txt:2: number too large"
expect_bad info "$d/bad_comments.txt" "bad_comments.txt: no edges"
expect_bad info "$d/bad_empty.txt" "bad_empty.txt: no edges"
# Binary CSR
printf 'not a graph\n' >"$tmp/bad_magic.bbcsr"
expect_bad info "$tmp/bad_magic.bbcsr" "bad_magic.bbcsr: bad magic"
# issue 16: header fields whose ids or sums do not fit in 64 bits (checksums right)
expect_bad info "$d/bad_id_base.bbcsr" "bad_id_base.bbcsr: id base 9223372036854775806 (byte 48) + n 5 - 1 exceeds"
expect_bad info "$d/bad_id_negative.bbcsr" "bad_id_negative.bbcsr: negative id base -3 (byte 48)"
expect_bad info "$d/bad_credit_sum.bbcsr" "bad_credit_sum.bbcsr: edge credits up to vertex 1 (byte 520) exceed"
expect_bad info "$d/bad_external.bbcsr" "bad_external.bbcsr: external id -7 of vertex 0 (byte 552) is negative"
expect_bad info "$d/bad_asymmetric.bbcsr" "bad_asymmetric.bbcsr: the graph is undirected (flags, byte 16) but arc 0 -> 1"
# Missing files
expect_bad info "$tmp/no_such_file.mtx" "no_such_file.mtx: cannot open"
expect_bad info "$tmp/no_such_file.txt" "no_such_file.txt: cannot open"
# The search command loads the same way.
expect_bad bfs "$d/bad_range.mtx" "bad_range.mtx:3: vertex 9 out of range [1, 5]"
expect_bad bfs "$d/bad_comments.txt" "bad_comments.txt: no edges"
expect_bad bfs "$d/bad_id_base.bbcsr" "bad_id_base.bbcsr: id base 9223372036854775806"

if [ "$failures" -ne 0 ]; then
    echo "$failures bad-input check(s) failed" >&2
    exit 1
fi
exit 0
