/* Traffic counters and link models: per-link/phase/level sums, zero-byte
 * copies are not messages, the left-right model on hand-computed cases, and
 * link-model parsing (built-ins, BW,LATENCY, bad input). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "boxbfs.h"
#include "check.h"
#include "peer/traffic.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 + 1e-9 * fabs(b); }

int main(void)
{
    bb_traffic_t t;
    boxbfs_link_model_t m;
    CHECK_OK(bb_traffic_init(&t, 3));
    CHECK_OK(bb_traffic_level(&t, 1));
    bb_traffic_add(&t, BOXBFS_PHASE_FRONTIER, 0, 0, 1, 100, 1);
    bb_traffic_add(&t, BOXBFS_PHASE_FRONTIER, 1, 2, 1, 50, 1);
    bb_traffic_add(&t, BOXBFS_PHASE_SIZES, 1, 2, 0, 8, 1);
    bb_traffic_add(&t, BOXBFS_PHASE_PARENTS, -1, 1, 0, 12, 1);
    bb_traffic_add(&t, BOXBFS_PHASE_FRONTIER, 1, 0, 2, 0, 1);   /* empty: not counted */
    CHECK(bb_traffic_total_bytes(&t) == 170);
    CHECK(bb_traffic_total_messages(&t) == 4);
    CHECK(t.link_bytes[0 * 3 + 1] == 100 && t.link_bytes[2 * 3 + 1] == 50);
    CHECK(t.link_bytes[2 * 3 + 0] == 8 && t.link_bytes[1 * 3 + 0] == 12);
    CHECK(t.link_messages[0 * 3 + 2] == 0);
    CHECK(t.levels[0].bytes == 100 && t.levels[1].bytes == 58 && t.nlevels == 2);
    CHECK(t.phase_bytes[BOXBFS_PHASE_PARENTS] == 12);
    bb_traffic_reset(&t);
    CHECK(bb_traffic_total_bytes(&t) == 0 && t.nlevels == 0 && t.link_bytes[1] == 0);
    bb_traffic_free(&t);

    /* left-right model: 1 GB/s, 1 us. 3 devices:
     * step j=1: pairs (0,1): 0->1 1000 B, 1->0 0 B -> 1us+1us = 2 us
     *           (1,2): 1->2 3000 B, 2->1 2000 B -> 4us + 3us = 7 us  => 7 us
     * step j=2: pair (0,2): 0->2 0, 2->0 500 B -> 1.5 us       => total 8.5 us */
    {
        const uint64_t bytes[9] = {0, 1000, 0, 0, 0, 3000, 500, 2000, 0};
        CHECK_OK(boxbfs_link_model_parse("1GB/s,1us", &m));
        CHECK(close_to(m.bandwidth_Bps, 1e9) && close_to(m.latency_s, 1e-6));
        CHECK(close_to(bb_link_model_leftright_s(&m, 3, bytes), 8.5e-6));
        CHECK(close_to(bb_link_model_leftright_s(&m, 1, bytes), 0.0));
    }
    CHECK_OK(boxbfs_link_model_parse("expether-2x10g", &m));
    CHECK(close_to(m.bandwidth_Bps, 2.5e9) && strcmp(m.name, "expether-2x10g") == 0);
    CHECK_OK(boxbfs_link_model_parse("20Gb/s,10us", &m));
    CHECK(close_to(m.bandwidth_Bps, 2.5e9) && close_to(m.latency_s, 1e-5));
    CHECK_OK(boxbfs_link_model_parse("25e9,5e-6", &m));
    CHECK(close_to(m.bandwidth_Bps, 25e9));
    CHECK_OK(boxbfs_link_model_parse("NVLINK4", &m));
    CHECK(boxbfs_link_model_parse("fast", &m) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "unknown link model 'fast'") != NULL);
    CHECK(boxbfs_link_model_parse("-3,1us", &m) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "bad bandwidth") != NULL);
    CHECK(boxbfs_link_model_parse("1GB/s,soon", &m) == BOXBFS_ERR_INVALID_ARG);
    CHECK(strstr(boxbfs_last_error(), "bad latency") != NULL);
    CHECK(boxbfs_link_model_parse("", &m) == BOXBFS_ERR_INVALID_ARG);
    /* every figure finite and positive (issue 16), the same rule as in files */
    {
        static const char *const refused[] = {"1GB/s,nan", "1GB/s,inf", "1GB/s,-0", "inf,1us",
                                              "nan,1us", "1e300TB/s,1us", "0.1,1us",
                                              "1GB/s,1e300"};
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
            CHECK(boxbfs_link_model_parse(refused[i], &m) == BOXBFS_ERR_INVALID_ARG);
            CHECK(strstr(boxbfs_last_error(), "must be finite") != NULL);
        }
    }
    CHECK_DONE();
}
