#!/bin/sh
# boxbfs topo without a GPU (cpu backend: emulated devices, said so), the
# probe's figures (positive and sane for memcpy), --write-links read back by
# bfs --link-model FILE, link-description errors with FILE:LINE, and
# bfs with --link-model FILE|measured, --throttle and --order topology.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"

"$BOXBFS" topo --backend cpu --devices 3 --json "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
check "topo exit 0" "[ $? -eq 0 ]"
check "says emulated" "grep -q '^# backend: cpu (devices emulated' '$tmp/out'"
check "three devices" "[ \$(grep -c 'cpu-emulated' '$tmp/out') -eq 3 ]"
check "access matrix" "grep -q '^# peer access' '$tmp/out' && grep -Eq '^   2    1    1    -$' '$tmp/out'"
check "link types" "[ \$(grep -c ' EMULATED ' '$tmp/out') -eq 6 ]"
check "stderr empty" "[ ! -s '$tmp/err' ]"
# no --backend: without a GPU it says so on stdout and shows the cpu devices
if [ "$("$BOXBFS" topo --json - 2>/dev/null | grep -c '"backend": "cpu"')" = 1 ]; then
    "$BOXBFS" topo >"$tmp/d" 2>&1
    check "no GPU: said cleanly" "[ $? -eq 0 ] && grep -Eq '^# cuda: (no GPU found|not built in)' '$tmp/d'"
fi

"$BOXBFS" topo --backend cpu --devices 2 --probe --sizes 4K..1M --repeats 3 \
    --json "$tmp/p.json" --write-links "$tmp/m.links" >"$tmp/p" 2>&1
check "probe exit 0" "[ $? -eq 0 ]"
check "probe table: 2 pairs x 5 sizes" "[ \$(grep -Ec '^ +[01] +[01] +[0-9]+ ' '$tmp/p') -eq 10 ]"
check "latency lines" "[ \$(grep -c '^latency_us' '$tmp/p') -eq 2 ]"
if command -v python3 >/dev/null 2>&1; then
    check "probe json: positive, sane memcpy figures" "python3 -c '
import json
p=json.load(open(\"$tmp/p.json\"))[\"probe\"]
assert len(p[\"pairs\"])==2
for pr in p[\"pairs\"]:
    assert 0 < pr[\"latency_s\"] < 1e-3, pr
    assert [s[\"bytes\"] for s in pr[\"sizes\"]]==[4096,16384,65536,262144,1048576]
    for s in pr[\"sizes\"]:
        for m in (\"peer\",\"host\",\"bidir\"):
            assert s[m+\"_s\"] > 0 and 1e7 < s[m+\"_Bps\"] < 1e13, (m, s)
'"
fi
check "written description" "grep -q '^link 0 1 bandwidth=' '$tmp/m.links'"
"$BOXBFS" bfs kron:8 --roots 2 --backend cpu --devices 2 --link-model "$tmp/m.links" >"$tmp/b" 2>&1
check "bfs reads the written description" "[ $? -eq 0 ] && grep -q 'measured' '$tmp/b'"

"$BOXBFS" topo --sizes 4K..1 >/dev/null 2>"$tmp/e1"; rc=$?
check "bad --sizes exit 1" "[ $rc -eq 1 ] && grep -q 'is not A..B' '$tmp/e1'"
"$BOXBFS" topo --write-links x >/dev/null 2>"$tmp/e2"; rc=$?
check "--write-links needs --probe" "[ $rc -eq 1 ] && grep -q 'needs --probe' '$tmp/e2'"

# link descriptions in bfs
"$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 4 --link-model "$TESTDATA/links/gpubox4.links" \
    --json "$tmp/g.json" >"$tmp/g" 2>&1
check "bfs --link-model FILE" "[ $? -eq 0 ] && grep -q '\"name\": \"gpubox4\"' '$tmp/g.json'"
"$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 3 --link-model expether-2x10g-shared >/dev/null 2>&1
check "bfs --link-model expether-2x10g-shared" "[ $? -eq 0 ]"
"$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 3 --link-model measured --order topology \
    --json "$tmp/m.json" >/dev/null 2>&1
check "bfs --link-model measured --order topology" "[ $? -eq 0 ] && grep -q '\"name\": \"measured\"' '$tmp/m.json'"
"$BOXBFS" bfs kron:9 --roots 2 --backend cpu --devices 2 --link-model 50MB/s,200us --throttle >/dev/null 2>&1
check "bfs --throttle" "[ $? -eq 0 ]"
"$BOXBFS" bfs kron:8 --backend cpu --link-model "$TESTDATA/links/bad_latency.links" >/dev/null 2>"$tmp/e3"; rc=$?
check "bad description: FILE:LINE, exit 1" "[ $rc -eq 1 ] && grep -q 'bad_latency.links:4: bad latency' '$tmp/e3'"
# issue 16: latency=inf made --throttle wait forever; refused with FILE:LINE
"$BOXBFS" bfs kron:8 --backend cpu --devices 2 --throttle --link-model "$TESTDATA/links/bad_latency_inf.links" \
    >/dev/null 2>"$tmp/e6"; rc=$?
check "latency=inf: FILE:LINE, exit 1" "[ $rc -eq 1 ] && grep -q \"bad_latency_inf.links:3: bad latency 'inf': a latency must be finite\" '$tmp/e6'"
"$BOXBFS" bfs kron:8 --backend cpu --devices 2 --throttle --link-model 1GB/s,nan >/dev/null 2>"$tmp/e7"; rc=$?
check "BW,nan: exit 1" "[ $rc -eq 1 ] && grep -q \"bad latency 'nan': a latency must be finite\" '$tmp/e7'"
"$BOXBFS" bfs kron:8 --backend cpu --devices 3 --link-model "$TESTDATA/links/partial.links" >/dev/null 2>"$tmp/e4"; rc=$?
check "uncovered pair: named" "[ $rc -eq 1 ] && grep -q 'no figure for 0 -> 2' '$tmp/e4'"
"$BOXBFS" bfs kron:8 --order fastest >/dev/null 2>"$tmp/e5"; rc=$?
check "bad --order exit 1" "[ $rc -eq 1 ] && grep -q \"unknown value 'fastest'\" '$tmp/e5'"

# tests/smi_topo.py, which judges boxbfs topo against nvidia-smi in tests/gpu_topo.sh,
# on four H200s of an NVSwitch board as nvidia-smi shows them (NV18 every pair):
# NVSWITCH pairs of 18 NVLinks agree; 0 NVLinks (or no NVML) differ; where
# CUDA_VISIBLE_DEVICES shows a subset, boxbfs's devices are found by bus id
smi_judge() {   # NVLINKS SOURCE [VISIBLE]: the judge's verdict on such a report
    python3 -c '
import json, sys
bus = ["0000:19:00.0", "0000:3B:00.0", "0000:4C:00.0", "0000:5D:00.0"]
bus = [bus[int(i)] for i in sys.argv[4].split(",")]
links = [{"src": a, "dst": b, "type": "NVSWITCH", "nvlinks": int(sys.argv[1])}
         for a in range(len(bus)) for b in range(len(bus)) if a != b]
json.dump({"link_source": sys.argv[2], "devices": [{"pci_bus_id": x} for x in bus],
           "links": links}, open(sys.argv[3], "w"))' "$1" "$2" "$tmp/smi.json" "${3:-0,1,2,3}" &&
    if [ -n "${3:-}" ]; then
        CUDA_VISIBLE_DEVICES=$3 python3 "$(dirname "$0")/smi_topo.py" "$tmp/smi.json" \
            "$TESTDATA/smi/h200x4_bus.txt" "$TESTDATA/smi/h200x4_topo_m.txt" >"$tmp/smi.out" 2>&1
    else
        env -u CUDA_VISIBLE_DEVICES python3 "$(dirname "$0")/smi_topo.py" "$tmp/smi.json" \
            "$TESTDATA/smi/h200x4_bus.txt" "$TESTDATA/smi/h200x4_topo_m.txt" >"$tmp/smi.out" 2>&1
    fi
}
if command -v python3 >/dev/null 2>&1; then
    check "smi_topo.py: 18 NVLinks a pair through the NVSwitch agree with NV18" "smi_judge 18 nvml"
    check "smi_topo.py: 0 NVLinks differ from NV18, naming the pairs" \
          "! smi_judge 0 nvml && grep -q 'GPU0 -> GPU1: nvidia-smi NV18, boxbfs NVSWITCH with 0' '$tmp/smi.out'"
    check "smi_topo.py: no NVML in boxbfs where nvidia-smi runs fails" "! smi_judge -1 'cuda p2p attributes'"
    check "smi_topo.py: CUDA_VISIBLE_DEVICES=2,3 found by bus id" \
          "smi_judge 18 nvml 2,3 && grep -q \"nvidia-smi's 2,3\" '$tmp/smi.out'"
    check "smi_topo.py: CUDA_VISIBLE_DEVICES=1, one device" "smi_judge 18 nvml 1"
    check "smi_topo.py: a subset of another count fails" \
          "! CUDA_VISIBLE_DEVICES=1,2 python3 '$(dirname "$0")/smi_topo.py' '$tmp/smi.json' \
           '$TESTDATA/smi/h200x4_bus.txt' '$TESTDATA/smi/h200x4_topo_m.txt' >/dev/null 2>&1"
fi
exit $fail
