#include "perf_bench.h"

#include <algorithm>

#include "ccl_check.h"
#include "ccl_world.h"
#include "perf_data.h"
#include "cts/memory_need.h"
#include "perf_shape.h"
#include "timing/timing.h"

namespace infinicts::ccl_cases {
namespace {

using cts::ccl;
using cts::rt;

// Elements compared in each checked window of a receive buffer.
constexpr size_t kWindowElements = 1024;

struct ElementWindow {
  size_t first;
  size_t count;
};

// The start, the middle and the end of `elements`, plus the start of every block of
// `block` elements when block > 0; overlapping windows merged.
std::vector<ElementWindow> CheckedWindows(size_t elements, size_t block) {
  std::vector<size_t> starts = {0, elements / 2 >= kWindowElements / 2 ? elements / 2 - kWindowElements / 2 : 0,
                                elements >= kWindowElements ? elements - kWindowElements : 0};
  for (size_t start = block; block > 0 && start < elements; start += block) starts.push_back(start);
  std::sort(starts.begin(), starts.end());
  std::vector<ElementWindow> windows;
  for (size_t start : starts) {
    const size_t end = std::min(elements, start + kWindowElements);
    if (!windows.empty() && start <= windows.back().first + windows.back().count) {
      windows.back().count = std::max(windows.back().first + windows.back().count, end) - windows.back().first;
    } else {
      windows.push_back({start, end - start});
    }
  }
  return windows;
}

std::string OnRank(const char *call, int rank) { return std::string(call) + "(rank " + std::to_string(rank) + ")"; }

// The rank's part of the collective (root 0 for Broadcast).
CallResult IssueOnRank(const CollectivePerfParam &param, const PerfShape &shape, const World &world, int rank,
                       void *send, void *recv) {
  infinicclComm_t comm = world.comm(rank);
  infinirtStream_t stream = world.stream(rank);
  switch (param.collective) {
    case PerfCollective::kAllReduce:
      return Check(ccl().infinicclAllReduce(send, recv, shape.count, param.dtype, param.op, comm, stream),
                   OnRank("infinicclAllReduce", rank));
    case PerfCollective::kAllGather:
      return Check(ccl().infinicclAllGather(send, recv, shape.count, param.dtype, comm, stream),
                   OnRank("infinicclAllGather", rank));
    case PerfCollective::kReduceScatter:
      return Check(ccl().infinicclReduceScatter(send, recv, shape.count, param.dtype, param.op, comm, stream),
                   OnRank("infinicclReduceScatter", rank));
    case PerfCollective::kBroadcast:
      return Check(ccl().infinicclBroadcast(send, recv, shape.count, param.dtype, 0, comm, stream),
                   OnRank("infinicclBroadcast", rank));
    case PerfCollective::kAllGatherV:
      return Check(ccl().infinicclAllGatherV(send, recv, shape.counts.data(), world.size(), param.dtype, comm, stream),
                   OnRank("infinicclAllGatherV", rank));
    case PerfCollective::kReduceScatterV:
      return Check(ccl().infinicclReduceScatterV(send, recv, shape.counts.data(), world.size(), param.dtype,
                                                 param.op, comm, stream),
                   OnRank("infinicclReduceScatterV", rank));
  }
  return Check(INFINI_STATUS_BAD_PARAM, "an unknown collective (a bug of the suite)");
}

// With one rank per process every process must issue as many collectives as the others:
// a fixed warm-up and count, one launch a sample, nothing chosen from what a clock read.
timing::Options SameOnEveryRank(timing::Options options) {
  options.warmup_ms = 0;
  options.min_warmup = 3;
  options.budget_ms = 0;
  options.min_iterations = 20;
  options.max_iterations = 20;
  options.max_launches_per_sample = 1;
  return options;
}

}  // namespace

void RunCollectivePerf(const CollectivePerfParam &param) {
  const int available = RankCapacity();
  const char *unit = RankCapacityUnit();
  if (available < 2) GTEST_SKIP() << "a collective needs 2 " << unit << "; the run has " << available;
  const int ranks = param.ranks == kAllRanks ? available : param.ranks;
  if (ranks > available) GTEST_SKIP() << "needs " << ranks << " " << unit << "; the run has " << available;
  if (param.ranks == kAllRanks && ranks == 2 && !param.swept) GTEST_SKIP() << "the run has 2 " << unit << ": the ranks_2 case measures them all";
  const PerfShape shape = ShapeOf(param.collective, param.dtype, param.bytes, ranks);
  if (shape.count == 0) GTEST_SKIP() << param.bytes << " bytes leave no element per rank over " << ranks << " ranks";
  const PerfData data(param.collective, param.dtype, param.op, ranks, shape);
  if (!data.Exact())
    GTEST_SKIP() << "no exact " << OpName(param.op) << " in " << NumberDtypeName(param.dtype) << " over " << ranks
                 << " ranks";

  const size_t element = ElementSize(param.dtype);
  const size_t send_bytes = shape.send_elements * element, recv_bytes = shape.recv_elements * element;
  const timing::Options options =
      cts::Spread() ? SameOnEveryRank(timing::OptionsFromEnvironment()) : timing::OptionsFromEnvironment();
  const size_t device_bytes =
      send_bytes + recv_bytes + 4 * DeviceMemory::kGuardBytes + (options.cold_cache ? options.flush_bytes : 0);
  const std::vector<int> devices = FirstDevices(ranks);
  // The host stages one rank's send buffer at a time.
  const std::vector<int> own_devices = cts::Spread() ? std::vector<int>(devices.begin(), devices.begin() + 1) : devices;
  if (auto missing = cts::MissingMemory(own_devices, device_bytes, send_bytes)) GTEST_SKIP() << *missing;

  World world;
  CCL_ASSERT_OK(world.Open(devices));
  std::vector<DeviceMemory *> send(ranks), recv(ranks);
  for (int r : world.local_ranks()) {
    CCL_ASSERT_OK(world.Allocate(r, send_bytes, &send[r]));
    CCL_ASSERT_OK(world.Allocate(r, recv_bytes, &recv[r]));
    const Bytes content = data.SendBuffer(r);
    CCL_ASSERT_OK(send[r]->Upload(content.data(), content.size()));
    // All bits set: NaN in the floating dtypes, unlike every value expected.
    CCL_ASSERT_OK(MakeCurrent(world.device(r)));
    CCL_ASSERT_OK(Check(rt().infinirtMemset(recv[r]->data(), 0xff, recv_bytes), "infinirtMemset(receive buffer)"));
  }

  CallResult failed;
  const World::RankSteps steps{
      nullptr, [&](int r) { return IssueOnRank(param, shape, world, r, send[r]->data(), recv[r]->data()); }, nullptr};
  const timing::Launch launch = [&](int) {
    const CallResult issued = world.IssueFromOneThread(steps);
    if (!issued.ok()) failed = issued;
    return issued.status;
  };
  std::vector<timing::RankStream> streams;
  for (int r : world.local_ranks()) streams.push_back({world.device(r), world.stream(r)});
  timing::Measurement measurement;
  try {
    measurement = timing::MeasureAcross(rt(), cts::device_type(), streams, launch, options);
  } catch (const timing::TimingError &error) {
    const std::string what = failed.ok() ? error.what() : failed.call + " answered " + StatusName(failed.status);
    if (cts::IsUnsupportedStatus(error.status())) GTEST_SKIP() << cts::kUnsupportedPrefix << what;
    FAIL() << "the measurement failed: " << what;
  }
  CCL_ASSERT_OK(world.Synchronize());

  // Every timed iteration wrote the same result; the last one is checked.
  MismatchLog log;
  const bool gathers = param.collective == PerfCollective::kAllGather || param.collective == PerfCollective::kAllGatherV;
  const size_t block = gathers ? shape.count : 0;
  const bool uneven_receive = param.collective == PerfCollective::kReduceScatterV;
  for (int r : world.local_ranks()) {
    const size_t received = uneven_receive ? shape.BlockCount(r) : shape.recv_elements;
    for (const ElementWindow &window : CheckedWindows(received, block)) {
      Bytes got(window.count * element);
      CCL_ASSERT_OK(recv[r]->Download(got.data(), got.size(), window.first * element));
      const Bytes expected = data.ExpectedReceive(r, window.first, window.count);
      const std::string what = "receive window from element " + std::to_string(window.first) + ",";
      log.Compare(param.dtype, /*within_ulps=*/false, r, what.c_str(), expected.data(), got.data(), window.count);
    }
    EXPECT_TRUE(recv[r]->GuardsIntact()) << "rank " << r << "'s receive buffer";
  }
  ExpectNoMismatch(log);

  timing::RecordMeasurement(measurement);
  cts::RecordMetric("bytes", static_cast<double>(shape.bytes));
  cts::RecordMetric("ranks", ranks);
  // GB of 1e9 bytes, as nccl-tests counts them. A median below the clock's resolution
  // reads 0 and gives no bandwidth.
  if (measurement.stats.median_ms > 0) {
    const double algbw = static_cast<double>(shape.bytes) / (measurement.stats.median_ms * 1e6);
    cts::RecordMetric("algbw_gbytes_per_s", algbw);
    cts::RecordMetric("busbw_gbytes_per_s", algbw * shape.bus_factor);
  }
  CCL_ASSERT_OK(world.Close());
}

}  // namespace infinicts::ccl_cases
