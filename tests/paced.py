"""Used by tests/throttle.sh and tests/gpu_nccl.sh: a `boxbfs bfs --throttle
--json` report must show the first root's exchange paced to the link model:
the measured exchange time (sum over its levels) is at least the modeled
time and at most 25 % + 10 ms above it plus what the unthrottled run spent
in the exchange (barriers and the sizes step are not paced away).

  python3 tests/paced.py THROTTLED.json UNTHROTTLED.json

Exit 0 paced, 2 only too slow (a loaded machine oversleeps: the caller may
try again), 1 anything else.
"""
import json
import sys


def exchange_s(path):
    levels = json.load(open(path))["traffic"]["levels"]
    return (sum(lv["exchange_s"] for lv in levels),
            sum(lv["modeled_exchange_s"] for lv in levels))


measured, modeled = exchange_s(sys.argv[1])
base, _ = exchange_s(sys.argv[2])
print("throttled exchange %.4f s, modeled %.4f s, unthrottled %.4f s" % (measured, modeled, base))
assert modeled > 0.01, "the model should make the exchange slow"
assert measured >= 0.999 * modeled, "faster than the link model"
if measured > 1.25 * modeled + base + 0.01:
    print("much slower than the link model")
    sys.exit(2)
