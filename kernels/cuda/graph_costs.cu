/* What a CUDA graph costs the device search per step, apart from its
 * kernels' work (benchmarks/graph-costs builds and runs this program; it is
 * not part of the library). Each case is a graph of tiny kernels that stamp
 * %globaltimer where they start and end; from the stamps, the device's time
 * from one node to the next, and on the host the time cudaGraphLaunch takes.
 * The cases are the device search's shapes (kernels/cuda/search.cu): plain
 * kernel edges, a copy into __constant__ memory between kernels (the hot
 * kernels' arguments), the device loop's cluster kernel, and the levels'
 * control: while (run) { decide -> switch (branch) { body } }, a chain of
 * decide -> switch without the while, and the while without the switch;
 * and the control the search has now: each body a graph of its own that
 * ends in a decide, which launches the next body from the device (tail
 * launch), with one and with three kernels in a body.
 * And the bound of a device-loop level (kernels/cuda/small_levels.cu): in
 * one cluster of 8 x 1024 threads, each thread's chain of R dependent reads
 * from L2, then a cluster barrier, level after level (R = 0: the barrier);
 * and the same on one block of 1024 threads with a block barrier.
 * And the search's start and end over the host link (graph_costs_link.cu).
 * One line per case, "case key=value ...", medians over the launches. */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "graph_costs.h"

namespace {

constexpr int kSteps = 20;      /* nodes of a chain, iterations of a loop */
constexpr int kLaunches = 30;   /* launches of each graph */
constexpr int kSlots = 64;      /* stamps: [2 i] a step's start, [2 i + 1] its end */

struct Args {   /* the size of the device search's step arguments */
    char bytes[912];
};
__constant__ Args c_args;

__device__ __forceinline__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One stamp where the kernel starts (block 0, thread 0). */
__global__ void stamp(unsigned long long *t, int slot)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) t[slot] = now_ns() + (unsigned char)c_args.bytes[0];
}

/* The device loop's launch shape: a cluster of 8 blocks of 1024 threads. */
__global__ void __cluster_dims__(8, 1, 1) __launch_bounds__(1024, 1)
    cluster_stamp(unsigned long long *t, int slot)
{
    __shared__ unsigned scratch[4096];
    scratch[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (blockIdx.x == 0 && threadIdx.x == 0) t[slot] = now_ns() + scratch[1] - 1;
}

/* The bound of a loop level: iters times, each thread reads `reads`
 * dependent words of next (an index chase in L2: __ldcg skips L1), then
 * the cluster meets (Cluster) or, launched as one block, the block does;
 * the leader's elapsed nanoseconds into out[0]. */
template <bool Cluster>
__device__ __forceinline__ void chase_levels(const unsigned *next, unsigned mask, int iters,
                                             int reads, unsigned long long *out)
{
    unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u & mask;
    if constexpr (Cluster) cooperative_groups::this_cluster().sync();
    else __syncthreads();
    const unsigned long long t0 = now_ns();
    for (int i = 0; i < iters; i++) {
        for (int r = 0; r < reads; r++) x = __ldcg(next + x);
        if constexpr (Cluster) cooperative_groups::this_cluster().sync();
        else __syncthreads();
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = now_ns() - t0;
    if (x == ~0u) out[1] = x;   /* keeps the chase */
}

__global__ void __cluster_dims__(8, 1, 1) __launch_bounds__(1024, 1)
    level_chain(const unsigned *next, unsigned mask, int iters, int reads,
                unsigned long long *out)
{
    chase_levels<true>(next, mask, iters, reads, out);
}

/* The same levels on one block of 1024 threads (a road level that one
 * block could take: a block barrier instead of the cluster's). */
__global__ void __launch_bounds__(1024, 1)
    block_level_chain(const unsigned *next, unsigned mask, int iters, int reads,
                      unsigned long long *out)
{
    chase_levels<false>(next, mask, iters, reads, out);
}

/* A decide: its step's start and end stamps, the next step into *step,
 * the conditions (run: another step follows; branch: which body; none
 * after `none_from` steps). With run == branch one handle takes both:
 * branch's value where there are branches, else run's. */
__global__ void decide(unsigned long long *t, int *step, int branches, int none_from,
                       cudaGraphConditionalHandle run, cudaGraphConditionalHandle branch)
{
    if (threadIdx.x != 0) return;
    const int i = *step;
    t[2 * i] = now_ns();
    *step = i + 1;
    const unsigned br = i >= none_from ? 99u : (unsigned)(i % (branches ? branches : 1));
    if (run != branch) cudaGraphSetConditional(run, i + 1 < kSteps);
    cudaGraphSetConditional(branch, branches ? br : (unsigned)(i + 1 < kSteps));
    t[2 * i + 1] = now_ns();
}

/* The same decide with no conditional node: the next step's body is a
 * graph of its own, launched from here to start when this graph ends
 * (device graph launch, tail mode), or at once beside the graph that
 * launched it (sibling: fire and forget as a sibling). */
__global__ void tail_decide(unsigned long long *t, int *step, int branches,
                            const cudaGraphExec_t *bodies, int sibling)
{
    if (threadIdx.x != 0) return;
    const int i = *step;
    t[2 * i] = now_ns();
    *step = i + 1;
    if (i + 1 < kSteps)
        cudaGraphLaunch(bodies[i % branches],
                        sibling ? cudaStreamGraphFireAndForgetAsSibling : cudaStreamGraphTailLaunch);
    t[2 * i + 1] = now_ns();
}

/* A body's kernel: stamps where the body of step *step - 1 starts (its
 * first kernel: a body may have several). */
__global__ void body(unsigned long long *t, const int *step)
{
    if (blockIdx.x == 0 && threadIdx.x == 0 && !t[kSlots + *step - 1]) t[kSlots + *step - 1] = now_ns();
}

struct Buffers {
    unsigned long long *t;
    int *step;
    Args *args;
    cudaStream_t s;
};

double us_since(std::chrono::steady_clock::time_point a)
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count();
}

/* Launch exec kLaunches times; per launch the stamps come back in h. */
template <class PerLaunch>
void launches(const Buffers &b, cudaGraphExec_t exec, double *api_us, PerLaunch per_launch)
{
    std::vector<double> api;
    std::vector<unsigned long long> h(2 * kSlots);
    for (int r = 0; r < kLaunches; r++) {
        CHECK(cudaMemsetAsync(b.t, 0, 2 * kSlots * sizeof *b.t, b.s));
        CHECK(cudaMemsetAsync(b.step, 0, sizeof *b.step, b.s));
        CHECK(cudaStreamSynchronize(b.s));
        auto a = std::chrono::steady_clock::now();
        CHECK(cudaGraphLaunch(exec, b.s));
        api.push_back(us_since(a));
        CHECK(cudaStreamSynchronize(b.s));
        CHECK(cudaMemcpy(h.data(), b.t, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
        per_launch(h);
    }
    *api_us = median(api);
}

cudaGraphExec_t instantiate(const Buffers &b, cudaGraph_t g)
{
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphUpload(exec, b.s));
    CHECK(cudaStreamSynchronize(b.s));
    return exec;
}

/* A chain of kSteps captured nodes, node(i) launching node i (a stamping
 * kernel at slot i, or a copy): the time from one stamping kernel's start
 * to the next's (with a copy between them in the copy chain). */
template <class Node>
void chain(const Buffers &b, const char *name, Node node)
{
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(b.s, cudaStreamCaptureModeRelaxed));
    for (int i = 0; i < kSteps; i++) node(i);
    CHECK(cudaStreamEndCapture(b.s, &g));
    cudaGraphExec_t exec = instantiate(b, g);
    std::vector<double> gap;
    double api;
    launches(b, exec, &api, [&](const std::vector<unsigned long long> &h) {
        std::vector<unsigned long long> st;
        for (int i = 0; i < kSteps; i++)
            if (h[i]) st.push_back(h[i]);
        if (st.size() > 1) gap.push_back((st.back() - st.front()) * 1e-3 / (st.size() - 1));
    });
    printf("%s kernel_to_kernel_us=%.2f launch_api_us=%.2f\n", name, median(gap), api);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
}

/* A conditional node of g after dep (none: NULL); its bodies in bodies. */
cudaGraphNode_t add_conditional(cudaGraph_t g, cudaGraphNode_t dep, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, unsigned size,
                                std::vector<cudaGraph_t> *bodies)
{
    cudaGraphNodeParams p = {};
    cudaGraphNode_t node;
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    CHECK(cudaGraphAddNode(&node, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p));
    bodies->assign(p.conditional.phGraph_out, p.conditional.phGraph_out + size);
    return node;
}

cudaGraphNode_t add_decide(const Buffers &b, cudaGraph_t g, cudaGraphNode_t dep, int branches,
                           int none_from, cudaGraphConditionalHandle run,
                           cudaGraphConditionalHandle branch)
{
    void *args[] = {(void *)&b.t, (void *)&b.step, &branches, &none_from, &run, &branch};
    cudaKernelNodeParams k = {};
    cudaGraphNode_t node;
    k.func = (void *)decide;
    k.gridDim = dim3(1);
    k.blockDim = dim3(32);
    k.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&node, g, dep ? &dep : NULL, dep ? 1 : 0, &k));
    return node;
}

/* Capture fn's launches on b.s into graph g. */
template <class Fn>
void capture_into(const Buffers &b, cudaGraph_t g, Fn fn)
{
    cudaGraph_t out;
    CHECK(cudaStreamBeginCaptureToGraph(b.s, g, NULL, NULL, 0, cudaStreamCaptureModeRelaxed));
    fn();
    CHECK(cudaStreamEndCapture(b.s, &out));
}

/* The levels' control, shape: 0 while { decide -> switch (12) { body } },
 * 1 kSteps x (decide -> switch (4) { body }) with no while (a handle per
 * switch: a handle serves one conditional node), 2 the same with no body
 * taken from step 10 on, 3 while { decide -> body } with no switch. Per
 * step: from a decide's start to the next's, from its end to its body's
 * start, from the body's start to the next decide's start. */
void control(const Buffers &b, const char *name, int shape)
{
    cudaGraph_t g;
    std::vector<cudaGraph_t> bodies, loop;
    CHECK(cudaGraphCreate(&g, 0));
    const int branches = shape == 0 ? 12 : shape == 3 ? 0 : 4;
    const int none_from = shape == 2 ? 10 : kSteps;
    if (shape == 0 || shape == 3) {
        cudaGraphConditionalHandle run, branch;
        CHECK(cudaGraphConditionalHandleCreate(&run, g, 1, cudaGraphCondAssignDefault));
        add_conditional(g, NULL, run, cudaGraphCondTypeWhile, 1, &loop);
        branch = run;
        if (shape == 0)
            CHECK(cudaGraphConditionalHandleCreate(&branch, loop[0], 0,
                                                   cudaGraphCondAssignDefault));
        cudaGraphNode_t dec = add_decide(b, loop[0], NULL, branches, none_from, run, branch);
        if (shape == 3) {
            cudaKernelNodeParams k = {};
            void *args[] = {(void *)&b.t, (void *)&b.step};
            cudaGraphNode_t n;
            k.func = (void *)body;
            k.gridDim = dim3(1);
            k.blockDim = dim3(32);
            k.kernelParams = args;
            CHECK(cudaGraphAddKernelNode(&n, loop[0], &dec, 1, &k));
        } else {
            add_conditional(loop[0], dec, branch, cudaGraphCondTypeSwitch, branches, &bodies);
            for (cudaGraph_t bg : bodies)
                capture_into(b, bg, [&] { body<<<1, 32, 0, b.s>>>(b.t, b.step); });
        }
    } else {
        cudaGraphNode_t prev = NULL;
        for (int i = 0; i < kSteps; i++) {
            cudaGraphConditionalHandle h;
            CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
            cudaGraphNode_t dec = add_decide(b, g, prev, branches, none_from, h, h);
            prev = add_conditional(g, dec, h, cudaGraphCondTypeSwitch, branches, &bodies);
            for (cudaGraph_t bg : bodies)
                capture_into(b, bg, [&] { body<<<1, 32, 0, b.s>>>(b.t, b.step); });
        }
    }
    cudaGraphExec_t exec = instantiate(b, g);
    std::vector<double> step, to_body, from_body, idle;
    double api;
    launches(b, exec, &api, [&](const std::vector<unsigned long long> &h) {
        for (int i = 1; i + 1 < kSteps; i++) {
            const unsigned long long start = h[2 * i], end = h[2 * i + 1], next = h[2 * i + 2],
                                     bstart = h[kSlots + i];
            if (!start || !next) continue;
            if (i >= none_from) {
                idle.push_back((next - start) * 1e-3);
                continue;
            }
            step.push_back((next - start) * 1e-3);
            if (bstart) {
                to_body.push_back((bstart - end) * 1e-3);
                from_body.push_back((next - bstart) * 1e-3);
            }
        }
    });
    printf("%s step_us=%.2f decide_to_body_us=%.2f body_to_next_decide_us=%.2f", name,
           median(step), median(to_body), median(from_body));
    if (!idle.empty()) printf(" step_no_body_us=%.2f", median(idle));
    printf(" launch_api_us=%.2f\n", api);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
}

/* The levels' control with device graph launches: each of 4 bodies is a
 * graph of `kernels` kernels (the first stamps) and then tail_decide,
 * instantiated for device launch; the host launches a graph of one
 * tail_decide, which launches the first body, and so on for kSteps
 * steps (sibling: each launched beside its launcher, not after it). Per
 * step as in control(). */
void tail_control(const Buffers &b, const char *name, int kernels, int sibling = 0)
{
    constexpr int kBranches = 4;
    cudaGraph_t g[kBranches + 1];
    cudaGraphExec_t exec[kBranches + 1];
    cudaGraphExec_t *d_bodies;
    CHECK(cudaMalloc((void **)&d_bodies, kBranches * sizeof *d_bodies));
    for (int br = 0; br <= kBranches; br++) {   /* [kBranches]: the host's start */
        CHECK(cudaStreamBeginCapture(b.s, cudaStreamCaptureModeRelaxed));
        for (int k = 0; br < kBranches && k < kernels; k++)
            body<<<1, 32, 0, b.s>>>(b.t, b.step);
        tail_decide<<<1, 32, 0, b.s>>>(b.t, b.step, kBranches, d_bodies, sibling);
        CHECK(cudaStreamEndCapture(b.s, &g[br]));
        CHECK(cudaGraphInstantiate(&exec[br], g[br], cudaGraphInstantiateFlagDeviceLaunch));
        CHECK(cudaGraphUpload(exec[br], b.s));
    }
    CHECK(cudaMemcpy(d_bodies, exec, kBranches * sizeof *d_bodies, cudaMemcpyHostToDevice));
    CHECK(cudaStreamSynchronize(b.s));
    std::vector<double> step, to_body, from_body, whole;
    double api;
    launches(b, exec[kBranches], &api, [&](const std::vector<unsigned long long> &h) {
        if (h[0] && h[2 * (kSteps - 1)]) whole.push_back((h[2 * (kSteps - 1)] - h[0]) * 1e-3);
        for (int i = 1; i + 1 < kSteps; i++) {
            const unsigned long long end = h[2 * i + 1], next = h[2 * i + 2], bstart = h[kSlots + i];
            if (!h[2 * i] || !next) continue;
            step.push_back((next - h[2 * i]) * 1e-3);
            if (bstart) {
                to_body.push_back((bstart - end) * 1e-3);
                from_body.push_back((next - bstart) * 1e-3);
            }
        }
    });
    printf("%s step_us=%.2f decide_to_body_us=%.2f body_to_next_decide_us=%.2f steps=%d "
           "first_to_last_decide_us=%.2f launch_api_us=%.2f\n",
           name, median(step), median(to_body), median(from_body), kSteps, median(whole), api);
    for (int br = 0; br <= kBranches; br++) {
        CHECK(cudaGraphExecDestroy(exec[br]));
        CHECK(cudaGraphDestroy(g[br]));
    }
    CHECK(cudaFree(d_bodies));
}

/* Per level of level_chain (the loop's cluster of 8 x 1024 threads) and
 * block_level_chain (one block) with 0, 1, 2 and 4 dependent reads: the
 * barrier, and what each read from L2 adds. */
void level_bound(const Buffers &b)
{
    constexpr unsigned kWords = 1u << 21;   /* 8 MiB: stays in L2 */
    constexpr int kIters = 2000;
    std::vector<unsigned> perm(kWords), next(kWords);
    for (unsigned i = 0; i < kWords; i++) perm[i] = i;
    srand(1);
    for (unsigned i = kWords - 1; i > 0; i--) std::swap(perm[i], perm[(unsigned)rand() % (i + 1)]);
    for (unsigned i = 0; i < kWords; i++) next[perm[i]] = perm[(i + 1) % kWords];   /* one cycle */
    unsigned *d_next;
    CHECK(cudaMalloc((void **)&d_next, kWords * sizeof *d_next));
    CHECK(cudaMemcpy(d_next, next.data(), kWords * sizeof *d_next, cudaMemcpyHostToDevice));
    for (int one_block = 0; one_block < 2; one_block++)
        for (int reads : {0, 1, 2, 4}) {
            std::vector<double> per;
            for (int r = 0; r < 5; r++) {
                unsigned long long ns = 0;
                if (one_block)
                    block_level_chain<<<1, 1024, 0, b.s>>>(d_next, kWords - 1, kIters, reads, b.t);
                else
                    level_chain<<<8, 1024, 0, b.s>>>(d_next, kWords - 1, kIters, reads, b.t);
                CHECK(cudaGetLastError());
                CHECK(cudaMemcpyAsync(&ns, b.t, sizeof ns, cudaMemcpyDeviceToHost, b.s));
                CHECK(cudaStreamSynchronize(b.s));
                if (r > 0) per.push_back(ns * 1e-3 / kIters);   /* the first warms L2 */
            }
            printf("%s_level_reads%d per_level_us=%.3f\n", one_block ? "block" : "loop", reads,
                   median(per));
        }
    CHECK(cudaFree(d_next));
}

}  // namespace

int main()
{
    Buffers b;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "graph_costs: no CUDA device\n");
        return 77;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device name=\"%s\" sms=%d\n", prop.name, prop.multiProcessorCount);
    CHECK(cudaStreamCreateWithFlags(&b.s, cudaStreamNonBlocking));
    CHECK(cudaMalloc((void **)&b.t, 2 * kSlots * sizeof *b.t));
    CHECK(cudaMalloc((void **)&b.step, sizeof *b.step));
    CHECK(cudaMalloc((void **)&b.args, sizeof *b.args));
    CHECK(cudaMemset(b.args, 0, sizeof *b.args));
    chain(b, "kernel_chain", [&](int i) { stamp<<<1, 32, 0, b.s>>>(b.t, i); });
    chain(b, "kernel_copy_to_constant_chain", [&](int i) {
        if (i % 2) CHECK(cudaMemcpyToSymbolAsync(c_args, b.args, sizeof(Args), 0,
                                                 cudaMemcpyDeviceToDevice, b.s));
        else stamp<<<1, 32, 0, b.s>>>(b.t, i);
    });
    chain(b, "cluster_kernel_chain", [&](int i) { cluster_stamp<<<8, 1024, 0, b.s>>>(b.t, i); });
    control(b, "while_decide_switch", 0);
    control(b, "decide_switch_chain", 1);
    control(b, "decide_switch_chain_none_taken", 2);
    control(b, "while_decide_kernel", 3);
    tail_control(b, "tail_launch_decide_kernel", 1);
    tail_control(b, "tail_launch_decide_3_kernels", 3);
    tail_control(b, "sibling_launch_decide_kernel", 1, 1);
    tail_control(b, "sibling_launch_decide_3_kernels", 3, 1);
    level_bound(b);
    link_costs(b.s);
    {   /* one kernel launched from the host, for scale */
        std::vector<double> api, total;
        for (int r = 0; r < kLaunches; r++) {
            auto a = std::chrono::steady_clock::now();
            stamp<<<1, 32, 0, b.s>>>(b.t, 0);
            api.push_back(us_since(a));
            CHECK(cudaStreamSynchronize(b.s));
            total.push_back(us_since(a));
        }
        printf("kernel_launch launch_api_us=%.2f launch_to_sync_us=%.2f\n", median(api),
               median(total));
    }
    CHECK(cudaGetLastError());
    return 0;
}
