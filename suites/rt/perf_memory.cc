// Subject `memory`, mode perf: copy bandwidth of every kind from pinned
// (infinirtMallocHost) and pageable host memory, over sizes from 4 KiB to 64 MiB
// (1 GiB in the full profile), and the latency of a one-byte copy. Copies are timed with
// timing::Measure on a created stream; every destination is then checked at its start,
// middle and end, so a copy that is fast because it is wrong fails.
#include <algorithm>
#include <memory>
#include <new>

#include "cts/case.h"
#include "cts/memory_need.h"
#include "perf_pattern.h"
#include "perf_timing.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

enum class HostMemory { kPinned, kPageable, kNone };

const char *HostMemoryName(HostMemory host) {
  switch (host) {
    case HostMemory::kPinned: return "pinned";
    case HostMemory::kPageable: return "pageable";
    case HostMemory::kNone: return "none";
  }
  return "host";
}

bool DeviceSource(infinirtMemcpyKind_t kind) { return kind == INFINIRT_MEMCPY_D2H || kind == INFINIRT_MEMCPY_D2D; }
bool DeviceTarget(infinirtMemcpyKind_t kind) { return kind == INFINIRT_MEMCPY_H2D || kind == INFINIRT_MEMCPY_D2D; }

struct CopyPerfParam : Param<CopyPerfParam> {
  infinirtMemcpyKind_t kind;
  HostMemory host;  // of every host side; kNone for D2D
  size_t bytes;
  CopyPerfParam(infinirtMemcpyKind_t k, HostMemory h, size_t b) : kind(k), host(h), bytes(b) {}
  std::string Name() const {
    std::string name = KindName(kind);
    if (host != HostMemory::kNone) name += std::string("__") + HostMemoryName(host);
    return name + "__" + SizeName(bytes);
  }
  std::string Json() const {
    return nlohmann::json{{"kind", KindName(kind)}, {"host_memory", HostMemoryName(host)}, {"bytes", bytes}}.dump();
  }
};

// 4 KiB × 4^k up to 64 MiB, or up to 1 GiB in the full profile.
std::vector<size_t> BandwidthSizes() {
  const size_t largest = cts::FullProfile() ? size_t{1} << 30 : size_t{64} << 20;
  std::vector<size_t> sizes;
  for (size_t bytes = 4096; bytes <= largest; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

std::vector<CopyPerfParam> BandwidthMatrix() {
  std::vector<CopyPerfParam> params;
  for (infinirtMemcpyKind_t kind : {INFINIRT_MEMCPY_H2D, INFINIRT_MEMCPY_D2H, INFINIRT_MEMCPY_D2D, INFINIRT_MEMCPY_H2H}) {
    const std::vector<HostMemory> hosts = kind == INFINIRT_MEMCPY_D2D
                                              ? std::vector<HostMemory>{HostMemory::kNone}
                                              : std::vector<HostMemory>{HostMemory::kPinned, HostMemory::kPageable};
    for (HostMemory host : hosts) {
      for (size_t bytes : BandwidthSizes()) params.emplace_back(kind, host, bytes);
    }
  }
  return params;
}

// Host memory of either kind, released when it goes away. Pageable memory is page
// aligned, as a framework's host tensors are.
class HostBuffer {
 public:
  static constexpr std::align_val_t kPageAlignment{4096};

  // Answers infinirtMallocHost's status for pinned memory, SUCCESS for pageable memory.
  infiniStatus_t Allocate(HostMemory host, size_t bytes) {
    if (host == HostMemory::kPinned) {
      void *p = nullptr;
      const infiniStatus_t status = rt().infinirtMallocHost(&p, bytes);
      if (status == INFINI_STATUS_SUCCESS) pinned_ = std::make_unique<ScopedHostMemory>(p);
      data_ = static_cast<uint8_t *>(p);
      return status;
    }
    pageable_.reset(static_cast<uint8_t *>(::operator new[](bytes, kPageAlignment)));
    data_ = pageable_.get();
    return INFINI_STATUS_SUCCESS;
  }
  uint8_t *data() const { return data_; }

 private:
  struct PageableDelete {
    void operator()(uint8_t *p) const { ::operator delete[](p, kPageAlignment); }
  };
  std::unique_ptr<ScopedHostMemory> pinned_;
  std::unique_ptr<uint8_t, PageableDelete> pageable_;
  uint8_t *data_ = nullptr;
};

// Bytes compared at the start, the middle and the end of every destination.
constexpr size_t kCheckedWindowBytes = 4096;

// Device memory owned by `hold`; answers infinirtMalloc's status.
infiniStatus_t NewDeviceBuffer(size_t bytes, std::unique_ptr<ScopedDeviceMemory> *hold, uint8_t **pointer) {
  void *p = nullptr;
  const infiniStatus_t status = rt().infinirtMalloc(&p, bytes);
  if (status == INFINI_STATUS_SUCCESS) *hold = std::make_unique<ScopedDeviceMemory>(p);
  *pointer = static_cast<uint8_t *>(p);
  return status;
}

class CopyBandwidth : public cts::ParamCase<CopyPerfParam> {};

CTS_TEST_P(CopyBandwidth, memcpy_bandwidth, "memory", "RT-MEM-6", "RT-MEM-16", "RT-STREAM-6") {
  const CopyPerfParam &param = GetParam();
  const size_t bytes = param.bytes;
  const bool device_source = DeviceSource(param.kind), device_target = DeviceTarget(param.kind);
  const size_t device_sides = (device_source ? 1 : 0) + (device_target ? 1 : 0);
  // A device source is filled from a pageable staging buffer.
  const size_t host_bytes = (2 - device_sides) * bytes + (device_source ? bytes : 0);
  if (auto missing = cts::MissingMemory({cts::device_ids().front()}, device_sides * bytes, host_bytes)) {
    GTEST_SKIP() << *missing;
  }

  const uint64_t seed = cts::CaseSeed();
  HostBuffer host_source, host_target;
  std::unique_ptr<ScopedDeviceMemory> hold_source, hold_target;
  uint8_t *source = nullptr, *target = nullptr;
  if (device_source) {
    RT_ASSERT_ALLOCATED(NewDeviceBuffer(bytes, &hold_source, &source), source, bytes);
    std::vector<uint8_t> staging(bytes);
    FillPattern(staging.data(), 0, bytes, seed);
    CTS_ASSERT_OK(rt().infinirtMemcpy(source, staging.data(), bytes, INFINIRT_MEMCPY_H2D));
  } else {
    RT_ASSERT_ALLOCATED(host_source.Allocate(param.host, bytes), host_source.data(), bytes);
    source = host_source.data();
    FillPattern(source, 0, bytes, seed);
  }
  // The destination starts out different from the source at every window checked.
  if (device_target) {
    RT_ASSERT_ALLOCATED(NewDeviceBuffer(bytes, &hold_target, &target), target, bytes);
    CTS_ASSERT_OK(rt().infinirtMemset(target, 0, bytes));
  } else {
    RT_ASSERT_ALLOCATED(host_target.Allocate(param.host, bytes), host_target.data(), bytes);
    target = host_target.data();
    FillPattern(target, 0, bytes, ~seed);
  }

  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  timing::Measurement measurement;
  RT_PERF_ASSERT_MEASURED(measurement = timing::Measure(
                              rt(), raw,
                              [&](int) { return static_cast<int>(rt().infinirtMemcpyAsync(target, source, bytes, param.kind, raw)); },
                              timing::OptionsFromEnvironment()));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));

  for (const ByteWindow &window : CheckedWindows(bytes, kCheckedWindowBytes)) {
    std::vector<uint8_t> read(window.count);
    const uint8_t *got = target + window.offset;
    if (device_target) {
      CTS_ASSERT_OK(rt().infinirtMemcpy(read.data(), got, window.count, INFINIRT_MEMCPY_D2H));
      got = read.data();
    }
    EXPECT_TRUE(MatchesPattern(got, window.offset, window.count, seed))
        << KindName(param.kind) << " copy of " << bytes << " bytes, destination bytes [" << window.offset << ", "
        << window.offset + window.count << ")";
  }

  timing::RecordMeasurement(measurement);
  cts::RecordMetric("bytes", static_cast<double>(bytes));
  // GB of 1e9 bytes, as bandwidth tools (nvbandwidth, nccl-tests) count them. A median
  // below the clock's resolution reads 0 and gives no bandwidth.
  if (measurement.stats.median_ms > 0) {
    cts::RecordMetric("gbytes_per_s", static_cast<double>(bytes) / (measurement.stats.median_ms * 1e6));
  }
}

class CopyLatency : public cts::ParamCase<CopyPerfParam> {};

// One byte H2D plus the stream synchronize that waits for it, on the host clock: what a
// framework pays for a tiny transfer it has to wait for.
CTS_TEST_P(CopyLatency, memcpy_async_latency, "memory", "RT-MEM-6", "RT-MEM-16", "RT-STREAM-6") {
  const CopyPerfParam &param = GetParam();
  constexpr uint8_t kByte = 0x5a;
  HostBuffer host;
  RT_ASSERT_ALLOCATED(host.Allocate(param.host, param.bytes), host.data(), param.bytes);
  std::fill_n(host.data(), param.bytes, kByte);
  std::unique_ptr<ScopedDeviceMemory> hold_target;
  uint8_t *device = nullptr;
  RT_ASSERT_ALLOCATED(NewDeviceBuffer(param.bytes, &hold_target, &device), device, param.bytes);
  CTS_ASSERT_OK(rt().infinirtMemset(device, 0, param.bytes));

  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  timing::Options options = timing::OptionsFromEnvironment();
  options.force_host_clock = true;
  options.cold_cache = false;  // a flush would be most of what is timed
  timing::Measurement measurement;
  RT_PERF_ASSERT_MEASURED(measurement = timing::Measure(
                              rt(), raw,
                              [&](int) {
                                return static_cast<int>(
                                    rt().infinirtMemcpyAsync(device, host.data(), param.bytes, param.kind, raw));
                              },
                              options));

  std::vector<uint8_t> back(param.bytes);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), device, param.bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(host.data(), back.data(), param.bytes)) << "device memory after the timed copies";

  timing::RecordMeasurement(measurement);
  cts::RecordMetric("bytes", static_cast<double>(param.bytes));
  cts::RecordMetric("latency_us_median", measurement.stats.median_ms * 1e3);
}

INSTANTIATE_TEST_SUITE_P(perf, CopyBandwidth, testing::ValuesIn(BandwidthMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, CopyLatency,
                         testing::Values(CopyPerfParam(INFINIRT_MEMCPY_H2D, HostMemory::kPinned, 1),
                                         CopyPerfParam(INFINIRT_MEMCPY_H2D, HostMemory::kPageable, 1)),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
