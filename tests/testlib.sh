# Sourced by the shell tests (. "$(dirname "$0")/testlib.sh"): a temporary
# folder $tmp removed on exit, and `check NAME CONDITION`, which prints
# "ok   NAME" or "FAIL NAME" and remembers a failure in $fail.
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

# source_dir DIR FILE: the source tree's folder DIR (benchmarks, tools)
# holding FILE, beside tests/ or, out of tree, from TESTDATA; else it names
# DIR/FILE and fails (the caller exits 99: bench=$(source_dir ...) || exit 99).
source_dir() {
    sd=$(cd "$(dirname "$0")/../$1" 2>/dev/null && pwd)
    [ -f "$sd/$2" ] || sd=$(cd "${TESTDATA:-.}/../../$1" 2>/dev/null && pwd)
    [ -f "$sd/$2" ] || { echo "$1/$2 not found" >&2; return 1; }
    echo "$sd"
}

# root_rows REPORT: the root, levels, reached and validated columns of a bfs
# report's per-root table, one line per root.
root_rows() { awk '/^# *root /{t=1; next} t && /^#/{exit} t {print $1, $4, $5, $7}' "$1"; }

# have_mpi: true where mpirun exists and $BOXBFS runs --exchange mpi in one
# process; then it exports what root needs to run mpirun in containers and CI
# and sets MPIRUN. Otherwise mpi_why says why ("mpirun not found", "built
# without MPI", or the error of the one-process run).
have_mpi() {
    command -v mpirun >/dev/null 2>&1 || { mpi_why="mpirun not found"; return 1; }
    if ! "$BOXBFS" bfs kron:4 --backend cpu --exchange mpi --roots 1 >/dev/null 2>"$tmp/mpi_probe"; then
        mpi_why="--exchange mpi on one process failed: $(cat "$tmp/mpi_probe")"
        grep -q 'not built in' "$tmp/mpi_probe" && mpi_why="built without MPI"
        return 1
    fi
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
    MPIRUN="mpirun --oversubscribe"
}

# need_mpi: have_mpi, or exit: 77 (skip) where MPI is absent, 1 where it is
# built in and fails.
need_mpi() {
    have_mpi && return 0
    case "$mpi_why" in
        "mpirun not found" | "built without MPI") echo "$mpi_why: skipped"; exit 77 ;;
    esac
    echo "FAIL $mpi_why"; exit 1
}

# need_gpu: a tiny search on the cuda backend, or exit: 77 (skip) where it
# says there is no GPU or the backend is not built in, 1 where it fails
# otherwise (a broken backend is a failure, not a skip).
need_gpu() {
    "$BOXBFS" bfs kron:4 --backend cuda --devices 1 --roots 1 >/dev/null 2>"$tmp/gpu_probe" && return 0
    if grep -q -i -e "no GPU" -e "not built in" "$tmp/gpu_probe"; then
        echo "SKIP: $(grep -i -m 1 -e 'no GPU' -e 'not built in' "$tmp/gpu_probe")"; exit 77
    fi
    echo "FAIL the probe search on the cuda backend: $(cat "$tmp/gpu_probe")"; exit 1
}

# visible_gpus: how many GPUs the cuda backend sees (CUDA_VISIBLE_DEVICES
# respected, where nvidia-smi lists every GPU of the host); 0 without any.
visible_gpus() {
    "$BOXBFS" topo --backend cuda --json "$tmp/visible.json" >/dev/null 2>&1 || { echo 0; return; }
    grep -o '"pci_bus_id"' "$tmp/visible.json" | wc -l
}

# Cases that run at once: case_add NAME numbers the next case ($case_i) and
# remembers its name; the caller starts it in the background, its files named
# after $case_i. cases_check FN waits for every case, then calls FN I NAME for
# each in the order they were added (the checks' lines in a fixed order).
case_i=0 case_names=""
case_add() { case_i=$((case_i + 1)); case_names="$case_names$case_i:$1|"; }
cases_check() {
    wait
    IFS='|'
    for case_entry in $case_names; do
        unset IFS
        [ -n "$case_entry" ] && "$1" "${case_entry%%:*}" "${case_entry#*:}"
        IFS='|'
    done
    unset IFS
    case_names=""
}

# pair_runs I DEVICES GRAPH A "A_OPTIONS" B "B_OPTIONS" OPTIONS...: case I's
# two bfs runs on $backend, 3 roots, OPTIONS then each one's own, one after
# the other in the background: each writes $tmp/I.LABEL.json, .out and .txt,
# both their errors $tmp/I.err, and $tmp/I.rc gets the exit status.
pair_runs() {
    i=$1 devs=$2 graph=$3 a=$4 a_opts=$5 b=$6 b_opts=$7
    shift 7
    # shellcheck disable=SC2086 # DEVICES and each one's options: words on purpose
    ( for run in "$a|$a_opts" "$b|$b_opts"; do
          label=${run%%|*}
          "$BOXBFS" bfs "$graph" --backend "$backend" $devs --roots 3 "$@" ${run#*|} \
              --json "$tmp/$i.$label.json" --output "$tmp/$i.$label.out" \
              >"$tmp/$i.$label.txt" 2>>"$tmp/$i.err" || { echo $? >"$tmp/$i.rc"; exit; }
      done
      echo 0 >"$tmp/$i.rc" ) &
}

# pair NAME ARGS...: case_add NAME, then the test's pair_start $case_i ARGS
# (a case of two runs to compare, started in the background).
pair() {
    case_add "$1"
    shift
    pair_start "$case_i" "$@"
}

# device_sets BACKEND: the device sets such comparisons run on, '|' between
# them: 1, 2 and 3 devices on the cpu backend; on cuda one GPU, two logical
# devices of GPU 0, and two GPUs where there are.
device_sets() {
    if [ "$1" = cuda ]; then
        if [ "$(visible_gpus)" -ge 2 ]; then echo "--devices 1|--device-ids 0,0|--devices 2"
        else echo "--devices 1|--device-ids 0,0"; fi
    else
        echo "--devices 1|--devices 2|--devices 3"
    fi
}

# grid_mtx N FILE: an N x N grid as Matrix Market (undirected), a road
# network's shape: about 2N levels from a corner, every one small.
grid_mtx() {
    awk -v n="$1" 'BEGIN { m = 0
        for (i = 0; i < n; i++) for (j = 0; j < n; j++) { if (j + 1 < n) m++; if (i + 1 < n) m++ }
        print "%%MatrixMarket matrix coordinate pattern symmetric"; print n * n, n * n, m
        for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
            v = i * n + j + 1; if (j + 1 < n) print v + 1, v; if (i + 1 < n) print v + n, v } }' >"$2"
}
