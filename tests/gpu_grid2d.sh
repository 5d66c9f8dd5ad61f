#!/bin/sh
# --partition 2d on the cuda backend (README "2D partition"): for every grid
# the GPUs here allow (R x C <= GPUs, R, C <= 2), the cuda run counts the
# same traffic (totals, phases, per-link matrix, level table, per-root
# bytes) and gives the same levels as the cpu backend, and validates. Skips
# (77) without a GPU or without the cuda backend.
set -u
[ -x "${BOXBFS:-}" ] || { echo "BOXBFS not set"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
. "$(dirname "$0")/testlib.sh"
if ! "$BOXBFS" bfs kron:6 --backend cuda --devices 1 --roots 1 >/dev/null 2>"$tmp/e"; then
    echo "no usable GPU: skipped ($(head -1 "$tmp/e"))"; exit 77
fi
if ! "$BOXBFS" bfs kron:6 --backend cuda --devices 1 --partition 2d --roots 1 >/dev/null 2>"$tmp/e"; then
    if grep -q "2D kernels are not built in" "$tmp/e"; then
        echo "the cuda backend has no 2D kernels yet: skipped"; exit 77
    fi
    echo "FAIL --partition 2d on the cuda backend:"; cat "$tmp/e"; exit 1
fi
gpus=$(python3 - "$BOXBFS" <<'PY'
import subprocess, sys
n = 1
for k in range(2, 9):
    r = subprocess.run([sys.argv[1], "bfs", "kron:4", "--backend", "cuda", "--devices", str(k),
                        "--roots", "1", "--no-validate"], capture_output=True)
    if r.returncode != 0:
        break
    n = k
print(n)
PY
)
for grid in 1x1 1x2 2x1 2x2; do
    np=$(echo $grid | awk -Fx '{print $1 * $2}')
    [ "$np" -le "$gpus" ] || continue
    for wire in list auto; do
        "$BOXBFS" bfs kron:14 --roots 4 --backend cpu --partition 2d --grid $grid --wire $wire \
            --json "$tmp/c.json" --output "$tmp/c.out" >/dev/null 2>&1
        "$BOXBFS" bfs kron:14 --roots 4 --backend cuda --partition 2d --grid $grid --wire $wire \
            --json "$tmp/g.json" --output "$tmp/g.out" >/dev/null 2>"$tmp/ge"
        rc=$?
        check "$grid $wire: cuda exit 0" "[ $rc -eq 0 ]"
        [ $rc -eq 0 ] || cat "$tmp/ge"
        check "$grid $wire: same traffic as cpu" "python3 - '$tmp/c.json' '$tmp/g.json' <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a['validation'] == b['validation'] == 'passed'
ta, tb = a['traffic'], b['traffic']
for k in ('total_bytes', 'total_messages', 'phases', 'phase_messages', 'links'):
    assert ta[k] == tb[k], (k, ta[k], tb[k])
keys = ('level', 'frontier', 'sent_vertices', 'bytes', 'messages', 'bitmap_messages')
assert [[l[k] for k in keys] for l in ta['levels']] == [[l[k] for k in keys] for l in tb['levels']]
assert [r['bytes'] for r in a['runs']] == [r['bytes'] for r in b['runs']]
PY"
        check "$grid $wire: same levels as cpu" \
            "cut -d' ' -f1,2 '$tmp/c.out' >'$tmp/c.l'; cut -d' ' -f1,2 '$tmp/g.out' >'$tmp/g.l'; cmp -s '$tmp/c.l' '$tmp/g.l'"
    done
done
exit $fail
