// The host's own figures: a threaded memcpy of large buffers (bandwidth counted as bytes
// read + bytes written) and OpenBLAS cblas_sgemm called directly.
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

void MemcpyBenchmark(benchmark::State &state, size_t threads, size_t bytes) {
  HostWorkers workers(threads);
  std::unique_ptr<char[]> src(new char[bytes]), dst(new char[bytes]);
  // Touch every page first on the threads that copy, as the reference's buffers are.
  workers.Run([&](size_t) {});
  std::memset(src.get(), 1, bytes);
  ThreadedMemcpy(workers, dst.get(), src.get(), bytes);
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    ThreadedMemcpy(workers, dst.get(), src.get(), bytes);
    state.SetIterationTime(SecondsSince(start));
  }
  // Bandwidth as bytes read + bytes written, like the operators' figures.
  state.SetBytesProcessed(static_cast<int64_t>(2 * bytes) * state.iterations());
  state.counters["threads"] = static_cast<double>(threads);
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

size_t ReferenceThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::string MemcpyName(size_t threads) { return "host/memcpy/threads:" + std::to_string(threads); }

std::string SgemmName(size_t size) { return "host/cblas_sgemm/" + std::to_string(size); }

void RegisterMemcpyBaseline(const SpeedConfig &config, size_t memcpy_threads) {
  const size_t bytes = config.memcpy_bytes;
  benchmark::RegisterBenchmark(MemcpyName(memcpy_threads).c_str(),
                               [=](benchmark::State &state) { MemcpyBenchmark(state, memcpy_threads, bytes); })
      ->UseManualTime()
      ->MinTime(config.min_time_s)
      ->Repetitions(config.repetitions)
      ->ComputeStatistics("max", MaxOf)
      ->DisplayAggregatesOnly(config.repetitions > 1)
      ->Unit(benchmark::kMillisecond);
}

void RegisterSgemmBaseline(const SpeedConfig &config) {
  const size_t size = config.gemm_size;
  benchmark::RegisterBenchmark(SgemmName(size).c_str(), [=](benchmark::State &state) { SgemmBenchmark(state, size); })
      ->UseManualTime()
      ->MinTime(config.min_time_s)
      ->Repetitions(config.repetitions)
      ->ComputeStatistics("max", MaxOf)
      ->DisplayAggregatesOnly(config.repetitions > 1)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace infinicts::bench
