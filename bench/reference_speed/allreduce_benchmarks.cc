// AllReduce (sum, out of place) of libinfiniccl.so across ranks on CPU devices 0..n-1,
// one stream each. Bus bandwidth as nccl-tests defines it: 2(n-1)/n x bytes / time; memory
// traffic: 2n x bytes / time (every send buffer read, every receive buffer written); time
// is the longest of the ranks' spans from start event to end event.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks.h"
#include "infiniccl.h"
#include "tensors.h"

namespace infinicts::bench {
namespace {

void AllReduceBenchmark(benchmark::State &state, int ranks, size_t count, size_t memcpy_bytes) {
  if (CpuDeviceCount() < ranks) {
    state.SkipWithError(("needs " + std::to_string(ranks) + " CPU devices (INFINICTS_CPU_DEVICES)").c_str());
    for (auto _ : state) {
    }
    return;
  }
  std::vector<int> ids(static_cast<size_t>(ranks));
  std::vector<ReferenceDevice *> devices;
  for (int r = 0; r < ranks; ++r) {
    ids[static_cast<size_t>(r)] = r;
    devices.push_back(&ReferenceDevice::Get(r));
  }
  std::vector<infinicclComm_t> comms(static_cast<size_t>(ranks));
  Check(infinicclCommInitAll(INFINI_DEVICE_CPU, comms.data(), ranks, ids.data()), "infinicclCommInitAll");
  std::vector<std::unique_ptr<DeviceBuffer>> sends, recvs;
  std::vector<std::unique_ptr<StreamTimer>> timers;
  const size_t bytes = count * sizeof(float);
  for (int r = 0; r < ranks; ++r) {
    sends.push_back(std::make_unique<DeviceBuffer>(*devices[static_cast<size_t>(r)], bytes));
    recvs.push_back(std::make_unique<DeviceBuffer>(*devices[static_cast<size_t>(r)], bytes));
    FillPattern(sends.back()->data(), count, INFINI_DTYPE_F32, static_cast<unsigned>(r));
    FillPattern(recvs.back()->data(), count, INFINI_DTYPE_F32, 99);
    timers.push_back(std::make_unique<StreamTimer>(*devices[static_cast<size_t>(r)]));
  }
  // One collective: every rank's start event, its part, its end event; the slowest span.
  const auto once = [&] {
    for (int r = 0; r < ranks; ++r) {
      const size_t i = static_cast<size_t>(r);
      devices[i]->MakeCurrent();
      timers[i]->Start();
      Check(infinicclAllReduce(sends[i]->data(), recvs[i]->data(), count, INFINI_DTYPE_F32, INFINICCL_SUM, comms[i],
                               devices[i]->stream()),
            "infinicclAllReduce");
      timers[i]->Stop();
    }
    double longest = 0;
    for (auto &timer : timers) longest = std::max(longest, timer->Seconds());
    return longest;
  };
  once();
  // The baseline: a memcpy with one thread per rank, timed just before each collective.
  PairedMemcpy paired(static_cast<size_t>(ranks), memcpy_bytes);
  for (auto _ : state) {
    paired.CopyOnce();
    state.SetIterationTime(once());
  }
  paired.Report(state);
  SetAllReduceCounters(state, ranks, bytes);
  for (infinicclComm_t comm : comms) infinicclCommDestroy(comm);
}

}  // namespace

void SetAllReduceCounters(benchmark::State &state, int ranks, size_t bytes) {
  const double calls = static_cast<double>(state.iterations());
  const double bus_factor = 2.0 * (ranks - 1) / ranks;
  state.counters["busbw_bytes_per_second"] =
      benchmark::Counter(bus_factor * static_cast<double>(bytes) * calls, benchmark::Counter::kIsRate);
  // The least memory traffic of an AllReduce on shared memory: every rank's send buffer
  // read once and its receive buffer written once.
  state.counters["traffic_bytes_per_second"] =
      benchmark::Counter(2.0 * ranks * static_cast<double>(bytes) * calls, benchmark::Counter::kIsRate);
  state.counters["algbw_bytes_per_second"] =
      benchmark::Counter(static_cast<double>(bytes) * calls, benchmark::Counter::kIsRate);
}

void RegisterAllReduceBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows) {
  const int ranks = config.allreduce_ranks;
  const size_t count = config.allreduce_count;
  const std::string name = "ref/all_reduce/f32/ranks:" + std::to_string(ranks) + "/count:" + std::to_string(count);
  const size_t memcpy_bytes = config.memcpy_bytes;
  RegisterTimed(config, name, [=](benchmark::State &state) { AllReduceBenchmark(state, ranks, count, memcpy_bytes); });
  const std::string label = "all_reduce F32 sum " + std::to_string(ranks) + " ranks ";
  rows->push_back({label + "memory traffic vs memcpy", name, name, "traffic_bytes_per_second", kPairedMemcpyCounter,
                   0.5});
  // busbw counts 2(n-1)/n x bytes where the memory moves at least 2n x bytes: with that
  // traffic at memcpy's rate, busbw / memcpy is (n-1)/n^2 (0.19 for 4 ranks), whatever the
  // algorithm; the target 0.5 would take traffic at 2.7 times memcpy's rate.
  const double n = ranks;
  RatioRow busbw{label + "busbw vs memcpy", name, name, "busbw_bytes_per_second", kPairedMemcpyCounter, 0.5};
  busbw.ceiling = (n - 1) / (n * n);
  rows->push_back(busbw);
}

}  // namespace infinicts::bench
