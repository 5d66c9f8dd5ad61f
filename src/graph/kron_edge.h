/* The Graph500 Kronecker generator's edge k (kron.c), as a function of the
 * seed and k alone: the host's generator and the devices' builder
 * (kernels/cuda/kron_rows.cu, kernels/cpu/kron_rows.c) make the same edges
 * from it. Plain C, and host and device code where nvcc compiles it. */
#ifndef BB_KRON_EDGE_H
#define BB_KRON_EDGE_H

#include <stdint.h>

#ifdef __CUDACC__
#define BB_KRON_HD __host__ __device__
#else
#define BB_KRON_HD
#endif

#define BB_KRON_SCRAMBLE_ROUNDS 3

/* The keys of one generator (bb_kron_keys): the quadrant choices' key and
 * the scramble's, all from the seed through the splitmix64 sequence. */
typedef struct {
    int scale;
    uint64_t mask;                                /* 2^scale - 1 */
    uint64_t edge_key;                            /* RNG key of the quadrant choices */
    uint64_t add[BB_KRON_SCRAMBLE_ROUNDS];        /* scramble keys */
    uint64_t mul[BB_KRON_SCRAMBLE_ROUNDS];        /* odd */
    int shift;                                    /* xorshift distance, 1 <= shift <= scale */
} bb_kron_keys_t;

/* splitmix64's output function: a bijective 64-bit mixer. Evaluated at
 * key + counter * gamma it is the counter-based generator splitmix64 itself. */
static inline BB_KRON_HD uint64_t bb_kron_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#define BB_KRON_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* Quadrant thresholds on 32-bit uniforms, exact integer fractions so that no
 * floating point enters the output. Per bit, as the spec's Octave code:
 *   ii = rand > A+B;  jj = rand > (ii ? C/(C+D) : A/(A+B)).
 * P(ii=0,jj=0) = 0.76 * 57/76 = 0.57 (A), P(0,1) = 0.19 (B), P(1,0) = 0.24 *
 * 19/24 = 0.19 (C), P(1,1) = 0.05 (D). */
#define BB_KRON_T_AB ((uint32_t)((UINT64_C(76) << 32) / 100))   /* A+B     */
#define BB_KRON_T_A_NORM ((uint32_t)((UINT64_C(57) << 32) / 76)) /* A/(A+B) */
#define BB_KRON_T_C_NORM ((uint32_t)((UINT64_C(19) << 32) / 24)) /* C/(C+D) */

static inline void bb_kron_keys(bb_kron_keys_t *keys, int scale, uint64_t seed)
{
    uint64_t s = seed;
    keys->scale = scale;
    keys->mask = (UINT64_C(1) << scale) - 1;
    keys->shift = (scale + 1) / 2;
    keys->edge_key = bb_kron_mix64(s += BB_KRON_GAMMA);
    for (int r = 0; r < BB_KRON_SCRAMBLE_ROUNDS; r++) {
        keys->add[r] = bb_kron_mix64(s += BB_KRON_GAMMA);
        keys->mul[r] = bb_kron_mix64(s += BB_KRON_GAMMA) | 1;
    }
}

/* Seeded bijection of [0, 2^scale): each step is invertible on scale-bit
 * values (add mod 2^s, multiply by an odd number mod 2^s, v ^= v >> r with
 * r >= 1); multiplication carries low bits up, the shift carries high bits
 * down, so a few rounds spread neighbouring ids over the whole range. */
static inline BB_KRON_HD uint64_t bb_kron_scramble(const bb_kron_keys_t *keys, uint64_t v)
{
    for (int r = 0; r < BB_KRON_SCRAMBLE_ROUNDS; r++) {
        v = (v + keys->add[r]) & keys->mask;
        v = (v * keys->mul[r]) & keys->mask;
        v ^= v >> keys->shift;
    }
    return v;
}

/* Edge k: (*u_p, *v_p), scrambled ids. The counter of its bit b is
 * k * 64 + b (scale <= 40 < 64). */
static inline BB_KRON_HD void bb_kron_edge(const bb_kron_keys_t *keys, uint64_t k, uint64_t *u_p,
                                           uint64_t *v_p)
{
    uint64_t ctr = keys->edge_key + (k << 6) * BB_KRON_GAMMA, u = 0, v = 0;
    for (int b = 0; b < keys->scale; b++) {
        uint64_t r = bb_kron_mix64(ctr);
        uint32_t r1 = (uint32_t)(r >> 32), r2 = (uint32_t)r;
        uint64_t ii = r1 >= BB_KRON_T_AB;
        uint64_t jj = r2 >= (ii ? BB_KRON_T_C_NORM : BB_KRON_T_A_NORM);
        u |= ii << b;
        v |= jj << b;
        ctr += BB_KRON_GAMMA;
    }
    *u_p = bb_kron_scramble(keys, u);
    *v_p = bb_kron_scramble(keys, v);
}

#endif /* BB_KRON_EDGE_H */
