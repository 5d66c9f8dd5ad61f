#!/bin/sh
# Session 9, third call: the binsearch expand's L1 with --relabel degree:
# a warp stage of 256 ids (25 KB of shared memory per block instead of 33:
# four blocks per SM leave 124 KB of L1 instead of 92) and/or the column
# loads evict-first (ld.global.cs), built as variants of one tree
# (BB_EXPAND_STAGE, BB_EXPAND_COLS_STREAM), and both with the Visited probes
# kept in L1 (ld.global.L1::evict_last, BB_PROBE_EVICT_LAST). kron:24, 16 roots, same roots.
#   export BB_COMMIT=...; sh tools/results/session9-relabel/call3.sh
set -u
T0=$(date +%s)
F=$OUT/final.txt
J=$OUT/j
G=/tmp/bbg
mkdir -p "$J" "$G"
say() { echo "$*" | tee -a "$F"; }
late() { [ $(($(date +%s) - T0)) -ge $((${BUDGET_S:-550} - ${1:-0})) ]; }
say "# session9-relabel call3 $(date -u +%Y-%m-%dT%H:%M:%SZ) commit $BB_COMMIT"
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/# gpu: /' | tee -a "$F"
touch aclocal.m4 && sleep 1 && touch configure config.h.in Makefile.in
NV="-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -Xcompiler -Wall,-Wextra,-fPIC"
variant() {   # NAME NVCC-DEFINES
    mkdir -p "build-$1" && (cd "build-$1" && ../configure --with-cuda --with-cuda-arch=sm_90 &&
        make -j8 NVCCFLAGS="$NV $2") >"$OUT/build-$1.log" 2>&1
}
variant base "" & variant s256 "-DBB_EXPAND_STAGE=256" & wait
variant cs "-DBB_EXPAND_COLS_STREAM=1" & variant both "-DBB_EXPAND_STAGE=256 -DBB_EXPAND_COLS_STREAM=1" & wait
variant el "-DBB_EXPAND_STAGE=256 -DBB_EXPAND_COLS_STREAM=1 -DBB_PROBE_EVICT_LAST=1" & wait
say "builds: ($(($(date +%s) - T0)) s) $(ls build-*/src/.libs/boxbfs | tr '\n' ' ')"
build-base/src/boxbfs gen kron:24 "$G/k24.bbcsr" >"$J/gen24.log" 2>&1
say "gen kron:24: ($(($(date +%s) - T0)) s)"
pt() {   # NAME VARIANT OPTIONS...
    name=$1 v=$2; shift 2
    if late 30; then say "$name: not started (budget)"; return; fi
    t=$(date +%s)
    timeout 90 "build-$v/src/boxbfs" bfs "$G/k24.bbcsr" "$@" --json "$J/$name.json" >"$J/$name.log" 2>&1
    say "$name: rc=$? ($(($(date +%s) - t)) s) $(grep -h 'harmonic_mean_TEPS:\|median_TEPS\|validation\|rror' "$J/$name.log" | head -4 | tr -s ' \n' ' ')"
    python3 - "$J/$name.json" <<'PY' | tee -a "$F"
import json, sys
j = json.load(open(sys.argv[1]))
print("   levels:", " ".join("L%d %s %d %.0fus" % (i, l["direction"][:2], l["frontier"], l["time_s"] * 1e6)
                           for i, l in enumerate(j["traffic"]["levels"]) if l["time_s"] > 20e-6))
PY
}
C="--backend cuda --devices 1 --contract atomic --visited bit --roots 16 --relabel degree"
for round in 1 2; do
    for v in base s256 cs both el; do pt td-$v-$round $v $C --direction top-down; done
done
for v in base both el; do pt auto-$v $v $C; done
pt td-plain-base base --backend cuda --devices 1 --contract atomic --visited bit --roots 16 --direction top-down
pt td-plain-both both --backend cuda --devices 1 --contract atomic --visited bit --roots 16 --direction top-down
(cd "$OUT" && tar czf json.tar.gz j && rm -rf j)
say "done ($(($(date +%s) - T0)) s)"
