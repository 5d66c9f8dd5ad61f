"""Used by tests/gpu_topo.sh: `boxbfs topo --json` against nvidia-smi.
The PCI bus ids must be nvidia-smi's (`--query-gpu=pci.bus_id`), in the same
order, or, where CUDA_VISIBLE_DEVICES makes a subset visible, that many of
them, each once; every pair's NVLink count must be the k of `nvidia-smi topo
-m`'s NV<k> in the cell of the two GPUs' bus ids (0 where it shows no NVLink:
SYS, NODE, PHB, PXB, PIX), counted through NVML (link source "nvml":
nvidia-smi runs, so NVML is there); a pair on NVLink is NVLINK xk or
NVSWITCH, any other pair neither.

  python3 tests/smi_topo.py TOPO.json BUS_IDS.txt TOPO_M.txt
  python3 tests/smi_topo.py --pair A B TOPO.json BUS_IDS.txt TOPO_M.txt
      prints nvidia-smi's cell for boxbfs devices A and B (tests/device_search.sh)
"""
import json
import os
import re
import sys

args = sys.argv[1:]
pair = None
if args[:1] == ["--pair"]:
    pair, args = (int(args[1]), int(args[2])), args[3:]
topo = json.load(open(args[0]))
smi_bus = [l.strip().lower() for l in open(args[1]) if l.strip()]
ours = [d["pci_bus_id"].lower() for d in topo["devices"]]


def norm(bus):   # nvidia-smi: 00000000:19:00.0; CUDA: 0000:19:00.0
    dom, rest = bus.split(":", 1)
    return "%04x:%s" % (int(dom, 16), rest)


smi_norm = [norm(b) for b in smi_bus]
visible = os.environ.get("CUDA_VISIBLE_DEVICES")
if visible is None:
    assert [norm(b) for b in ours] == smi_norm, (ours, smi_bus)
else:   # a subset: each of ours among nvidia-smi's, once
    assert len(ours) == len([v for v in visible.split(",") if v.strip()]), (ours, visible)
    assert len(set(ours)) == len(ours) and all(norm(b) in smi_norm for b in ours), \
        (ours, smi_bus)
smi_index = [smi_norm.index(norm(b)) for b in ours]   # boxbfs device -> nvidia-smi GPU
cells = {}
for line in open(args[2]):
    m = re.match(r"^GPU(\d+)\s+(.*)$", line.rstrip())
    if not m:
        continue
    row = int(m.group(1))
    for col, cell in enumerate(m.group(2).split()[:len(smi_bus)]):
        cells[(row, col)] = cell
assert len(cells) == len(smi_bus) ** 2, ("topo -m matrix", len(cells))
if pair:
    print(cells[(smi_index[pair[0]], smi_index[pair[1]])])
    sys.exit(0)
assert topo["link_source"] == "nvml", \
    "boxbfs counted no NVLinks through NVML (link source %r; BOXBFS_LOG=info says why)" \
    % topo["link_source"]
wrong = []
for link in topo["links"]:
    a, b = link["src"], link["dst"]
    smi = cells[(smi_index[a], smi_index[b])]
    nv = re.match(r"^NV(\d+)$", smi)
    want = int(nv.group(1)) if nv else 0
    on_nvlink = link["type"].startswith("NVLINK") or link["type"] == "NVSWITCH"
    if link["nvlinks"] != want or on_nvlink != bool(nv):
        wrong.append("GPU%d -> GPU%d: nvidia-smi %s, boxbfs %s with %d NVLinks"
                     % (a, b, smi, link["type"], link["nvlinks"]))
assert not wrong, "\n".join(["boxbfs topo and nvidia-smi topo -m differ:"] + wrong)
print("boxbfs topo agrees with nvidia-smi on %d GPUs (nvidia-smi's %s)"
      % (len(ours), ",".join(str(i) for i in smi_index)))
