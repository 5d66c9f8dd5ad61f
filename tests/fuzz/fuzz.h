/* Fuzz harnesses for the graph loaders and the link-description parser
 * (docs/architecture.md, "Building and testing"). Each fuzz_<format>.c defines the libFuzzer entry
 * point LLVMFuzzerTestOneInput and bb_fuzz_format; the same file is linked
 * into a libFuzzer binary (configure --enable-fuzz, tools/fuzz) and into a
 * plain replay driver (replay.c) that make check runs over
 * tests/fuzz/corpus/<format>/ and tests/fuzz/regress/<format>/. A harness
 * returns 0 for any input a loader refuses with a status and a message; it
 * calls abort() (a crash to the fuzzer) when an accepted input breaks an
 * invariant that the rest of boxbfs relies on. */
#ifndef BB_FUZZ_H
#define BB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "boxbfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* The harness's folder under tests/fuzz/corpus and tests/fuzz/regress. */
extern const char bb_fuzz_format[];

/* Vertex limit for the harnesses (bb_io_set_max_vertices): a size line alone
 * must not make one run allocate and scan megabytes. */
#define BB_FUZZ_MAX_VERTICES 4096

/* One-time setup every harness calls first: the vertex limit, quiet logs. */
void bb_fuzz_init(void);

/* The path of this process's scratch file whose name ends in suffix
 * (static storage, one per suffix). */
const char *bb_fuzz_path(const char *suffix);
/* Write size bytes to this process's scratch file whose name ends in suffix
 * (".mtx", ".bbcsr", ...: the public loader picks the format by it) and
 * return its path (bb_fuzz_path). abort()s when
 * the file cannot be written: that is no finding about the input. */
const char *bb_fuzz_write(const void *data, size_t size, const char *suffix);

/* Invariants of a loaded graph, checked through the public API: CSR shape,
 * the id mapping both ways with no overflow, statistics, a reference BFS
 * that the validator accepts, and a binary round trip that gives back the
 * same graph. abort()s with a message on the first broken one. */
void bb_fuzz_check_graph(boxbfs_graph_t graph);

/* A failed load must say what is wrong: a status that is an error and a
 * message naming the file. abort()s otherwise. */
void bb_fuzz_check_refusal(boxbfs_status_t status, const char *path);

/* Load path with opts and check the outcome: a refusal with
 * bb_fuzz_check_refusal, a graph with bb_fuzz_check_graph (then freed). */
void bb_fuzz_load(const char *path, const boxbfs_load_options_t *opts);

/* A text format's harness: the input is the file (its name ends in
 * suffix), its size picks the direction asked for (so one corpus covers all
 * three), loaded with one thread through bb_fuzz_load. */
void bb_fuzz_text_file(const uint8_t *data, size_t size, const char *suffix);

#endif /* BB_FUZZ_H */
