/* Host round trip of one small level, its parts timed apart (perf5 call 3):
 * what the engine pays per host-driven level besides the kernels. Each case
 * runs 2000 times after 200 warm-ups; median of the host wall time per
 * iteration. nvcc -O2 -arch=sm_90 roundtrip.cu -o roundtrip */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void tiny(unsigned long long *c) { if (threadIdx.x == 0 && blockIdx.x == 0) c[1] += 1; }
__global__ void wide(unsigned long long *c) { if (threadIdx.x == 0) atomicAdd(c + 1, 1ull); }

int main()
{
    cudaStream_t s;
    cudaEvent_t ev[2];
    unsigned long long *d, *h;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&ev[0]));
    CK(cudaEventCreate(&ev[1]));
    CK(cudaMalloc(&d, 64));
    CK(cudaMallocHost(&h, 64));
    CK(cudaMemset(d, 0, 64));
    auto run = [&](const char *name, auto body) {
        std::vector<double> t;
        for (int i = 0; i < 2200; i++) {
            auto a = std::chrono::steady_clock::now();
            body();
            cudaStreamSynchronize(s);
            auto b = std::chrono::steady_clock::now();
            if (i >= 200) t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
        }
        std::sort(t.begin(), t.end());
        std::printf("%-58s median %6.2f us  p10 %6.2f  p90 %6.2f\n", name, t[t.size() / 2],
                    t[t.size() / 10], t[t.size() * 9 / 10]);
    };
    run("sync only", [&] {});
    run("tiny kernel + sync", [&] { tiny<<<1, 32, 0, s>>>(d); });
    run("wide kernel (1056 x 256) + sync", [&] { wide<<<1056, 256, 0, s>>>(d); });
    run("kernel + memcpy 40 B D2H + sync", [&] {
        tiny<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, 40, cudaMemcpyDeviceToHost, s);
    });
    run("memset 24 B + kernel + memcpy 40 B + sync", [&] {
        cudaMemsetAsync(d + 1, 0, 24, s);
        tiny<<<1, 32, 0, s>>>(d);
        cudaMemcpyAsync(h, d, 40, cudaMemcpyDeviceToHost, s);
    });
    run("event + memset + kernel + event + memcpy + sync (a level)", [&] {
        cudaEventRecord(ev[0], s);
        cudaMemsetAsync(d + 1, 0, 24, s);
        tiny<<<1, 32, 0, s>>>(d);
        cudaEventRecord(ev[1], s);
        cudaMemcpyAsync(h, d, 40, cudaMemcpyDeviceToHost, s);
    });
    float ms;
    run("  the same + cudaEventElapsedTime after the sync", [&] {
        cudaEventRecord(ev[0], s);
        cudaMemsetAsync(d + 1, 0, 24, s);
        tiny<<<1, 32, 0, s>>>(d);
        cudaEventRecord(ev[1], s);
        cudaMemcpyAsync(h, d, 40, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        cudaEventElapsedTime(&ms, ev[0], ev[1]);
    });
    /* the same level as a graph: one launch call */
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    cudaEventRecord(ev[0], s);
    cudaMemsetAsync(d + 1, 0, 24, s);
    tiny<<<1, 32, 0, s>>>(d);
    cudaEventRecord(ev[1], s);
    cudaMemcpyAsync(h, d, 40, cudaMemcpyDeviceToHost, s);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    run("the level as one CUDA graph launch + sync", [&] { cudaGraphLaunch(ge, s); });
    CK(cudaGetLastError());
    std::printf("counter %llu\n", h[1]);
    return 0;
}
