// The host's own figure for Gemm: OpenBLAS cblas_sgemm called directly. (The bandwidth
// baseline, a threaded memcpy, is timed inside each reference benchmark: paired_memcpy.h.)
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "benchmarks.h"
#include "host_workers.h"
#include "tensors.h"

namespace infinicts::bench {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void SgemmBenchmark(benchmark::State &state, size_t size) {
  const int n = static_cast<int>(size);
  std::vector<float> a(size * size), b(size * size), c(size * size);
  FillPattern(a.data(), a.size(), INFINI_DTYPE_F32, 1);
  FillPattern(b.data(), b.size(), INFINI_DTYPE_F32, 2);
  const auto multiply = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(),
                n);
  };
  multiply();
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    multiply();
    state.SetIterationTime(SecondsSince(start));
  }
  const double flops = 2.0 * static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size);
  state.counters["flop_per_second"] =
      benchmark::Counter(flops * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

double MaxOf(const std::vector<double> &values) {
  return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

void RegisterTimed(const SpeedConfig &config, const std::string &name, std::function<void(benchmark::State &)> body) {
  benchmark::RegisterBenchmark(name.c_str(), std::move(body))
      ->UseManualTime()
      ->MinTime(config.min_time_s)
      ->Repetitions(config.repetitions)
      ->ComputeStatistics("max", MaxOf)
      ->DisplayAggregatesOnly(config.repetitions > 1)
      ->Unit(benchmark::kMillisecond);
}

size_t ReferenceThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::string SgemmName(size_t size) { return "host/cblas_sgemm/" + std::to_string(size); }

void RegisterSgemmBaseline(const SpeedConfig &config) {
  const size_t size = config.gemm_size;
  RegisterTimed(config, SgemmName(size), [=](benchmark::State &state) { SgemmBenchmark(state, size); });
}

}  // namespace infinicts::bench
