/* NVLink counts per pair (topology/nvlinks.c) on made-up link ends, no GPU:
 * four GPUs on an NVSwitch count 18 per pair as `nvidia-smi topo -m` prints
 * NV18 (with and without NVML naming the far end), a two-GPU bridge counts its
 * links, links to GPUs that are not listed count for no pair, a degraded GPU
 * counts its own links, and a GPU off the switch has none through it. */
#include "config.h"

#include "check.h"
#include "topology/topology.h"

#define NMAX 4

static const char bus[NMAX][32] = {"0000:19:00.0", "0000:3B:00.0", "0000:4c:00.0", "0000:5D:00.0"};

static bb_nvlink_end_t end_at(bb_nvlink_end_kind_t kind, unsigned dom, unsigned b, unsigned dev)
{
    bb_nvlink_end_t e = {kind, 1, dom, b, dev};
    return e;
}

/* links ends of one kind and address */
static int fill(bb_nvlink_end_t *ends, int links, bb_nvlink_end_t e)
{
    for (int k = 0; k < links; k++) ends[k] = e;
    return links;
}

/* Every ordered pair of n devices counts want[a][b]. */
static void expect(int n, const int *direct, const int *switch_links, const int want[NMAX][NMAX])
{
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int got = bb_nvlink_count(direct, switch_links, n, a, b);
            if (got != want[a][b]) {
                fprintf(stderr, "pair %d -> %d: %d NVLinks, expected %d\n", a, b, got, want[a][b]);
                CHECK(0);
            }
        }
}

/* Four GPUs, each with `links[a]` active links of this kind into a switch at 0000:a0:00.0. */
static void on_switch(bb_nvlink_end_kind_t kind, const int links[NMAX], const int want[NMAX][NMAX])
{
    int direct[NMAX * NMAX] = {0}, switch_links[NMAX] = {0};
    bb_nvlink_end_t ends[18];
    for (int a = 0; a < NMAX; a++) {
        int m = fill(ends, links[a], end_at(kind, 0, 0xa0, 0));
        bb_nvlink_tally(bus, NMAX, a, ends, m, direct, switch_links);
        CHECK(switch_links[a] == links[a]);
    }
    expect(NMAX, direct, switch_links, want);
}

int main(void)
{
    const int eighteen[NMAX] = {18, 18, 18, 18}, nv18[NMAX][NMAX] = {
        {0, 18, 18, 18}, {18, 0, 18, 18}, {18, 18, 0, 18}, {18, 18, 18, 0}};
    /* HGX H200: NVML names every far end an NVSwitch */
    on_switch(BB_NVLINK_END_SWITCH, eighteen, nv18);
    /* an NVML that cannot name far ends: an address that is no listed GPU is a switch */
    on_switch(BB_NVLINK_END_UNKNOWN, eighteen, nv18);
    /* one GPU with two links down counts its own 16; GPU 3 is off the switch */
    {
        const int links[NMAX] = {18, 16, 18, 0}, want[NMAX][NMAX] = {
            {0, 18, 18, 0}, {16, 0, 16, 0}, {18, 18, 0, 0}, {0, 0, 0, 0}};
        on_switch(BB_NVLINK_END_SWITCH, links, want);
    }

    /* two GPUs joined by a bridge of 4 links (NVML's addresses in its own case) */
    {
        int direct[NMAX * NMAX] = {0}, switch_links[NMAX] = {0};
        const int want[NMAX][NMAX] = {{0, 4}, {4, 0}};
        bb_nvlink_end_t ends[4];
        bb_nvlink_tally(bus, 2, 0, ends, fill(ends, 4, end_at(BB_NVLINK_END_GPU, 0, 0x3b, 0)),
                        direct, switch_links);
        bb_nvlink_tally(bus, 2, 1, ends, fill(ends, 4, end_at(BB_NVLINK_END_UNKNOWN, 0, 0x19, 0)),
                        direct, switch_links);
        CHECK(switch_links[0] == 0 && switch_links[1] == 0);
        expect(2, direct, switch_links, want);
    }

    /* two of four bridged GPUs listed (--devices 2): the links to GPUs 2 and 3 count for
     * no pair and make no switch; a link NVML gives no address for counts for none */
    {
        int direct[NMAX * NMAX] = {0}, switch_links[NMAX] = {0};
        const int want[NMAX][NMAX] = {{0, 2}, {2, 0}};
        bb_nvlink_end_t ends[8];
        int m = fill(ends, 2, end_at(BB_NVLINK_END_GPU, 0, 0x3b, 0));
        m += fill(ends + m, 4, end_at(BB_NVLINK_END_GPU, 0, 0x4c, 0));
        ends[m] = end_at(BB_NVLINK_END_UNKNOWN, 0, 0, 0);
        ends[m++].has_pci = 0;
        ends[m++] = end_at(BB_NVLINK_END_OTHER, 0, 0x77, 0);   /* an IBM NPU */
        bb_nvlink_tally(bus, 2, 0, ends, m, direct, switch_links);
        m = fill(ends, 2, end_at(BB_NVLINK_END_GPU, 0, 0x19, 0));
        m += fill(ends + m, 4, end_at(BB_NVLINK_END_GPU, 0, 0x5d, 0));
        bb_nvlink_tally(bus, 2, 1, ends, m, direct, switch_links);
        CHECK(switch_links[0] == 0 && switch_links[1] == 0);
        expect(2, direct, switch_links, want);
    }
    CHECK_DONE();
}
