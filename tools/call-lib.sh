# Sourced by the scripts of device calls (tools/results/*/callN.sh): what
# every call repeats. Set NAME (the call's name) first; BB_COMMIT and OUT
# come from the environment.
#   say TEXT...              a line to stdout and $OUT/final.txt
#   late [MARGIN]            true once BUDGET_S (545) - MARGIN seconds have passed
#   build                    tools/gpu-check's build stage; B = the binary
#   tests NAME...            tools/gpu-check's check stage on tests/NAME, a line each
#   point NAME TIMEOUT CMD.. one benchmark point, its JSON and log in $J
#   finish                   the points' JSON into json.tar.gz
set -u
export NCCL_NVLS_ENABLE=0
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
mkdir -p "$J"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-545} - ${1:-0})) ]; }
say "# $NAME $(date -u +%Y-%m-%dT%H:%M:%SZ) commit ${BB_COMMIT:-unknown}"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"

build() {
    STAGES=build tools/gpu-check "$OUT/g" >/dev/null 2>&1
    say "build: rc=$? ($(($(date +%s) - T0)) s)"
    B=$PWD/build-gpu/src/boxbfs
    [ -x "$B" ] || { tail -40 "$OUT/g/build.log"; exit 1; }
}

tests() {
    t=$(date +%s)
    STAGES=check CHECK_TESTS="$(for x in "$@"; do printf 'tests/%s ' "$x"; done)" \
        timeout -s KILL "${TESTS_TIMEOUT:-300}" tools/gpu-check "$OUT/g" >/dev/null 2>&1   # KILL: make keeps the logs
    for x in "$@"; do
        say "test $x: $(sed -n 's/^:test-result: //p' "build-gpu/tests/$x.trs" 2>/dev/null | head -1)"
    done
    cp build-gpu/tests/*.log "$OUT/g/" 2>/dev/null
    say "tests: ($(($(date +%s) - t)) s)"
}

point() {
    name=$1 to=$2
    shift 2
    if late 35; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    BOXBFS_LOG=info timeout "$to" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'ranked\|harmonic_mean_TEPS:\|median_time_s\|^validation\|rror' "$J/$name.log" | sed 's/.*rows ranked/ranked/' | head -6 | tr -s ' \n' ' ')"
}

finish() {
    (cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
    say "done ($(($(date +%s) - T0)) s)"
}
