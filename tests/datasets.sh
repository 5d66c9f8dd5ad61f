#!/bin/sh
# Real graphs: `boxbfs bfs FILE --root R --output` agrees with the independent
# BFS answers in ../shared/datasets/BFS_REFERENCE.tsv (vertices reached, depth,
# sum of depths, vertices per level), on 1 and 3 emulated devices and on the
# 2D grids 2x2, 2x3 and 4x4, in every --direction (top-down, bottom-up,
# auto), with the Graph500 validation on.
# Skips (77) where ../shared/datasets is absent.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
ref="${SHARED_DATASETS:-}/BFS_REFERENCE.tsv"
[ -f "$ref" ] || { echo "no $ref: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
# USA-road-FLA (1.9k levels) is kept for the benchmarks: too slow for a unit run
grep -v '^#' "$ref" | grep -v '^USA-road' | while IFS="$(printf '\t')" read -r file kind source reached depth sum counts; do
    flag="--undirected"; [ "$kind" = directed ] && flag="--directed"
    for run in "1 top-down" "3 top-down" "1 bottom-up" "3 bottom-up" "1 auto" "3 auto" \
               "2x2 top-down" "2x3 bottom-up" "4x4 auto" "2x2 auto" "2x3 top-down" "4x4 bottom-up" \
               "2x2 bottom-up" "2x3 auto" "4x4 top-down"; do
        dev=${run% *} dir=${run#* }
        case $dev in
        *x*) on="--partition 2d --grid $dev" ;;
        *) on="--devices $dev" ;;
        esac
        # shellcheck disable=SC2086
        if ! "$BOXBFS" bfs "$SHARED_DATASETS/$file" $flag --backend cpu $on --root "$source" \
                --direction $dir --output "$tmp/out" --json "$tmp/json" >"$tmp/log" 2>&1; then
            echo "FAIL $file $kind root $source devices $dev $dir: exit $?"; cat "$tmp/log"; echo x >>"$tmp/failed"; continue
        fi
        got=$(awk '$2 >= 0 { n++; s += $2; if ($2 > d) d = $2; c[$2]++ }
                   END { printf "%d %d %d ", n, d, s; for (i = 0; i <= d; i++) printf "%s%d", (i ? "," : ""), c[i]; }' "$tmp/out")
        want="$reached $depth $sum $counts"
        if [ "$got" != "$want" ]; then
            echo "FAIL $file $kind root $source devices $dev $dir: got '$got' want '$want'"; echo x >>"$tmp/failed"
        elif ! grep -q '"validation": "passed"' "$tmp/json"; then
            echo "FAIL $file validation did not pass"; echo x >>"$tmp/failed"
        else
            echo "ok   $file $kind root $source devices $dev $dir: $reached reached, depth $depth"
        fi
    done
done
[ ! -f "$tmp/failed" ]
