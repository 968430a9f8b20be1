#include "cuda_timing.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace infinicts::bench::cuda {

void CheckRt(infiniStatus_t status, const char *what) {
  if (status != INFINI_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed with status " + std::to_string(status));
}

void CheckCuda(int cuda_error, const char *what) {
  if (cuda_error != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(static_cast<cudaError_t>(cuda_error)));
  }
}

namespace {

// The clock both kinds of stream share: start and end marks around `count` calls.
struct Marks {
  std::function<void()> start, end;
  std::function<double()> seconds;  // waits for the end mark
};

double TimeWith(const Marks &marks, const std::function<void()> &enqueue, const TimingPlan &plan) {
  // The first call pays for lazy set-up (library handles, kernel loading): untimed.
  marks.start();
  enqueue();
  marks.end();
  marks.seconds();
  marks.start();
  enqueue();
  marks.end();
  const double first = std::max(marks.seconds(), 1e-7);
  const int per_batch = static_cast<int>(std::clamp(plan.min_batch_s / first, 1.0, 100000.0));
  double best = first;
  for (int batch = 0; batch < plan.batches; ++batch) {
    marks.start();
    for (int call = 0; call < per_batch; ++call) enqueue();
    marks.end();
    best = std::min(best, marks.seconds() / per_batch);
  }
  return best;
}

}  // namespace

double TimeOnReferenceStream(infinirtStream_t stream, const std::function<void()> &enqueue, const TimingPlan &plan) {
  infinirtEvent_t start = nullptr, end = nullptr;
  CheckRt(infinirtEventCreate(&start), "infinirtEventCreate");
  CheckRt(infinirtEventCreate(&end), "infinirtEventCreate");
  const Marks marks{[&] { CheckRt(infinirtEventRecord(start, stream), "infinirtEventRecord"); },
                    [&] { CheckRt(infinirtEventRecord(end, stream), "infinirtEventRecord"); },
                    [&] {
                      float ms = 0;
                      CheckRt(infinirtEventSynchronize(end), "infinirtEventSynchronize");
                      CheckRt(infinirtEventElapsedTime(&ms, start, end), "infinirtEventElapsedTime");
                      return ms * 1e-3;
                    }};
  const double seconds = TimeWith(marks, enqueue, plan);
  infinirtEventDestroy(start);
  infinirtEventDestroy(end);
  return seconds;
}

double TimeOnCudaStream(void *cuda_stream, const std::function<void()> &enqueue, const TimingPlan &plan) {
  auto stream = static_cast<cudaStream_t>(cuda_stream);
  cudaEvent_t start = nullptr, end = nullptr;
  CheckCuda(cudaEventCreate(&start), "cudaEventCreate");
  CheckCuda(cudaEventCreate(&end), "cudaEventCreate");
  const Marks marks{[&] { CheckCuda(cudaEventRecord(start, stream), "cudaEventRecord"); },
                    [&] { CheckCuda(cudaEventRecord(end, stream), "cudaEventRecord"); },
                    [&] {
                      float ms = 0;
                      CheckCuda(cudaEventSynchronize(end), "cudaEventSynchronize");
                      CheckCuda(cudaEventElapsedTime(&ms, start, end), "cudaEventElapsedTime");
                      return ms * 1e-3;
                    }};
  const double seconds = TimeWith(marks, enqueue, plan);
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  return seconds;
}

}  // namespace infinicts::bench::cuda
