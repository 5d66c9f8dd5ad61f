#!/bin/sh
# Issue #16 part 4 (README "Memory plan") on one GPU, in one call: the lean
# branch (this tree, BB_COMMIT) built for sm_90, then tests/test_gpu_engine
# and tests/gpu_cli.sh in the background while main (BASE_COMMIT, its tree in
# ../base) builds and, with several engine devices on GPU 0 (--device-ids 0,0
# and 0,0,0,0: peer copies become copies within the GPU), the cpu and cuda
# backends are compared (tests/same_traffic.py, and the levels) for atomic
# and valid-flag x top-down and auto x wire auto and list x parents keep and
# recompute on kron:14, and compute-sanitizer memcheck runs on two engine
# devices; then, with the GPU alone, the one-device speed of both trees on
# kron:24 (boxbfs gen once to a .bbcsr, 16 roots, atomic, bit visited,
# top-down and auto, base and new interleaved twice); last, kron:22 on two
# engine devices, auto and top-down, with the parents kept and recomputed
# (gather time).
#   cd .carry/lean && BB_COMMIT=... BASE_COMMIT=a55bc46 sh tools/results/lean-memory/call.sh
set -u
export NCCL_NVLS_ENABLE=0 BB_COMMIT BASE_COMMIT
T0=$(date +%s)
F=$OUT/final.txt
say() { echo "$*" | tee -a "$F"; }
el() { echo $(($(date +%s) - T0)); }
say "# lean-memory call $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT base $BASE_COMMIT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 |
    sed 's/^/# gpu: /' | tee -a "$F"
say "# host: $(nproc) cores"

# 1. this tree
STAGES=build timeout 150 tools/gpu-check "$OUT/g" >/dev/null 2>&1
say "new ($BB_COMMIT) build rc=$? ($(el) s)"
# 2. the GPU tests in the background, while the base builds and the comparisons and
# memcheck run
( STAGES=check CHECK_TESTS="tests/test_gpu_engine tests/gpu_cli.sh" DEADLINE_S=600 \
      timeout 280 tools/gpu-check "$OUT/gc" >/dev/null 2>&1; echo "rc=$?" >"$OUT/gc.rc" ) &
checker=$!

# 3. main's tree
( cd ../base && BB_COMMIT=$BASE_COMMIT STAGES=build timeout 150 tools/gpu-check "$OUT/gb" ) >/dev/null 2>&1
say "base ($BASE_COMMIT) build rc=$? ($(el) s)"
NEW=$PWD/build-gpu/src/boxbfs
BASE=$PWD/../base/build-gpu/src/boxbfs

# 4. cpu vs cuda on kron:14, 2 and 4 engine devices on GPU 0
C=$OUT/c; mkdir -p "$C"
ok=0 bad=0
for ids in 0,0 0,0,0,0; do
    p=$(echo $ids | tr ',' '\n' | wc -l)
    for m in atomic valid-flag; do for dir in top-down auto; do for w in auto list; do
        for par in keep recompute; do
            name=p${p}_${m}_${dir}_${w}_${par}
            opts="kron:14 --roots 4 --contract $m --direction $dir --wire $w --parents $par"
            # shellcheck disable=SC2086
            $NEW bfs $opts --backend cpu --devices $p --json "$C/$name.cpu.json" \
                --output "$C/$name.cpu.out" >/dev/null 2>"$C/$name.cpu.err"
            # shellcheck disable=SC2086
            $NEW bfs $opts --backend cuda --device-ids $ids --json "$C/$name.cuda.json" \
                --output "$C/$name.cuda.out" >/dev/null 2>"$C/$name.cuda.err"
            rc=$?
            awk '{print $1, $2}' "$C/$name.cpu.out" >"$C/l1" 2>/dev/null
            awk '{print $1, $2}' "$C/$name.cuda.out" >"$C/l2" 2>/dev/null
            if [ $rc -eq 0 ] && python3 tests/same_traffic.py "$C/$name.cpu.json" "$C/$name.cuda.json" peer \
                    >"$C/$name.cmp" 2>&1 && cmp -s "$C/l1" "$C/l2"; then
                ok=$((ok + 1)); echo "ok   $name" >>"$OUT/compare.txt"
            else
                bad=$((bad + 1)); say "FAIL $name (cuda rc=$rc)"; tail -3 "$C/$name.cmp" "$C/$name.cuda.err" >>"$F"
            fi
            python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(sys.argv[2], [d["parents"] for d in j["devices"]], [d["memory_bytes"] for d in j["devices"]], j["runs"][0]["gather_s"])' \
                "$C/$name.cuda.json" "$name" >>"$OUT/compare.txt" 2>&1
        done
    done; done; done
done
say "cpu vs cuda (kron:14, 4 roots, same traffic and levels): $ok ok, $bad failed ($(el) s)"

# 5. memcheck, two engine devices on GPU 0
for opts in "--contract atomic --wire auto --parents recompute" \
            "--contract atomic --wire auto --parents recompute --direction top-down --visited bit" \
            "--contract atomic --wire list --parents keep" \
            "--contract valid-flag --wire auto --parents recompute"; do
    # shellcheck disable=SC2086
    timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 \
        "$NEW" bfs kron:12 --backend cuda --device-ids 0,0 --roots 2 $opts >>"$OUT/sanitize.log" 2>&1
    say "memcheck $opts: rc=$? ($(el) s)"
done
tail -3 "$OUT/sanitize.log" >>"$F"

wait $checker
say "gpu tests: $(cat "$OUT/gc.rc") ($(el) s)"; cat "$OUT/gc/summary.txt" >>"$F" 2>/dev/null

# 6. one device, the GPU alone: base and new, twice
mkdir -p "$OUT/b"
for pass in 1 2; do
    for tree in base new; do
        b=$NEW; [ $tree = base ] && b=$BASE
        BOXBFS=$b CACHE=/tmp/bb-cache GRAPHS=kron:24 ROOTS=16 DEADLINE_AT=$((T0 + 480)) \
            COMMON="--backend cuda --devices 1 --contract atomic --visited bit" \
            VARIANTS="td:--direction top-down|auto:--direction auto" \
            tools/bench-engine "$OUT/b/$tree-$pass" >"$OUT/b/$tree-$pass.log" 2>&1
        say "== $tree pass $pass ($(el) s)"; tail -n +2 "$OUT/b/$tree-$pass/engine.txt" >>"$F" 2>/dev/null
    done
done

# 7. kron:22 on 2 engine devices: the parents kept and recomputed (gather time)
if [ "$(el)" -lt 480 ]; then
    for dir in auto top-down; do for m in atomic valid-flag; do for par in keep recompute; do
        j=$OUT/b/k22_2dev_${m}_${dir}_$par.json
        timeout 60 $NEW bfs kron:22 --backend cuda --device-ids 0,0 --contract $m --wire auto \
            --visited bit --direction $dir --parents $par --roots 8 --json "$j" >/dev/null 2>&1
        say "kron:22 2 engine devices $m $dir parents $par: rc=$? $(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("GTEPS %.2f median_ms %.3f gather_ms %.3f memory %s %s" % (j["teps"]["harmonic_mean"]/1e9, j["time_s"]["median"]*1e3, sorted(r["gather_s"] for r in j["runs"])[len(j["runs"])//2]*1e3, [d["memory_bytes"] for d in j["devices"]], j["validation"]))' "$j" 2>&1)"
    done; done; done
fi
(cd "$OUT" && rm -f c/*.out c/l1 c/l2 && tar czf bench.tar.gz b && rm -rf b && tar czf compare.tar.gz c && rm -rf c &&
 tar czf gpu-check.tar.gz g gb gc && rm -rf g gb gc)
say "done ($(el) s)"
