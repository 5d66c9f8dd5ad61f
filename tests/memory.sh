#!/bin/sh
# The memory plan across devices [docs/cli.md, "Memory plan"]: every device of
# P = 2, 4, 8 holds at most 1.1 x (one device's / P) + n/8 bytes (the
# report's memory_bytes, cpu backend, kron:16) with sort-based contraction
# (valid-flag, sort-unique; byte or bit visited; auto or top-down) and with
# the atomic method's bitmap outbox (wire auto) where the remote parents are
# recomputed (--parents recompute, or auto under a --memory-limit of the
# budget), with the same traffic as before (tests/test_traffic, datasets.sh,
# test_engine) and a validated tree; atomic with --wire list takes the
# bitmap outbox where its list layout does not fit. --memory-limit lets 2
# devices run a graph 1 device cannot, and a kron scale more than 1 device
# (atomic).
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"

# The budget at P of a one-device report $tmp/m1.json.
budget() {
    python3 - "$tmp/m1.json" "$1" <<'EOF'
import json, sys
one = json.load(open(sys.argv[1]))
d = one["devices"][0]   # less its short rows: the loop's own, on one device only
n, base = one["graph"]["vertices"], d["memory_bytes"] - d["arrays"].get("short_rows", 0)
print(int(1.1 * base / int(sys.argv[2]) + n / 8))
EOF
}

# Every device of $tmp/m$p.json within the budget, tree validated; parents
# used on some device (any: "").
fits() {   # p parents
    python3 - "$tmp/m$1.json" "$(budget $1)" "$2" <<'EOF'
import json, sys
j, budget, parents = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
most = max(x["memory_bytes"] for x in j["devices"])
used = sorted({x["parents"] for x in j["devices"]})
print("  P=%d: %d bytes per device at most, budget %d (%.3f), parents %s"
      % (j["device_count"], most, budget, most / budget, "+".join(used)))
sys.exit(0 if most <= budget and j["validation"] == "passed" and
         (not parents or parents in used) else 1)
EOF
}

# One device without the visited-prefix skip's arrays (12 bytes per vertex,
# one device only): the budget is against the same plan that P devices split.
run() {   # spec p options...: the report in $tmp/m$p.json
    spec=$1; p=$2; shift 2
    BOXBFS_PREFIX_SKIP=0 "$BOXBFS" bfs "$spec" --backend cpu --devices $p --roots 2 --json "$tmp/m$p.json" "$@" \
        >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
}

within() {   # spec options...: the budget at P = 2, 4, 8 against P = 1
    spec=$1; shift
    for p in 1 2 4 8; do run "$spec" $p "$@" || return 1; done
    ok=0
    for p in 2 4 8; do fits $p "" || ok=1; done
    return $ok
}

for opts in "--contract valid-flag" "--contract sort-unique" "--contract valid-flag --visited bit" \
            "--contract valid-flag --direction top-down" \
            "--contract atomic --wire auto --parents recompute" \
            "--contract atomic --wire auto --parents recompute --visited bit" \
            "--contract atomic --wire bitmap --parents recompute --direction top-down"; do
    check "kron:16 $opts: per device <= 1.1 x one device's / P + n/8 at P = 2, 4, 8" \
          "within kron:16 $opts"
done

# --parents auto with the budget as --memory-limit: each device keeps the
# remote parents where that fits (P = 2), else recomputes them (P = 4, 8)
auto_within() {
    run kron:16 1 --contract atomic --wire auto || return 1
    ok=0
    for p in 2 4 8; do
        want=recompute; [ $p -eq 2 ] && want=keep
        run kron:16 $p --contract atomic --wire auto --memory-limit "$(budget $p)" || return 1
        fits $p $want || ok=1
    done
    return $ok
}
check "kron:16 atomic --parents auto under --memory-limit = the budget: fits, recompute at P = 4, 8" \
      auto_within

# atomic with the default --wire list under --memory-limit = the budget: the
# list layout (n-entry outbox and inbox) does not fit, so every device takes
# the bitmap outbox of --wire auto, says so, and runs within the budget; the
# JSON names the wire that ran beside the one asked for. Without a limit the
# list layout stays.
list_within() {
    run kron:16 1 --contract atomic || return 1
    ok=0
    for p in 2 4 8; do
        run kron:16 $p --contract atomic --search-on host --memory-limit "$(budget $p)" || return 1
        fits $p "" || ok=1
        grep -q 'the outbox is a bitmap instead (--wire auto)' "$tmp/err" || ok=1
        python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["wire"] == "auto" and j["options"]["wire"] == "list"' \
            "$tmp/m$p.json" || ok=1
    done
    run kron:16 2 --contract atomic --search-on host || return 1
    grep -q '"wire": "list"' "$tmp/m2.json" && ! grep -q 'bitmap instead' "$tmp/err" || ok=1
    return $ok
}
check "kron:16 atomic --wire list under --memory-limit = the budget: --wire auto, fits at P = 2, 4, 8" \
      list_within

# The search across devices under --memory-limit = the budget: where its
# layout (an inbox of vertices and parents per other device, two frontier
# bitmaps) does not fit, the host drives the levels, says so, and runs
# within the budget; --search-on device refuses, naming the device.
search_within() {
    run kron:16 1 --contract atomic || return 1
    ok=0
    for p in 2 4 8; do
        run kron:16 $p --contract atomic --memory-limit "$(budget $p)" || return 1
        fits $p "" || ok=1
        python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("  P=%d: %s" % (j["device_count"], j["strategy"]))' \
            "$tmp/m$p.json"
        if grep -q '"strategy": "host-driven levels"' "$tmp/m$p.json"; then
            grep -q 'cannot hold the search across devices.*under --memory-limit' "$tmp/err" || ok=1
        fi
    done
    run kron:16 8 --contract atomic --memory-limit 100000 --search-on device && ok=1
    grep -q -e 'cannot hold the search across devices' -e 'needs' "$tmp/err" || ok=1
    return $ok
}
check "kron:16 atomic under --memory-limit = the budget: the search on the devices where it fits, else host levels" \
      search_within

# Each device's arrays (JSON devices[].arrays, name: bytes) sum to its
# memory_bytes, and what it dropped ("dropped") is not among them: with no
# limit nothing; under a tighter --memory-limit the visited-prefix skip's
# rank, by_rank and skip (0.29x: the search across devices still runs),
# then also the remote parents (0.25x: recomputed, host-driven levels). The
# text report lists each device's arrays and what it dropped.
arrays_agree() {   # p want...: the report $tmp/m$p.json; what every device dropped
    p=$1; shift
    python3 - "$tmp/m$p.json" "$@" <<'EOF'
import json, sys
j, want = json.load(open(sys.argv[1])), sys.argv[2:]
for x in j["devices"]:
    names, dropped = x["arrays"], x["dropped"]
    assert sum(names.values()) == x["memory_bytes"], (names, x["memory_bytes"])
    assert {"offsets", "columns", "level", "pred", "visited"} <= set(names), names
    gone = {"rank", "by_rank", "skip"} if "rank" in dropped else set()
    gone |= {"remote_parent"} if "remote_parent" in dropped else set()
    assert not gone & set(names), (gone, names)
    assert all(w in dropped for w in want) and (want or dropped == ""), (want, dropped)
print("  P=%d: dropped %r" % (j["device_count"], j["devices"][0]["dropped"]))
sys.exit(0 if j["validation"] == "passed" else 1)
EOF
}
arrays_report() {
    "$BOXBFS" bfs kron:16 --backend cpu --devices 1 --roots 1 --json "$tmp/m1.json" >/dev/null 2>&1 ||
        return 1
    one=$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))["devices"][0]
print(d["memory_bytes"] - d["arrays"].get("short_rows", 0))' "$tmp/m1.json")
    ok=0
    for pct in 0 29 25; do
        limit=""
        want=""
        [ $pct -eq 0 ] || limit="--memory-limit $((one * pct / 100))"
        [ $pct -eq 29 ] && want="rank"
        [ $pct -eq 25 ] && want="rank remote_parent"
        "$BOXBFS" bfs kron:16 --backend cpu --devices 4 --roots 2 --json "$tmp/m4.json" $limit \
            >"$tmp/out" 2>"$tmp/err" || return 1
        arrays_agree 4 $want || ok=1
        [ "$(grep -c '^#     arrays: ' "$tmp/out")" -eq 4 ] || ok=1
        drops=$(grep -c '^#     dropped: .*rank, by_rank, skip' "$tmp/out")
        if [ $pct -eq 0 ]; then [ "$drops" -eq 0 ] || ok=1; else [ "$drops" -eq 4 ] || ok=1; fi
    done
    return $ok
}
check "kron:16 on 4 devices: the arrays sum to the memory, the dropped ones named (no limit, 0.29x, 0.25x one device's)" \
      arrays_report

# The capacity limit: under 1.15 x (one device's memory / P) + n / 8 bytes a
# Kronecker graph still runs the search across devices on P = 2 and 4 (each
# inbox region holds the vertices of its range that have in-arcs, not the
# whole range), every tree validated.
near_ideal_share() {
    "$BOXBFS" bfs kron:18 --backend cpu --devices 1 --roots 1 --json "$tmp/c1.json" >/dev/null 2>&1 ||
        return 1
    ok=0
    for p in 2 4; do
        limit=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["devices"][0]
one = d["memory_bytes"] - d["arrays"].get("short_rows", 0)   # short rows: one device only
print(int(1.15 * one / int(sys.argv[2]) + (1 << 18) / 8))' \
                "$tmp/c1.json" $p)
        "$BOXBFS" bfs kron:18 --backend cpu --devices $p --roots 2 --memory-limit "$limit" \
            --json "$tmp/c$p.json" >/dev/null 2>&1 || ok=1
        python3 - "$tmp/c$p.json" "$limit" <<'EOF' || ok=1
import json, sys
j, limit = json.load(open(sys.argv[1])), int(sys.argv[2])
assert j["strategy"] == "device search across devices", (j["strategy"], j.get("strategy_why"))
assert all(x["memory_bytes"] <= limit for x in j["devices"]), limit
assert j["validation"] == "passed"
print("  P=%d under %d bytes: %s, dropped %r" % (j["device_count"], limit, j["strategy"],
                                                  j["devices"][0]["dropped"]))
EOF
    done
    return $ok
}
check "kron:18 under 1.15 x (one device's memory / P) + n / 8: the search across devices on 2 and 4 devices" \
      near_ideal_share

# one device cannot hold kron:14 in 8 MiB with valid-flag and byte Visited
# (the sort's buffers); two devices can
limit=8388608
"$BOXBFS" bfs kron:14 --backend cpu --devices 1 --roots 1 --memory-limit $limit \
    --contract valid-flag --visited byte >/dev/null 2>"$tmp/err1"
rc1=$?
"$BOXBFS" bfs kron:14 --backend cpu --devices 2 --roots 1 --memory-limit $limit \
    --contract valid-flag --visited byte >"$tmp/out2" 2>&1
rc2=$?
check "--memory-limit 8 MiB: kron:14 does not fit one device (exit 3, 2 devices suggested)" \
      "[ $rc1 -eq 3 ] && grep -q 'try --devices 2 or more' '$tmp/err1'"
check "--memory-limit 8 MiB: kron:14 runs on two devices and validates" \
      "[ $rc2 -eq 0 ] && grep -q '^validation: PASS' '$tmp/out2'"
# the count suggested is where the plan fits (kron:18, atomic: the slice
# split N ways beside the rest of one device's plan), one fewer is not
"$BOXBFS" bfs kron:18 --backend cpu --devices 1 --roots 1 --memory-limit 20000000 \
    >/dev/null 2>"$tmp/err18"
rc1=$?
n=$(sed -n 's/.*try --devices \([0-9]*\) or more.*/\1/p' "$tmp/err18")
"$BOXBFS" bfs kron:18 --backend cpu --devices "${n:-1}" --roots 1 --memory-limit 20000000 \
    >"$tmp/out18" 2>&1
rcn=$?
"$BOXBFS" bfs kron:18 --backend cpu --devices $((${n:-2} - 1)) --roots 1 --memory-limit 20000000 \
    >/dev/null 2>"$tmp/err18b"
rcf=$?
check "--memory-limit 20000000: kron:18 on one device suggests --devices $n, which validates" \
      "[ $rc1 -eq 3 ] && [ -n '$n' ] && [ $rcn -eq 0 ] && grep -q '^validation: PASS' '$tmp/out18'"
check "--memory-limit 20000000: kron:18 on $((${n:-2} - 1)) devices does not fit and says $n" \
      "[ $rcf -eq 3 ] && grep -q 'try --devices $n or more' '$tmp/err18b'"

# The experiment (atomic, wire auto, parents auto): the largest kron scale
# that runs and validates under 8 MiB per device, found by a loop from
# kron:10 up: kron:15 on one device, kron:16 on two.
largest() {   # devices: the largest scale that runs
    s=10
    while "$BOXBFS" bfs kron:$((s + 1)) --backend cpu --devices $1 --roots 1 --contract atomic \
            --wire auto --memory-limit $limit >"$tmp/out" 2>"$tmp/err" &&
          grep -q '^validation: PASS' "$tmp/out"; do
        s=$((s + 1))
    done
    grep -q 'try --devices [0-9]* or more\|try more devices' "$tmp/err" ||
        { cat "$tmp/err"; echo 0; return; }
    echo $s
}
s1=$(largest 1)
s2=$(largest 2)
echo "  --memory-limit 8 MiB, atomic: kron:$s1 on 1 device, kron:$s2 on 2 devices"
check "--memory-limit 8 MiB, atomic: 2 devices run a kron scale more than 1 (kron:$s1, kron:$s2)" \
      "[ $s1 -ge 11 ] && [ $s2 -eq $((s1 + 1)) ]"
exit $fail
