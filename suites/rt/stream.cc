// Subject `stream`: creation, stream order, many independent streams, the NULL
// stream, destruction with pending work (spec section RT-STREAM, minimal level).
// Every ordering case pairs two operations whose result tells which ran last, so a
// backend that runs a copy late (for instance at the next synchronize) is caught.
#include <algorithm>

#include "cts/case.h"
#include "rt_chain.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

class StreamCase : public cts::CaseBase {};

CTS_PROBE_F(StreamCase, create_null, "conformance", "stream", "RT-STREAM-1") {
  CTS_ASSERT_STATUS(rt().infinirtStreamCreate(nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(StreamCase, destroy_null, "conformance", "stream", "RT-STREAM-8") {
  CTS_SHOULD_ANSWER(rt().infinirtStreamDestroy(nullptr), "destroy_null_as_recommended", INFINI_STATUS_BAD_PARAM);
}

// A stream of its own is recommended (RT-STREAM-10); the NULL stream, which a runtime that runs
// work at the call hands out, is conformant; a stream still live is not.
CTS_TEST_F(StreamCase, create_distinct, "conformance", "stream", "RT-STREAM-2", "RT-STREAM-10") {
  constexpr int kStreams = 3;
  constexpr size_t kBytes = 4099;
  auto rng = CaseRng();
  std::vector<std::unique_ptr<ScopedStream>> streams;
  std::vector<infinirtStream_t> raws;
  void *device = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, kBytes), device, kBytes);
  ScopedDeviceMemory hold(device);
  bool own_streams = true;
  for (int i = 0; i < kStreams; ++i) {
    infinirtStream_t raw = nullptr;
    CTS_CHECK_OK(rt().infinirtStreamCreate(&raw));
    streams.push_back(std::make_unique<ScopedStream>(raw));
    own_streams = own_streams && raw != nullptr;
    for (infinirtStream_t earlier : raws) {
      if (earlier == raw && raw != nullptr)
        FAIL() << "RT-STREAM-2: infinirtStreamCreate answered a stream that is still live, expected a new one";
    }
    raws.push_back(raw);
    // Each is a stream of the current device that the async calls accept.
    const std::vector<uint8_t> data = RandomBytes(rng, kBytes);
    std::vector<uint8_t> back = Complement(data);
    CTS_CHECK_OK(rt().infinirtMemcpyAsync(device, data.data(), kBytes, INFINIRT_MEMCPY_H2D, raw));
    CTS_CHECK_OK(rt().infinirtMemcpyAsync(back.data(), device, kBytes, INFINIRT_MEMCPY_D2H, raw));
    CTS_CHECK_OK(rt().infinirtStreamSynchronize(raw));
    EXPECT_TRUE(SameBytes(data.data(), back.data(), kBytes)) << "a round trip on created stream " << i + 1;
  }
  cts::RecordMetric("stream_of_its_own", own_streams ? 1 : 0);  // RT-STREAM-10, a SHOULD
}

// Two stream-ordered operations over the same bytes; the later one must win.
enum class Order { kCopyThenMemset, kMemsetThenCopy, kDeviceCopyThenMemsetSource, kReadBackThenMemset };

const char *OrderName(Order order) {
  switch (order) {
    case Order::kCopyThenMemset: return "copy_then_memset";
    case Order::kMemsetThenCopy: return "memset_then_copy";
    case Order::kDeviceCopyThenMemsetSource: return "d2d_then_memset_source";
    case Order::kReadBackThenMemset: return "d2h_then_memset";
  }
  return "order";
}

struct OrderParam : Param<OrderParam> {
  Order order;
  size_t bytes;
  OrderParam(Order o, size_t b) : order(o), bytes(b) {}
  std::string Name() const { return std::string(OrderName(order)) + "__" + SizeName(bytes); }
  std::string Json() const { return nlohmann::json{{"order", OrderName(order)}, {"bytes", bytes}}.dump(); }
};

std::vector<OrderParam> OrderMatrix() {
  std::vector<OrderParam> params;
  for (Order order : {Order::kCopyThenMemset, Order::kMemsetThenCopy, Order::kDeviceCopyThenMemsetSource,
                      Order::kReadBackThenMemset}) {
    // 64 MiB copies are left to the memory and event cases: the order is what matters here.
    for (size_t bytes : {size_t{1}, size_t{4097}, (size_t{1} << 20) + 3}) params.emplace_back(order, bytes);
  }
  return params;
}

class StreamOrder : public cts::ParamCase<OrderParam> {};

CTS_TEST_P(StreamOrder, in_order, "stream", "RT-STREAM-4", "RT-STREAM-6", "RT-MEM-16", "RT-MEM-19") {
  const size_t bytes = GetParam().bytes;
  auto rng = CaseRng();
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);
  const int value = static_cast<int>(rng());
  const uint8_t fill = static_cast<uint8_t>(value);
  // The second operation covers an odd-sized window at an odd offset (all of a 1-byte buffer).
  const size_t offset = bytes > 2 ? RandomOddIn(rng, 1, bytes / 4) : 0;
  const size_t length = bytes > 2 ? RandomOddIn(rng, 1, bytes - offset - 1) : bytes;

  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));  // the NULL stream keeps its order too
  ScopedStream stream(raw);
  void *x = nullptr, *y = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&x, bytes), x, bytes);
  ScopedDeviceMemory hold_x(x);
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&y, bytes), y, bytes);
  ScopedDeviceMemory hold_y(y);
  auto *x_bytes = static_cast<uint8_t *>(x);

  std::vector<uint8_t> expected_x, expected_other;
  // The D2H destination of kReadBackThenMemset, pinned: read right after the synchronize.
  void *host_target = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMallocHost(&host_target, bytes), host_target, bytes);
  ScopedHostMemory hold_host_target(host_target);
  switch (GetParam().order) {
    case Order::kCopyThenMemset:
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(x, data.data(), bytes, INFINIRT_MEMCPY_H2D, raw));
      CTS_ASSERT_OK(rt().infinirtMemsetAsync(x_bytes + offset, value, length, raw));
      expected_x = data;
      std::fill_n(expected_x.begin() + offset, length, fill);
      break;
    case Order::kMemsetThenCopy:
      CTS_ASSERT_OK(rt().infinirtMemsetAsync(x, value, bytes, raw));
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(x_bytes + offset, data.data() + offset, length, INFINIRT_MEMCPY_H2D, raw));
      expected_x.assign(bytes, fill);
      std::copy_n(data.begin() + offset, length, expected_x.begin() + offset);
      break;
    case Order::kDeviceCopyThenMemsetSource:
      CTS_ASSERT_OK(rt().infinirtMemcpy(x, data.data(), bytes, INFINIRT_MEMCPY_H2D));
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(y, x, bytes, INFINIRT_MEMCPY_D2D, raw));
      CTS_ASSERT_OK(rt().infinirtMemsetAsync(x, value, bytes, raw));
      expected_x.assign(bytes, fill);
      expected_other = data;  // y holds x as it was before the memset
      break;
    case Order::kReadBackThenMemset:
      CTS_ASSERT_OK(rt().infinirtMemcpy(x, data.data(), bytes, INFINIRT_MEMCPY_H2D));
      {
        const std::vector<uint8_t> complement = Complement(data);
        std::copy(complement.begin(), complement.end(), static_cast<uint8_t *>(host_target));
      }
      CTS_ASSERT_OK(rt().infinirtMemcpyAsync(host_target, x, bytes, INFINIRT_MEMCPY_D2H, raw));
      CTS_ASSERT_OK(rt().infinirtMemsetAsync(x, value, bytes, raw));
      expected_x.assign(bytes, fill);
      expected_other = data;  // the host copy holds x as it was before the memset
      break;
  }
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(raw));
  // Before any other runtime call: a blocking Memcpy may wait for the stream by itself.
  if (GetParam().order == Order::kReadBackThenMemset) {
    EXPECT_TRUE(SameBytes(expected_other.data(), host_target, bytes))
        << "the D2H copy made before the memset, read from pinned memory right after StreamSynchronize";
  }

  std::vector<uint8_t> back = Complement(expected_x);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), x, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(expected_x.data(), back.data(), bytes)) << "the buffer both operations wrote";
  if (GetParam().order == Order::kDeviceCopyThenMemsetSource) {
    std::vector<uint8_t> y_back = Complement(expected_other);
    CTS_ASSERT_OK(rt().infinirtMemcpy(y_back.data(), y, bytes, INFINIRT_MEMCPY_D2H));
    EXPECT_TRUE(SameBytes(expected_other.data(), y_back.data(), bytes)) << "the D2D copy made before the memset";
  }
}

struct ManyStreamsParam : Param<ManyStreamsParam> {
  int streams;
  DevicePick pick;
  ManyStreamsParam(int s, DevicePick p) : streams(s), pick(p) {}
  std::string Name() const { return std::string(PickName(pick)) + "__streams_" + std::to_string(streams); }
  std::string Json() const { return nlohmann::json{{"device", PickName(pick)}, {"streams", streams}}.dump(); }
};

std::vector<ManyStreamsParam> ManyStreamsMatrix() {
  std::vector<ManyStreamsParam> params;
  for (DevicePick pick : kBothDevices) {
    for (int streams : {1, 8, 32}) params.emplace_back(streams, pick);
  }
  return params;
}

class ManyStreams : public cts::ParamCase<ManyStreamsParam> {};

CTS_TEST_P(ManyStreams, independent_streams, "stream", "RT-STREAM-4", "RT-STREAM-5", "RT-STREAM-6") {
  constexpr int kOpsPerStream = 16;
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), PickedId(GetParam().pick)));
  auto rng = CaseRng();
  std::vector<std::unique_ptr<ScopedStream>> streams;
  std::vector<std::unique_ptr<StreamChain>> chains;
  for (int i = 0; i < GetParam().streams; ++i) {
    infinirtStream_t raw = nullptr;
    CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
    streams.push_back(std::make_unique<ScopedStream>(raw));
  }
  std::vector<void *> raws;
  for (const auto &stream : streams) raws.push_back(stream->get());
  CTS_REQUIRE_DISTINCT_STREAMS(raws);
  // Long work before each read-back (rt_pending.h), 16 MiB in all, so a StreamSynchronize that
  // returns early finds its stream's read-back unwritten.
  std::vector<PendingWork> behind(streams.size());
  for (PendingWork &work : behind) {
    work.Prepare(std::max<size_t>((16 << 20) / streams.size(), 256 << 10));
    if (HasFatalFailure() || IsSkipped()) return;
  }
  for (const auto &stream : streams) {
    const uint64_t seed = rng();
    chains.push_back(std::make_unique<StreamChain>(seed, RandomOddIn(rng, 64 << 10, 256 << 10)));
    CTS_ASSERT_CHAIN_OK(*chains.back(), Start(stream->get()));
  }
  // Interleaved enqueueing: each stream's result may depend only on its own operations.
  for (int op = 0; op < kOpsPerStream; ++op) {
    for (size_t i = 0; i < chains.size(); ++i) CTS_ASSERT_CHAIN_OK(*chains[i], EnqueueNext(streams[i]->get()));
  }
  for (size_t i = 0; i < chains.size(); ++i) CTS_ASSERT_CHAIN_OK(*chains[i], Finish(streams[i]->get(), &behind[i]));
  // Each stream's pinned results right after its own StreamSynchronize; the blocking
  // read-backs, which could wait by themselves, only once every stream was checked.
  for (size_t i = 0; i < chains.size(); ++i) {
    CTS_ASSERT_OK(rt().infinirtStreamSynchronize(streams[i]->get()));
    EXPECT_TRUE(chains[i]->VerifyObserved()) << "stream " << i << " of " << chains.size();
  }
  for (size_t i = 0; i < chains.size(); ++i) EXPECT_TRUE(chains[i]->Verify()) << "stream " << i << " of " << chains.size();
}

class StreamOnPick : public cts::ParamCase<DeviceParam> {};

CTS_TEST_P(StreamOnPick, null_stream_in_order, "stream", "RT-STREAM-3", "RT-STREAM-4", "RT-STREAM-6") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), PickedId(GetParam().pick)));
  auto rng = CaseRng();
  const uint64_t seed = rng();
  PendingWork behind;  // long work before the read-back (rt_pending.h)
  behind.Prepare(kLargeBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  StreamChain chain(seed, RandomOddIn(rng, 1 << 20, 4 << 20));
  CTS_ASSERT_CHAIN_OK(chain, Enqueue(nullptr, 24, &behind));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  EXPECT_TRUE(chain.Verify());
}

CTS_TEST_P(StreamOnPick, destroy_with_pending_work, "stream", "RT-STREAM-9") {
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), PickedId(GetParam().pick)));
  auto rng = CaseRng();
  infinirtStream_t raw = nullptr;
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
  ScopedStream stream(raw);
  // A runtime that hands out the NULL stream destroys what it handed out, and loses no work.
  if (raw == nullptr) cts::NoteHowItRan("destroyed the NULL stream, which infinirtStreamCreate handed out");
  const uint64_t seed = rng();
  StreamChain chain(seed, RandomOddIn(rng, 4 << 20, 8 << 20));
  CTS_ASSERT_CHAIN_OK(chain, Enqueue(raw, 12));
  CTS_ASSERT_OK(rt().infinirtStreamDestroy(stream.Release()));
  CTS_ASSERT_OK(rt().infinirtDeviceSynchronize());
  EXPECT_TRUE(chain.Verify()) << "work enqueued before infinirtStreamDestroy";
}

INSTANTIATE_TEST_SUITE_P(conformance, StreamOrder, testing::ValuesIn(OrderMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, ManyStreams, testing::ValuesIn(ManyStreamsMatrix()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, StreamOnPick, testing::ValuesIn(DeviceParams()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
