# Sourced by every script in benchmarks/: finds the tree, names the commit,
# sets what GPU machines need, builds boxbfs once, converts each graph once
# and runs benchmark points under a deadline. Set NAME before sourcing.
#
# Environment: OUT (output folder), BACKEND (cuda), BOXBFS (a boxbfs binary:
# no build), BUILD (build folder: build-gpu for cuda, build-bench for cpu),
# GRAPH_CACHE (converted graphs: BUILD/graphs), DEADLINE_S (540: no point
# starts later, so that results come back inside a 10-minute limit),
# BB_COMMIT (the commit, for a tree that arrives without .git).
#
# After sourcing:
#   $top, $OUT, $J (= $OUT/json: one JSON and one log per point), $BACKEND
#   bb_say TEXT...           a line to stdout and $OUT/summary.txt
#   bb_late [MARGIN]         true once DEADLINE_S - MARGIN seconds have passed
#   bb_build                 sets B, the boxbfs binary (BOXBFS, or built in BUILD)
#   bb_graph SPEC            prints the .bbcsr file of SPEC (kron:S, .mtx[.gz],
#                            SNAP, .bbcsr), written once per cache by boxbfs gen
#   bb_gpus                  prints how many GPUs nvidia-smi sees (0 without one), or
#                            as many as CUDA_VISIBLE_DEVICES names where it is set
#   bb_point NAME TIMEOUT CMD...   one point: CMD --json $J/NAME.json, its log
#                            $J/NAME.log; a line with its exit status and figures
#   bb_summarize [ARGS...]   benchmarks/summarize over $J into $OUT/summary.md
#                            and $OUT/summary.json (extra ARGS passed on)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
BACKEND=${BACKEND:-cuda}
OUT=${OUT:-$top/bench-out}
J=$OUT/json
mkdir -p "$J" || exit 1
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on shared GPU machines
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # GPU machines run as root
BB_COMMIT=${BB_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
export BB_COMMIT
if [ "$BACKEND" = cuda ]; then BUILD=${BUILD:-$top/build-gpu}; else BUILD=${BUILD:-$top/build-bench}; fi
GRAPH_CACHE=${GRAPH_CACHE:-$BUILD/graphs}
bb_t0=$(date +%s)
bb_summary=$OUT/summary.txt
: >"$bb_summary"

bb_say() { echo "$*" | tee -a "$bb_summary"; }
bb_late() { [ $(($(date +%s) - bb_t0)) -ge $((${DEADLINE_S:-540} - ${1:-0})) ]; }
bb_elapsed() { echo $(($(date +%s) - bb_t0)); }

bb_gpus() {
    command -v nvidia-smi >/dev/null 2>&1 || { echo 0; return; }
    if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then   # a subset: as many as it names
        echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c '[^ ]'
        return
    fi
    nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c .
}

bb_say "# ${NAME:-benchmark} $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT backend $BACKEND"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader 2>&1 |
        sed 's/^/# gpu: /' | tee -a "$bb_summary"
fi

bb_build() {
    if [ -n "${BOXBFS:-}" ]; then
        B=$BOXBFS
        [ -x "$B" ] || { bb_say "BOXBFS=$B is not an executable"; exit 1; }
        return
    fi
    bb_t=$(date +%s)
    # GPU machines may have no libtool: there the tree comes with the outputs of
    # autoreconf (configure, Makefile.in, aclocal.m4, config.h.in, build-aux,
    # m4), touched in make's order so that nothing regenerates
    ( if command -v libtoolize >/dev/null 2>&1 || [ ! -x configure ]; then autoreconf -fi
      else touch aclocal.m4 && sleep 1 && touch configure config.h.in Makefile.in; fi ) \
        >"$OUT/build.log" 2>&1
    if [ "$BACKEND" = cuda ]; then
        conf="--with-cuda --with-cuda-arch=${CUDA_ARCH:-sm_90}"
        command -v mpicc >/dev/null 2>&1 && conf="$conf --with-mpi"   # NCCL across processes
    else
        conf=--without-cuda
    fi
    mkdir -p "$BUILD" &&
        ( cd "$BUILD" && { grep -q "BB_COMMIT \"$BB_COMMIT\"" config.h 2>/dev/null ||
                           "$top/configure" $conf; } && make -j"$(nproc)" ) \
            >>"$OUT/build.log" 2>&1
    bb_say "build ($conf): rc=$? ($(($(date +%s) - bb_t)) s)"
    B=$BUILD/src/boxbfs
    [ -x "$B" ] || { tail -40 "$OUT/build.log"; exit 1; }
}

# kron:24 -> kron-24, data/USA-road-FLA.mtx.gz -> USA-road-FLA
bb_graph_name() {
    basename "$1" | sed 's/[.]gz$//; s/[.]mtx$//; s/[.]txt$//; s/[.]bbcsr$//; s/:/-/g'
}

bb_graph() {
    case $1 in *.bbcsr) echo "$1"; return 0 ;; esac
    bb_f=$GRAPH_CACHE/$(bb_graph_name "$1").bbcsr
    if [ ! -f "$bb_f" ]; then
        case $1 in kron:*) ;; *) [ -f "$1" ] || { bb_say "graph $1: no such file" >&2; return 1; } ;; esac
        mkdir -p "$GRAPH_CACHE"
        bb_t=$(date +%s)
        "$B" gen "$1" "$bb_f.tmp.bbcsr" >"$J/gen-$(bb_graph_name "$1").log" 2>&1 && mv "$bb_f.tmp.bbcsr" "$bb_f"
        bb_say "convert $1: rc=$? ($(($(date +%s) - bb_t)) s)" >&2
        [ -f "$bb_f" ] || return 1
    fi
    echo "$bb_f"
}

bb_point() {
    bb_n=$1 bb_to=$2
    shift 2
    if bb_late; then bb_say "$bb_n: not started (DEADLINE_S)"; return 0; fi
    bb_t=$(date +%s)
    # no point runs past the deadline by more than 45 s
    bb_left=$((${DEADLINE_S:-540} + 45 - (bb_t - bb_t0)))
    [ "$bb_to" -gt "$bb_left" ] && bb_to=$bb_left
    timeout "$bb_to" "$@" --json "$J/$bb_n.json" >"$J/$bb_n.log" 2>&1
    bb_rc=$?
    bb_line=$(python3 - "$J/$bb_n.json" 2>/dev/null <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
if d["command"] == "bfs":
    print("%.2f GTEPS, median %.3f ms, validation %s" % (
        d["teps"]["harmonic_mean"] / 1e9, d["time_s"]["median"] * 1e3, d["validation"]))
elif d["command"] == "msbfs":
    print("%.1f GTEPS aggregate, %.4f s, validation %s" % (
        d["teps"]["graph500"] / 1e9, d["total_time_s"], d["validation"]["result"]))
else:
    print("%.3f ms per source, %.2f GTEPS, check %s" % (
        d["time_per_source_s"] * 1e3, d["harmonic_mean_TEPS"] / 1e9, d["check"]))
EOF
)
    [ $bb_rc -eq 0 ] || bb_line="$bb_line $(grep -h 'boxbfs:.*\(error\|rror\)' "$J/$bb_n.log" | head -2 | tr '\n' ' ')"
    [ $bb_rc -eq 124 ] && bb_line="$bb_line (timed out after $bb_to s)"
    bb_say "$bb_n: rc=$bb_rc ($(($(date +%s) - bb_t)) s) $bb_line"
    return $bb_rc
}

bb_summarize() {
    python3 "$top/benchmarks/summarize" --out "$OUT" --name summary "$@" "$J" | tee -a "$bb_summary"
}
