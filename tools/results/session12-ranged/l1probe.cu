/* What keeps L1 from holding a window of Visited bits (session 12, PERF-NOTES
 * "Session 12")? The probe pattern of a top-down level without the engine:
 * a stream of heads (4 bytes each, read once, evict-first as the engine's
 * columns) and one probe of a 2^24-bit bitmap per head; a probe that finds
 * its bit clear sets it with atomicOr (a "winner", as in the engine).
 *
 *   order:   random (heads uniform over all 2^24 vertices) or windowed (the
 *            i-th head drawn from range i / (M / S) of S = 64 ranges of 2^18
 *            vertices: 32 KiB of bits, the head-range order of session 12)
 *   clear:   the fraction of bits clear at the start (L3 of kron:24: ~2 %
 *            of its probes win)
 *   atomics: 1 winners set their bit with atomicOr, 0 probe only
 *   side:    1 each lane also loads a random 8-byte word of a 128 MB array
 *            per head (the producer's other cached loads: offsets, scan)
 *
 * nvcc -O3 -arch=sm_90 -std=c++17 l1probe.cu -o l1probe; ./l1probe prints one
 * line per case: ms (median of 5 after a warm-up) and G probes/s. Run it
 * under ncu for the L1 hit rate (l1tex__t_sector_hit_rate.pct). */
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <algorithm>
#include <vector>

#define CK(x)                                                                      \
    do {                                                                           \
        cudaError_t e_ = (x);                                                      \
        if (e_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));        \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

constexpr uint32_t kLogN = 24, kLogR = 18, kS = 1u << (kLogN - kLogR);
constexpr uint64_t kM = 1ull << 28;          /* heads: about L3's 396 M arcs */
constexpr uint64_t kSide = 1ull << 24;       /* 8-byte words of the side array */

__device__ __host__ inline uint32_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (uint32_t)x;
}

__global__ void make_heads(uint32_t *heads, int windowed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < kM;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t h = mix(i + 12345);
        heads[i] = windowed ? (uint32_t)(i / (kM / kS)) << kLogR | (h & ((1u << kLogR) - 1))
                            : h & ((1u << kLogN) - 1);
    }
}

__global__ void make_bits(uint32_t *bits, uint32_t clear_per_1024)
{
    for (uint32_t w = blockIdx.x * blockDim.x + threadIdx.x; w < (1u << kLogN) / 32;
         w += gridDim.x * blockDim.x) {
        uint32_t x = 0;
        for (int b = 0; b < 32; b++)
            if ((mix(((uint64_t)w << 5) + b + 777) & 1023) >= clear_per_1024) x |= 1u << b;
        bits[w] = x;
    }
}

/* K heads per lane, lane-adjacent loads (the engine's transposed columns). */
template <int K>
__global__ void __launch_bounds__(256, 4)
    probe(const uint32_t *heads, uint32_t *bits, const uint64_t *side, int atomics,
          unsigned long long *wins, unsigned long long *sink)
{
    unsigned long long won = 0, acc = 0;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x * K;
    for (uint64_t base = ((uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * K; base < kM;
         base += stride) {
        uint32_t v[K];
#pragma unroll
        for (int j = 0; j < K; j++) v[j] = __ldcs(heads + base + 32 * j + (threadIdx.x & 31));
        if (side) {
#pragma unroll
            for (int j = 0; j < K; j++) acc += side[mix(v[j]) & (kSide - 1)];
        }
        bool clear[K];
#pragma unroll
        for (int j = 0; j < K; j++) clear[j] = !((bits[v[j] >> 5] >> (v[j] & 31)) & 1u);
#pragma unroll
        for (int j = 0; j < K; j++)
            if (clear[j] && atomics) {
                const uint32_t m = 1u << (v[j] & 31);
                won += !(atomicOr(bits + (v[j] >> 5), m) & m);
            } else if (clear[j]) {
                won++;
            }
    }
    if (won) atomicAdd(wins, won);
    if (acc == 12345) atomicAdd(sink, acc);   /* keeps the side loads */
}

int main()
{
    uint32_t *heads, *bits;
    uint64_t *side;
    unsigned long long *ctr;
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaMalloc(&heads, kM * 4));
    CK(cudaMalloc(&bits, (1u << kLogN) / 8));
    CK(cudaMalloc(&side, kSide * 8));
    CK(cudaMemset(side, 0, kSide * 8));
    CK(cudaMalloc(&ctr, 16));
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    printf("# %llu heads, 2^%u bits, %u ranges of 2^%u; K = 8, %d SMs x 4 blocks of 256\n",
           (unsigned long long)kM, kLogN, kS, kLogR, sms);
    printf("%-9s %6s %7s %5s %9s %9s %12s\n", "order", "clear%", "atomics", "side", "ms",
           "Gprobe/s", "winners");
    for (int windowed = 0; windowed <= 1; windowed++) {
        make_heads<<<sms * 8, 256>>>(heads, windowed);
        CK(cudaGetLastError());
        const uint32_t clears[] = {0, 20, 200};   /* per 1024: 0, ~2, ~20 % */
        for (uint32_t clear : clears)
            for (int atomics = 0; atomics <= 1; atomics++)
                for (int use_side = 0; use_side <= 1; use_side++) {
                    if (clear == 0 && atomics) continue;   /* nothing to set */
                    std::vector<float> ms;
                    unsigned long long wins = 0;
                    for (int r = 0; r < 6; r++) {
                        make_bits<<<sms * 8, 256>>>(bits, clear);
                        CK(cudaMemset(ctr, 0, 16));
                        CK(cudaEventRecord(t0));
                        probe<8><<<sms * 4, 256>>>(heads, bits, use_side ? side : nullptr,
                                                   atomics, ctr, ctr + 1);
                        CK(cudaEventRecord(t1));
                        CK(cudaEventSynchronize(t1));
                        CK(cudaGetLastError());
                        float t;
                        CK(cudaEventElapsedTime(&t, t0, t1));
                        if (r) ms.push_back(t);
                        CK(cudaMemcpy(&wins, ctr, 8, cudaMemcpyDeviceToHost));
                    }
                    std::sort(ms.begin(), ms.end());
                    const float med = ms[ms.size() / 2];
                    printf("%-9s %6.1f %7d %5d %9.3f %9.1f %12llu\n",
                           windowed ? "windowed" : "random", clear * 100.0 / 1024, atomics,
                           use_side, med, kM / (med * 1e-3) / 1e9, wins);
                }
    }
    return 0;
}
