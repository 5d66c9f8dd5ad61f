#!/bin/sh
# grid2d's device run: the prebuilt CLI (sm_90), else a build here; the GPU test; 1 GPU timings
cd "$(dirname "$0")"
B=$PWD/bin/boxbfs
nvidia-smi -L > "$OUT/smi.txt" 2>&1
if ! "$B" --help >/dev/null 2>&1; then
    echo "prebuilt binary does not run here: building" >> "$OUT/log.txt"
    (autoreconf -fi && mkdir -p build-gpu && cd build-gpu && ../configure --with-cuda --with-cuda-arch=sm_90 -q && make -j16 src/boxbfs) >> "$OUT/build.txt" 2>&1
    B=$PWD/build-gpu/src/boxbfs
fi
"$B" --help > /dev/null 2>&1; echo "binary rc=$?" >> "$OUT/log.txt"
BOXBFS=$B timeout 150 sh tests/gpu_grid2d.sh > "$OUT/gpu_grid2d.log" 2>&1; echo "gpu_grid2d rc=$?" >> "$OUT/log.txt"
"$B" convert kron:22 /tmp/k22.bbcsr > /dev/null 2>&1
for p in 1d 2d; do
    timeout 100 "$B" bfs /tmp/k22.bbcsr --backend cuda --devices 1 --partition $p --direction top-down \
        --roots 16 --json "$OUT/kron22_1gpu_$p.json" > "$OUT/kron22_1gpu_$p.txt" 2>&1
    echo "kron22 $p rc=$?" >> "$OUT/log.txt"
done
