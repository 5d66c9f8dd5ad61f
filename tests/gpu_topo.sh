#!/bin/sh
# Topology on GPUs: `boxbfs topo --backend cuda` describes every GPU (bus id,
# SMs, memory) and pair, as nvidia-smi sees them (bus ids; every pair's NVLink
# count the k of `nvidia-smi topo -m`'s NV<k>, 0 where it shows none, NV18
# through an H200 board's NVSwitch: tests/smi_topo.py); the probe gives positive, plausible figures for
# peer, staged and bidirectional copies; with 2 or more GPUs, bfs runs with
# --link-model measured, --order topology and a throttled GPU-BOX link
# (exchange time within 25 % + 5 ms of the model). The probe enables peer
# access before timing: every pair that CUDA lets access its peer reports a
# direct path, and an NVLink/NVSwitch pair's peer bandwidth at the largest
# size is at least 2x its host-staged one. Skips (77) without a GPU.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
. "$(dirname "$0")/testlib.sh"

if ! "$BOXBFS" topo --backend cuda --json "$tmp/t.json" >"$tmp/t" 2>"$tmp/e"; then
    if grep -q -i -e "no GPU" -e "not built in" "$tmp/e"; then echo "SKIP: $(cat "$tmp/e")"; exit 77; fi
    cat "$tmp/e"; exit 1
fi
cat "$tmp/t"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 needed"; exit 77; }
ngpu=$(python3 -c "import json;print(len(json.load(open('$tmp/t.json'))['devices']))")
check "devices described" "python3 -c '
import json
t=json.load(open(\"$tmp/t.json\"))
assert t[\"backend\"]==\"cuda\" and t[\"link_source\"] in (\"nvml\",\"cuda p2p attributes\")
for d in t[\"devices\"]:
    assert d[\"sm_count\"]>0 and d[\"memory_bytes\"]>2**30 and d[\"pci_bus_id\"].count(\":\")==2 and not d[\"emulated\"]
assert len(t[\"links\"])==len(t[\"devices\"])*(len(t[\"devices\"])-1)
'"
if command -v nvidia-smi >/dev/null 2>&1; then   # discovery = what nvidia-smi sees
    nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader >"$tmp/bus" 2>&1
    nvidia-smi topo -m >"$tmp/topo_m" 2>&1
    cat "$tmp/topo_m"
    check "bus ids and NVLink counts as nvidia-smi (topo -m)" \
        "python3 '$(dirname "$0")/smi_topo.py' '$tmp/t.json' '$tmp/bus' '$tmp/topo_m'"
    # what NVML said of each GPU's links (a GPU's active NVLinks, those into an NVSwitch)
    BOXBFS_LOG=debug "$BOXBFS" topo --backend cuda 2>&1 >/dev/null | grep NVML
fi
[ "$ngpu" -ge 2 ] || { echo "one GPU: pair checks skipped"; exit $fail; }
"$BOXBFS" topo --backend cuda --probe --sizes 4K..64M --repeats 5 --json "$tmp/p.json" \
    --write-links "$tmp/m.links" >"$tmp/p" 2>&1
check "probe exit 0" "[ $? -eq 0 ]"
cat "$tmp/p"; cat "$tmp/m.links"
check "probe figures plausible" "python3 -c '
import json
p=json.load(open(\"$tmp/p.json\"))[\"probe\"]
for pr in p[\"pairs\"]:
    assert 0 < pr[\"latency_s\"] < 1e-3, pr
    big=pr[\"sizes\"][-1]
    for m in (\"peer\",\"host\",\"bidir\"):
        assert 1e8 < big[m+\"_Bps\"] < 5e12, (m, big)
'"
check "peer access enabled where CUDA allows it; NVLink peer copies well above host staging" "python3 -c '
import json
t=json.load(open(\"$tmp/p.json\"))
links={(l[\"src\"],l[\"dst\"]):l for l in t[\"links\"]}
for pr in t[\"probe\"][\"pairs\"]:
    l=links[(pr[\"src\"],pr[\"dst\"])]; big=pr[\"sizes\"][-1]
    print(pr[\"src\"], \"->\", pr[\"dst\"], l[\"type\"], pr[\"peer_path\"], \"peer %.1f GB/s, host %.1f GB/s\" % (big[\"peer_Bps\"]/1e9, big[\"host_Bps\"]/1e9))
    assert pr[\"peer_path\"].startswith(\"direct\") == bool(l[\"access\"]), (l, pr[\"peer_path\"])
    if l[\"type\"].startswith(\"NVLINK\") or l[\"type\"] == \"NVSWITCH\":
        assert big[\"peer_Bps\"] >= 2*big[\"host_Bps\"], (\"NVLink peer copy not well above host staging\", big)
'"
"$BOXBFS" bfs kron:14 --backend cuda --devices "$ngpu" --roots 4 --link-model measured --order topology \
    --json "$tmp/m.json" >/dev/null 2>"$tmp/me"
check "bfs --link-model measured --order topology" "[ $? -eq 0 ] && grep -q '\"validation\": \"passed\"' '$tmp/m.json'"
"$BOXBFS" bfs kron:14 --backend cuda --devices "$ngpu" --roots 2 --link-model "$tmp/m.links" >/dev/null 2>&1
check "bfs --link-model (written links)" "[ $? -eq 0 ]"
"$BOXBFS" bfs kron:14 --backend cuda --devices 2 --roots 2 --link-model expether-2x10g --throttle \
    --json "$tmp/th.json" >/dev/null 2>&1
check "throttled exchange close to the model" "python3 -c '
import json
r=json.load(open(\"$tmp/th.json\"))
L=r[\"traffic\"][\"levels\"]
meas=sum(l[\"exchange_s\"] for l in L); model=sum(l[\"modeled_exchange_s\"] for l in L)
print(\"throttled cuda: measured\", meas, \"modeled\", model)
assert meas >= 0.99*model and meas <= 1.25*model + 0.005
'"
exit $fail
