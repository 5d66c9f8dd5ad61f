"""Used by tests/gpu_topo.sh: `boxbfs topo --json` against nvidia-smi.
The PCI bus ids must be nvidia-smi's (`--query-gpu=pci.bus_id`), in the same
order, and every pair that `nvidia-smi topo -m` shows as NV<k> must be an
NVLink pair in the report (with k links where NVML counted them); a pair
nvidia-smi does not show on NVLink must not be one.

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
for link in topo["links"]:
    a, b = link["src"], link["dst"]
    smi = cells[(a, b)]
    nv = re.match(r"^NV(\d+)$", smi)
    if nv:
        assert link["type"].startswith("NVLINK") or link["type"] == "NVSWITCH", (a, b, smi, link)
        if link.get("nvlinks", -1) > 0:
            assert link["nvlinks"] == int(nv.group(1)), (a, b, smi, link)
    else:
        assert not link["type"].startswith("NVLINK"), (a, b, smi, link)
print("boxbfs topo agrees with nvidia-smi on %d GPUs" % len(ours))
