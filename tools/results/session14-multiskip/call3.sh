#!/bin/sh
# Session 14, call 3: the skip under mpirun (one device per rank) and the
# final code. gpu_nccl.sh (NCCL in one process and under mpirun, the same
# traffic as peer copies), gpu_logical.sh, gpu_search.sh, test_gpu_engine;
# memcheck of kron:14 auto on two logical devices and of mpirun -np 1 NCCL;
# kron:22 (16 roots) under mpirun -np 1 --exchange nccl with and without
# the skip.
#   export BB_COMMIT=$(git rev-parse --short=12 HEAD); sh tools/results/session14-multiskip/call3.sh
NAME="session14-multiskip call3"
. tools/call-lib.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
build
C="--backend cuda --contract atomic --visited bit"
timeout 120 build-gpu/libtool --mode=execute compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$B" bfs kron:14 $C --device-ids 0,0 --roots 2 >"$OUT/memcheck-k14-auto-00.log" 2>&1
say "memcheck k14-auto-00: rc=$? $(grep -h 'ERROR SUMMARY\|^validation' "$OUT/memcheck-k14-auto-00.log" | tr -s ' \n' ' ')"
BOXBFS_LOG=info timeout 120 mpirun -np 1 --bind-to none build-gpu/libtool --mode=execute \
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B" bfs kron:14 $C --exchange nccl \
    --direction top-down --roots 2 >"$OUT/memcheck-k14-mpirun-nccl.log" 2>&1
say "memcheck k14-mpirun-nccl: rc=$? $(grep -h 'ERROR SUMMARY\|^validation\|ranked' "$OUT/memcheck-k14-mpirun-nccl.log" | sed 's/.*rows ranked/ranked/' | tr -s ' \n' ' ')"
tests gpu_nccl.sh gpu_logical.sh gpu_search.sh test_gpu_engine
for s in 1 0; do
    export BOXBFS_PREFIX_SKIP=$s
    point k22-mpirun-nccl-td-skip$s 90 mpirun -np 1 --bind-to none "$B" bfs kron:22 $C \
        --exchange nccl --direction top-down --roots 16
done
finish
