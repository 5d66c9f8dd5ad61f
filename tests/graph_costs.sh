#!/bin/sh
# benchmarks/graph-costs: where there is no GPU or no nvcc it says so and
# exits 77 with nothing half-written; on a GPU every case of
# kernels/cuda/graph_costs.cu comes back as a positive figure in the JSON,
# with the fields every results JSON records.
set -u
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
. "$(dirname "$0")/testlib.sh"
bench=$(source_dir benchmarks graph-costs) || exit 99

BB_COMMIT=test sh "$bench/graph-costs" "$tmp/o" >"$tmp/stdout" 2>&1
rc=$?
if [ $rc = 77 ]; then
    check "no GPU or no nvcc: named" "grep -q '^graph-costs: no ' '$tmp/stdout'"
    check "no GPU or no nvcc: no JSON" "[ ! -e '$tmp/o/graph-costs.json' ]"
    [ $fail = 0 ] || exit 1
    echo "no GPU or no nvcc: the figures not measured here"
    exit 77
fi
check "graph-costs exit 0" "[ $rc -eq 0 ]"
check "every case, positive figures, the recorded fields" "python3 - '$tmp/o/graph-costs.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ('command', 'options', 'backend', 'devices', 'commit', 'date'):
    assert k in d, k
cases = ('kernel_chain', 'kernel_copy_to_constant_chain', 'cluster_kernel_chain',
         'while_decide_switch', 'decide_switch_chain', 'decide_switch_chain_none_taken',
         'while_decide_kernel', 'loop_level_reads0', 'loop_level_reads1', 'loop_level_reads2',
         'loop_level_reads4', 'block_level_reads0', 'block_level_reads1', 'block_level_reads2',
         'block_level_reads4', 'kernel_launch', 'link_floor', 'link_bell_state',
         'link_bell_state_no_fence', 'link_bell_state_read', 'link_bell_result',
         'link_bell_small_read', 'link_bell_small_result', 'link_stamped',
         'link_stamped_both', 'link_stamped_small', 'link_stamped_small_both', 'link_split')
for c in cases:
    assert c in d['cases'] and d['cases'][c], c
    assert all(v > 0 for v in d['cases'][c].values()), (c, d['cases'][c])
assert 'step_no_body_us' in d['cases']['decide_switch_chain_none_taken']
PY"
exit $fail
