#!/bin/sh
# The CLI on the cuda backend: `boxbfs bfs kron:16 --backend cuda --roots 4
# --json -` with each --contract (and each --expand) must exit 0 and report
# "validation": "passed"; with --relabel degree the levels equal the cpu
# backend's. Skips (77) when the CLI is not built, or when the
# cuda backend says there is no GPU or that it is not built in. Uses $BOXBFS.

BOXBFS=${BOXBFS:-./src/boxbfs}

if [ ! -x "$BOXBFS" ]; then
    echo "SKIP: $BOXBFS is not an executable (build the CLI first)"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu_cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
failures=0

# Probe: a tiny search tells a missing GPU (skip) from a broken backend (fail).
if ! "$BOXBFS" bfs kron:10 --backend cuda --roots 1 >"$tmp/out" 2>"$tmp/err"; then
    if grep -q -i -e "no GPU" -e "not built in" "$tmp/err"; then
        echo "SKIP: $(grep -i -m 1 -e 'no GPU' -e 'not built in' "$tmp/err")"
        exit 77
    fi
    echo "FAIL: probe search on the cuda backend failed:" >&2
    cat "$tmp/err" >&2
    exit 1
fi

for contract in sort-unique valid-flag atomic; do
    for expand in binsearch mergepath auto; do
        what="--contract $contract --expand $expand"
        # shellcheck disable=SC2086
        "$BOXBFS" bfs kron:16 --backend cuda --roots 4 --json - $what >"$tmp/json" 2>"$tmp/err"
        rc=$?
        if [ "$rc" -ne 0 ]; then
            echo "FAIL: $what: exit status $rc" >&2
            cat "$tmp/err" >&2
            failures=$((failures + 1))
        elif ! grep -q '"validation": "passed"' "$tmp/json"; then
            echo "FAIL: $what: no \"validation\": \"passed\" in the JSON report" >&2
            failures=$((failures + 1))
        else
            echo "ok: $what"
        fi
    done
done

# --relabel degree: the cuda backend's levels per vertex equal the cpu
# backend's on the input's ids (one GPU, and two logical devices on it)
for ids in 0 0,0; do
    what="--relabel degree --device-ids $ids"
    "$BOXBFS" bfs kron:14 --backend cpu --devices 1 --roots 2 --output "$tmp/cpu.out" \
        >/dev/null 2>"$tmp/err" &&
        "$BOXBFS" bfs kron:14 --backend cuda --device-ids $ids --roots 2 --relabel degree \
            --contract atomic --visited bit --output "$tmp/cuda.out" --json "$tmp/json" \
            >/dev/null 2>>"$tmp/err"
    rc=$?
    cut -d' ' -f1,2 "$tmp/cpu.out" 2>/dev/null | sort >"$tmp/cpu.lv"
    cut -d' ' -f1,2 "$tmp/cuda.out" 2>/dev/null | sort >"$tmp/cuda.lv"
    if [ "$rc" -ne 0 ]; then
        echo "FAIL: $what: exit status $rc" >&2
        cat "$tmp/err" >&2
        failures=$((failures + 1))
    elif ! grep -q '"validation": "passed"' "$tmp/json" || [ ! -s "$tmp/cpu.lv" ] ||
        ! cmp -s "$tmp/cpu.lv" "$tmp/cuda.lv"; then
        echo "FAIL: $what: not validated, or levels differ from the cpu backend's" >&2
        failures=$((failures + 1))
    else
        echo "ok: $what"
    fi
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
exit 0
