// Device timing of the CUDA speed benchmark: the reference timed with the runtime's own
// events on its stream (as the suite times any backend), the baselines (cuBLAS and
// cudaMemcpy called directly) with CUDA events on a CUDA stream of their own.
#ifndef INFINICTS_BENCH_CUDA_SPEED_CUDA_TIMING_H
#define INFINICTS_BENCH_CUDA_SPEED_CUDA_TIMING_H

#include <functional>

#include "infinirt.h"

namespace infinicts::bench::cuda {

// Throws std::runtime_error naming `what` unless the call succeeded.
void CheckRt(infiniStatus_t status, const char *what);
void CheckCuda(int cuda_error, const char *what);

// How long one call takes: an untimed warm-up call, one timed call that sizes the
// batches, then batches of calls long enough to dwarf the launch (at least min_batch_s
// each); the best batch's seconds per call.
struct TimingPlan {
  double min_batch_s = 0.05;
  int batches = 5;
};

// `enqueue` queues one call on the reference stream.
double TimeOnReferenceStream(infinirtStream_t stream, const std::function<void()> &enqueue, const TimingPlan &plan);
// `enqueue` queues one call on `cuda_stream` (a cudaStream_t).
double TimeOnCudaStream(void *cuda_stream, const std::function<void()> &enqueue, const TimingPlan &plan);

}  // namespace infinicts::bench::cuda

#endif  // INFINICTS_BENCH_CUDA_SPEED_CUDA_TIMING_H
