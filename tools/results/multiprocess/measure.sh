#!/bin/sh
# Wall time of one process with --devices 2 against mpirun -np 2 --exchange mpi
# (cpu backend), for a kron: spec generated in place and the same graph as a
# .bbcsr file; the fastest of REPS runs each. Usage: measure.sh BOXBFS SCALE OUT.csv [LABEL]
set -u
B=$1 S=$2 OUT=$3 LABEL=${4:-new}
REPS=${REPS:-2}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
F=/tmp/k$S.bbcsr
[ -s $F ] || $B gen kron:$S $F >/dev/null 2>&1
[ -s "$OUT" ] || echo "binary,scale,input,mode,best_wall_s,runs_s" >"$OUT"
best() {   # command...: the fastest wall time of REPS runs
    all="" b=""
    for i in $(seq $REPS); do
        t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2; t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc); all="$all $t"
        if [ -z "$b" ] || [ $(echo "$t < $b" | bc) -eq 1 ]; then b=$t; fi
    done
    echo "$b,$(echo $all | tr ' ' ';')"
}
for input in kron:$S $F; do
    name=$(basename $input)
    echo "$LABEL,$S,$name,one process --devices 2,$(best $B bfs $input --backend cpu --devices 2 --roots 8)" >>"$OUT"
    echo "$LABEL,$S,$name,mpirun -np 2 --exchange mpi,$(best mpirun --oversubscribe -np 2 $B bfs $input --backend cpu --exchange mpi --roots 8)" >>"$OUT"
done
