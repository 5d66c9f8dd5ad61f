#!/bin/sh
# The memory plan across devices [README "Memory plan"]: with sort-based
# contraction (valid-flag, sort-unique; byte or bit visited; auto or top-down)
# every device of P = 2, 4, 8 holds at most 1.1 x (one device's / P) + n/8
# bytes (the report's memory_bytes, cpu backend), with the same traffic as
# before (tests/test_traffic, datasets.sh) and a validated tree; and
# --memory-limit lets 2 devices run a graph 1 device cannot.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"

within() {   # spec options...: the budget at P = 2, 4, 8 against P = 1
    spec=$1; shift
    for p in 1 2 4 8; do
        "$BOXBFS" bfs "$spec" --backend cpu --devices $p --roots 2 --json "$tmp/m$p.json" "$@" \
            >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
    done
    python3 - "$tmp" <<'EOF'
import json, sys
d = sys.argv[1]
one = json.load(open(d + "/m1.json"))
n, base = one["graph"]["vertices"], one["devices"][0]["memory_bytes"]
ok = True
for p in (2, 4, 8):
    j = json.load(open("%s/m%d.json" % (d, p)))
    most = max(x["memory_bytes"] for x in j["devices"])
    budget = 1.1 * base / p + n / 8
    print("  P=%d: %d bytes per device at most, budget %d (%.3f)" % (p, most, budget, most / budget))
    ok = ok and most <= budget and j["validation"] == "passed"
sys.exit(0 if ok else 1)
EOF
}

for opts in "--contract valid-flag" "--contract sort-unique" "--contract valid-flag --visited bit" \
            "--contract valid-flag --direction top-down"; do
    check "kron:16 $opts: per device <= 1.1 x one device's / P + n/8 at P = 2, 4, 8" \
          "within kron:16 $opts"
done

# one device cannot hold kron:14 in 8 MiB; two devices can
limit=8388608
"$BOXBFS" bfs kron:14 --backend cpu --devices 1 --roots 1 --memory-limit $limit >/dev/null 2>"$tmp/err1"
rc1=$?
"$BOXBFS" bfs kron:14 --backend cpu --devices 2 --roots 1 --memory-limit $limit >"$tmp/out2" 2>&1
rc2=$?
check "--memory-limit 8 MiB: kron:14 does not fit one device (exit 3, more devices suggested)" \
      "[ $rc1 -eq 3 ] && grep -q 'try more devices' '$tmp/err1'"
check "--memory-limit 8 MiB: kron:14 runs on two devices and validates" \
      "[ $rc2 -eq 0 ] && grep -q '^validation: PASS' '$tmp/out2'"
exit $fail
