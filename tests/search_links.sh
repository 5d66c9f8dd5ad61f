#!/bin/sh
# --search-on auto weighs the links (docs/architecture.md "Where a search
# runs"): devices that a link description file declares slower than NVLink
# (GPU-BOX's slots: tests/data/links/gpubox4.links) drive their levels from
# the host with contracted bulk copies, and the report and JSON say why; a
# description of fast links, or a named model alone (which describes no
# machine: --link-model expether-2x10g), keeps the search across devices;
# --search-on device keeps it whatever the links; every tree validated.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
links=${TESTDATA:-$(dirname "$0")/data}/links
printf 'name fast\nslot * bandwidth=450GB/s latency=2.3us\n' >"$tmp/fast.links"

run() {   # NAME OPTIONS...: kron:12 on 2 cpu devices into $tmp/NAME.{txt,json}
    name=$1
    shift
    "$BOXBFS" bfs kron:12 --backend cpu --devices 2 --roots 4 "$@" --json "$tmp/$name.json" \
        >"$tmp/$name.txt" 2>"$tmp/$name.err" || { cat "$tmp/$name.err"; return 1; }
    grep -q '"validation": "passed"' "$tmp/$name.json"
}
strategy() {   # NAME STRATEGY [WHY-PREFIX]: the JSON's strategy, and strategy_why (or none)
    python3 - "$tmp/$1.json" "$2" "${3:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["strategy"] == sys.argv[2], d["strategy"]
why = d.get("strategy_why", "")
assert why.startswith(sys.argv[3]) if sys.argv[3] else why == "", why
PY
}
check "GPU-BOX description: host-driven levels, the text and JSON say which link" \
    'run box --link-model "$links/gpubox4.links" &&
     strategy box "host-driven levels" "links: devices 0 and 1 are linked at 2.5 GB/s (gpubox4)" &&
     grep -q "search: host-driven levels (links: .*slower than NVLink)" "$tmp/box.txt"'
check "per-pair description (pairs.links, 2 GB/s): host-driven levels" \
    'run pairs --link-model "$links/pairs.links" && strategy pairs "host-driven levels" "links: "'
check "a description of 450 GB/s slots: the search across devices" \
    'run fast --link-model "$tmp/fast.links" && strategy fast "device search across devices"'
check "a named model alone (expether-2x10g): the search across devices, modeled times" \
    'run named --link-model expether-2x10g && strategy named "device search across devices" &&
     grep -q "\"name\": \"expether-2x10g\"" "$tmp/named.json"'
check "--search-on device with the GPU-BOX description: the search across devices" \
    'run forced --link-model "$links/gpubox4.links" --search-on device &&
     strategy forced "device search across devices"'
check "--search-on host: host-driven levels, said so" \
    'run host --search-on host && strategy host "host-driven levels" "--search-on host"'
check "a refusal is the reason too (--contract valid-flag)" \
    'run vf --contract valid-flag && strategy vf "host-driven levels" "it needs --contract atomic"'
check "GPU-BOX and fast descriptions: the same levels and reached counts per root" \
    'python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [(r[\"root\"], r[\"levels\"], r[\"reached\"]) for r in a[\"runs\"]] == \
       [(r[\"root\"], r[\"levels\"], r[\"reached\"]) for r in b[\"runs\"]]
" "$tmp/box.json" "$tmp/fast.json"'
exit $fail
