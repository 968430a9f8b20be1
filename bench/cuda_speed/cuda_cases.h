// The cases of the CUDA speed benchmark: each measures the reference and its baseline,
// checks the reference's output once, and adds its ratio row.
#ifndef INFINICTS_BENCH_CUDA_SPEED_CUDA_CASES_H
#define INFINICTS_BENCH_CUDA_SPEED_CUDA_CASES_H

#include <string>
#include <vector>

#include "cuda_timing.h"
#include "infiniop/handle.h"
#include "infinirt.h"

namespace infinicts::bench::cuda {

struct BenchContext {
  bool smoke = false;
  infinirtStream_t stream = nullptr;  // the reference's
  infiniopHandle_t handle = nullptr;
  void *cuda_stream = nullptr;        // the baselines' (cudaStream_t)
  void *cublas = nullptr;             // cublasHandle_t on cuda_stream
  TimingPlan timing;
};

struct RatioRow {
  std::string label;
  double reference = 0;  // flop/s or bytes/s
  double baseline = 0;
  double target = 0;
  bool bandwidth = false;
};

// Gemm F16, BF16 and F32 against cublasGemmEx called directly (target 0.95).
void AddGemmRows(const BenchContext &context, std::vector<RatioRow> *rows);
// Add (target 0.8), RMSNorm and Softmax (0.7) in F16 and F32 against the device-to-device copy.
void AddBandwidthRows(const BenchContext &context, std::vector<RatioRow> *rows);

}  // namespace infinicts::bench::cuda

#endif  // INFINICTS_BENCH_CUDA_SPEED_CUDA_CASES_H
