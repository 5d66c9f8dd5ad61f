"""Used by tests/gpu_topo.sh: `boxbfs topo --json` against nvidia-smi.
The PCI bus ids must be nvidia-smi's (`--query-gpu=pci.bus_id`), in the same
order; every pair's NVLink count must be the k of `nvidia-smi topo -m`'s NV<k>
(0 where it shows no NVLink: SYS, NODE, PHB, PXB, PIX), counted through NVML
(link source "nvml": nvidia-smi runs, so NVML is there); a pair on NVLink is
NVLINK xk or NVSWITCH, any other pair neither.

  python3 tests/smi_topo.py TOPO.json BUS_IDS.txt TOPO_M.txt
"""
import json
import re
import sys

topo = json.load(open(sys.argv[1]))
smi_bus = [l.strip().lower() for l in open(sys.argv[2]) if l.strip()]
ours = [d["pci_bus_id"].lower() for d in topo["devices"]]


def norm(bus):   # nvidia-smi: 00000000:19:00.0; CUDA: 0000:19:00.0
    dom, rest = bus.split(":", 1)
    return "%04x:%s" % (int(dom, 16), rest)


assert [norm(b) for b in ours] == [norm(b) for b in smi_bus], (ours, smi_bus)
cells = {}
for line in open(sys.argv[3]):
    m = re.match(r"^GPU(\d+)\s+(.*)$", line.rstrip())
    if not m:
        continue
    row = int(m.group(1))
    for col, cell in enumerate(m.group(2).split()[:len(ours)]):
        cells[(row, col)] = cell
assert len(cells) == len(ours) ** 2, ("topo -m matrix", len(cells))
assert topo["link_source"] == "nvml", \
    "boxbfs counted no NVLinks through NVML (link source %r; BOXBFS_LOG=info says why)" \
    % topo["link_source"]
wrong = []
for link in topo["links"]:
    a, b = link["src"], link["dst"]
    smi = cells[(a, b)]
    nv = re.match(r"^NV(\d+)$", smi)
    want = int(nv.group(1)) if nv else 0
    on_nvlink = link["type"].startswith("NVLINK") or link["type"] == "NVSWITCH"
    if link["nvlinks"] != want or on_nvlink != bool(nv):
        wrong.append("GPU%d -> GPU%d: nvidia-smi %s, boxbfs %s with %d NVLinks"
                     % (a, b, smi, link["type"], link["nvlinks"]))
assert not wrong, "\n".join(["boxbfs topo and nvidia-smi topo -m differ:"] + wrong)
print("boxbfs topo agrees with nvidia-smi on %d GPUs" % len(ours))
