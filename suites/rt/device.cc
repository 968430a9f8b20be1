// Subject `device`: init, device counts, the per-thread current device, memory info
// and device-wide synchronisation (spec sections RT-DEV, minimal level).
#include <climits>
#include <future>
#include <optional>
#include <thread>

#include "cts/case.h"
#include "rt_chain.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

class DeviceCase : public cts::CaseBase {};
class DeviceOnPick : public cts::ParamCase<DeviceParam> {};

int CountOf(infiniDevice_t type) {
  int count = 0;
  if (rt().infinirtGetDeviceCount(type, &count) != INFINI_STATUS_SUCCESS) return 0;
  return count;
}

// A type of which the backend has no device, if there is one.
std::optional<infiniDevice_t> AbsentType() {
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    if (CountOf(static_cast<infiniDevice_t>(type)) == 0) return static_cast<infiniDevice_t>(type);
  }
  return std::nullopt;
}

testing::AssertionResult IsCurrent(infiniDevice_t type, int id) {
  infiniDevice_t got_type = INFINI_DEVICE_TYPE_COUNT;
  int got_id = -1;
  const infiniStatus_t status = rt().infinirtGetDevice(&got_type, &got_id);
  if (status != INFINI_STATUS_SUCCESS)
    return testing::AssertionFailure() << "infinirtGetDevice answered " << StatusName(status);
  if (got_type != type || got_id != id)
    return testing::AssertionFailure() << "the current device is (" << DeviceTypeName(got_type) << ", " << got_id
                                       << "), expected (" << DeviceTypeName(type) << ", " << id << ")";
  return testing::AssertionSuccess();
}

CTS_TEST_F(DeviceCase, init_is_idempotent, "conformance", "device", "RT-DEV-1") {
  const int last = cts::device_ids().back();
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), last));
  for (int call = 0; call < 3; ++call) CTS_ASSERT_OK(rt().infinirtInit());
  EXPECT_TRUE(IsCurrent(cts::device_type(), last)) << "infinirtInit changed the current device";
  int count = 0;
  CTS_ASSERT_OK(rt().infinirtGetDeviceCount(cts::device_type(), &count));
  EXPECT_GE(count, static_cast<int>(cts::device_ids().size())) << "infinirtInit changed the device count";
}

CTS_PROBE_F(DeviceCase, all_device_count_null, "conformance", "device", "RT-DEV-2") {
  CTS_ASSERT_STATUS(rt().infinirtGetAllDeviceCount(nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_TEST_F(DeviceCase, counts_agree_with_all_device_count, "conformance", "device", "RT-DEV-3", "RT-DEV-5") {
  std::vector<int> all(INFINI_DEVICE_TYPE_COUNT, -7);
  CTS_ASSERT_OK(rt().infinirtGetAllDeviceCount(all.data()));
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    EXPECT_GE(all[type], 0) << "GetAllDeviceCount entry for " << DeviceTypeName(type);
    int count = -7;
    CTS_ASSERT_OK(rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &count));
    EXPECT_EQ(count, all[type]) << "GetDeviceCount and GetAllDeviceCount disagree for " << DeviceTypeName(type);
  }
  EXPECT_GE(all[cts::device_type()], static_cast<int>(cts::device_ids().size()))
      << "fewer " << DeviceTypeName(cts::device_type()) << " devices than the run uses";
}

CTS_PROBE_F(DeviceCase, device_count_null, "conformance", "device", "RT-DEV-4") {
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    SCOPED_TRACE(DeviceTypeName(type));
    CTS_ASSERT_STATUS(rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), nullptr),
                      INFINI_STATUS_NULL_POINTER);
  }
}

CTS_PROBE_F(DeviceCase, device_count_bad_type, "conformance", "device", "RT-DEV-6") {
  for (int type : {-1, static_cast<int>(INFINI_DEVICE_TYPE_COUNT), INFINI_DEVICE_TYPE_COUNT + 1000, INT_MIN}) {
    SCOPED_TRACE("type " + std::to_string(type));
    int count = 5;
    CTS_ASSERT_STATUS(rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &count),
                      INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(count, 0) << "*count after an out-of-range type";
  }
}

CTS_PROBE_F(DeviceCase, get_device_null, "conformance", "device", "RT-DEV-12") {
  CTS_ASSERT_STATUS(rt().infinirtGetDevice(nullptr, nullptr), INFINI_STATUS_NULL_POINTER);
  // Either alone may be NULL: the other is filled (InfiniCore's own InfiniCCL asks for the type alone).
  const int last = cts::device_ids().back();
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), last));
  infiniDevice_t type = INFINI_DEVICE_TYPE_COUNT;
  int id = -1;
  CTS_CHECK_OK(rt().infinirtGetDevice(&type, nullptr));
  CTS_CHECK_OK(rt().infinirtGetDevice(nullptr, &id));
  EXPECT_EQ(DeviceTypeName(type), DeviceTypeName(cts::device_type())) << "GetDevice(&type, NULL) gave the type";
  EXPECT_EQ(id, last) << "GetDevice(NULL, &id) gave the id";
}

CTS_TEST_F(DeviceCase, new_thread_current_device, "conformance", "device", "RT-DEV-14", "RT-DEV-15") {
  // The main thread moves away from the first device, so a backend that shares one
  // current device between threads is not mistaken for a per-thread default.
  CTS_ASSERT_OK(rt().infinirtSetDevice(cts::device_type(), cts::device_ids().back()));
  infiniStatus_t status = INFINI_STATUS_INTERNAL_ERROR;
  infiniDevice_t type = INFINI_DEVICE_TYPE_COUNT;
  int id = -1;
  std::thread([&] { status = rt().infinirtGetDevice(&type, &id); }).join();
  CTS_ASSERT_OK_AS(status, "infinirtGetDevice(&type, &id) on a new thread", true);
  ASSERT_GE(static_cast<int>(type), 0);
  ASSERT_LT(static_cast<int>(type), static_cast<int>(INFINI_DEVICE_TYPE_COUNT));
  const bool cpu_zero = type == INFINI_DEVICE_CPU && id == 0;
  cts::RecordMetric("new_thread_at_cpu0", cpu_zero ? 1 : 0);
  // RT-DEV-15 is a SHOULD: it binds where the device under test is the CPU.
  if (cts::device_type() == INFINI_DEVICE_CPU) {
    EXPECT_TRUE(cpu_zero) << "a new thread starts at (" << DeviceTypeName(type) << ", " << id << "), expected (cpu, 0)";
  }
}

CTS_TEST_F(DeviceCase, current_device_is_per_thread, "conformance", "device", "RT-DEV-13") {
  const auto &ids = cts::device_ids();
  if (ids.size() < 2) GTEST_SKIP() << "needs two devices; the run has one";
  const infiniDevice_t type = cts::device_type();
  const int first = ids.front(), last = ids.back();
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, first));

  std::promise<infiniStatus_t> worker_set;
  std::promise<void> main_switched;
  std::promise<testing::AssertionResult> worker_saw;
  std::thread worker([&] {
    worker_set.set_value(rt().infinirtSetDevice(type, last));
    main_switched.get_future().wait();
    worker_saw.set_value(IsCurrent(type, last));
  });
  const infiniStatus_t worker_status = worker_set.get_future().get();
  const testing::AssertionResult main_after_worker = IsCurrent(type, first);
  const infiniStatus_t main_to_last = rt().infinirtSetDevice(type, last);
  const infiniStatus_t main_to_first = rt().infinirtSetDevice(type, first);
  main_switched.set_value();
  const testing::AssertionResult worker_after_main = worker_saw.get_future().get();
  worker.join();

  CTS_ASSERT_OK(worker_status);
  CTS_ASSERT_OK(main_to_last);
  CTS_ASSERT_OK(main_to_first);
  EXPECT_TRUE(main_after_worker) << "after another thread set device " << last;
  EXPECT_TRUE(worker_after_main) << "on the other thread, after this thread switched devices";
}

CTS_TEST_P(DeviceOnPick, set_get_round_trip, "device", "RT-DEV-7") {
  const infiniDevice_t type = cts::device_type();
  const int picked = PickedId(GetParam().pick);
  for (int id : {picked, cts::device_ids().front(), picked}) {
    CTS_ASSERT_OK(rt().infinirtSetDevice(type, id));
    EXPECT_TRUE(IsCurrent(type, id));
  }
}

CTS_TEST_P(DeviceOnPick, set_again_is_noop, "device", "RT-DEV-8") {
  const infiniDevice_t type = cts::device_type();
  const int picked = PickedId(GetParam().pick);
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 1 << 20, 2 << 20);
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, picked));
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  const int value = static_cast<int>(rng());
  // Work pending on the default stream must survive the repeated set.
  CTS_ASSERT_OK(rt().infinirtMemsetAsync(p, value, bytes, nullptr));
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, picked));
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, picked));
  EXPECT_TRUE(IsCurrent(type, picked));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(nullptr));
  std::vector<uint8_t> back(bytes, static_cast<uint8_t>(~value));
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), p, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(AllBytesAre(back.data(), bytes, static_cast<uint8_t>(value)));
}

// Each way SetDevice can be wrong, and the status it must answer.
enum class BadSet { kTypeNegative, kTypePastCount, kTypeAbsent, kIdNegative, kIdPastCount, kIdIntMax };

struct BadSetParam : Param<BadSetParam> {
  DevicePick start;
  BadSet bad;
  BadSetParam(DevicePick s, BadSet b) : start(s), bad(b) {}
  const char *BadName() const {
    switch (bad) {
      case BadSet::kTypeNegative: return "type_negative";
      case BadSet::kTypePastCount: return "type_past_count";
      case BadSet::kTypeAbsent: return "type_absent";
      case BadSet::kIdNegative: return "id_negative";
      case BadSet::kIdPastCount: return "id_past_count";
      case BadSet::kIdIntMax: return "id_int_max";
    }
    return "bad";
  }
  std::string Name() const { return std::string(PickName(start)) + "__" + BadName(); }
  std::string Json() const { return nlohmann::json{{"device", PickName(start)}, {"bad_input", BadName()}}.dump(); }
};

std::vector<BadSetParam> BadSetMatrix() {
  std::vector<BadSetParam> params;
  for (DevicePick pick : kBothDevices) {
    for (BadSet bad : {BadSet::kTypeNegative, BadSet::kTypePastCount, BadSet::kTypeAbsent, BadSet::kIdNegative,
                       BadSet::kIdPastCount, BadSet::kIdIntMax})
      params.emplace_back(pick, bad);
  }
  return params;
}

class SetDeviceRejects : public cts::ParamCase<BadSetParam> {};

CTS_PROBE_P(SetDeviceRejects, set_device_rejects, "device", "RT-DEV-9", "RT-DEV-10", "RT-DEV-11") {
  const infiniDevice_t type = cts::device_type();
  const int start = PickedId(GetParam().start);
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, start));
  int bad_type = type, bad_id = start;
  infiniStatus_t expected = INFINI_STATUS_DEVICE_NOT_FOUND;
  switch (GetParam().bad) {
    case BadSet::kTypeNegative: bad_type = -1; break;
    case BadSet::kTypePastCount: bad_type = INFINI_DEVICE_TYPE_COUNT; break;
    case BadSet::kTypeAbsent: {
      const auto absent = AbsentType();
      if (!absent) GTEST_SKIP() << "the backend has devices of every type";
      bad_type = *absent;
      bad_id = 0;
      break;
    }
    case BadSet::kIdNegative: bad_id = -1; break;
    case BadSet::kIdPastCount: bad_id = CountOf(type); break;
    case BadSet::kIdIntMax: bad_id = INT_MAX; break;
  }
  if (bad_type != type) expected = INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  const infiniStatus_t status = rt().infinirtSetDevice(static_cast<infiniDevice_t>(bad_type), bad_id);
  EXPECT_EQ(StatusName(status), StatusName(expected))
      << "infinirtSetDevice(" << DeviceTypeName(bad_type) << ", " << bad_id << ")";
  EXPECT_TRUE(IsCurrent(type, start)) << "after the failed infinirtSetDevice(" << DeviceTypeName(bad_type) << ", "
                                      << bad_id << ")";
}

CTS_TEST_P(DeviceOnPick, identity_across_switches, "device", "RT-DEV-16") {
  const infiniDevice_t type = cts::device_type();
  const int picked = PickedId(GetParam().pick);
  const int other = picked == cts::device_ids().front() ? cts::device_ids().back() : cts::device_ids().front();
  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 4097, 1 << 20);
  const std::vector<uint8_t> data = RandomBytes(rng, bytes);

  CTS_ASSERT_OK(rt().infinirtSetDevice(type, picked));
  void *mine = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&mine, bytes), mine, bytes);
  ScopedDeviceMemory hold_mine(mine);
  CTS_ASSERT_OK(rt().infinirtMemcpy(mine, data.data(), bytes, INFINIRT_MEMCPY_H2D));

  CTS_ASSERT_OK(rt().infinirtSetDevice(type, other));
  void *theirs = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&theirs, bytes), theirs, bytes);
  ScopedDeviceMemory hold_theirs(theirs);
  CTS_ASSERT_OK(rt().infinirtMemset(theirs, static_cast<int>(rng()), bytes));
  CTS_ASSERT_OK(rt().infinirtDeviceSynchronize());

  CTS_ASSERT_OK(rt().infinirtSetDevice(type, picked));
  std::vector<uint8_t> back = Complement(data);
  CTS_ASSERT_OK(rt().infinirtMemcpy(back.data(), mine, bytes, INFINIRT_MEMCPY_D2H));
  EXPECT_TRUE(SameBytes(data.data(), back.data(), bytes)) << "device " << picked << "'s memory after a visit to "
                                                          << other;
}

CTS_PROBE_F(DeviceCase, mem_info_null, "conformance", "device", "RT-DEV-17") {
  size_t value = 0;
  const infiniDevice_t type = cts::device_type();
  const int id = cts::device_ids().front();
  CTS_ASSERT_STATUS(rt().infinirtGetMemInfo(type, id, nullptr, &value), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(rt().infinirtGetMemInfo(type, id, &value, nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(DeviceCase, mem_info_bad_device, "conformance", "device", "RT-DEV-18") {
  size_t free_bytes = 0, total_bytes = 0;
  const infiniDevice_t type = cts::device_type();
  std::vector<int> bad_types = {-1, INFINI_DEVICE_TYPE_COUNT};
  if (const auto absent = AbsentType()) bad_types.push_back(*absent);
  for (int bad_type : bad_types) {
    SCOPED_TRACE("type " + DeviceTypeName(bad_type));
    CTS_ASSERT_STATUS(rt().infinirtGetMemInfo(static_cast<infiniDevice_t>(bad_type), 0, &free_bytes, &total_bytes),
                      INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED);
  }
  for (int bad_id : {-1, CountOf(type), INT_MAX}) {
    SCOPED_TRACE("id " + std::to_string(bad_id));
    CTS_ASSERT_STATUS(rt().infinirtGetMemInfo(type, bad_id, &free_bytes, &total_bytes),
                      INFINI_STATUS_DEVICE_NOT_FOUND);
  }
}

CTS_TEST_F(DeviceCase, device_synchronize_waits_for_every_stream, "conformance", "device", "RT-DEV-20",
           "RT-STREAM-3") {
  constexpr int kCreatedStreams = 3;
  auto rng = CaseRng();
  std::vector<std::unique_ptr<ScopedStream>> streams;
  std::vector<infinirtStream_t> targets = {nullptr};  // the default stream too
  for (int i = 0; i < kCreatedStreams; ++i) {
    infinirtStream_t stream = nullptr;
    CTS_ASSERT_OK(rt().infinirtStreamCreate(&stream));
    streams.push_back(std::make_unique<ScopedStream>(stream));
    targets.push_back(stream);
  }
  // Long work on every stream before its chain's read-back, so a DeviceSynchronize that returns
  // early, or waits for some streams only, leaves read-backs unwritten.
  std::vector<PendingWork> behind(targets.size());
  for (PendingWork &work : behind) {
    work.Prepare(kLargeBytes);
    if (HasFatalFailure() || IsSkipped()) return;
  }
  std::vector<std::unique_ptr<StreamChain>> chains;
  for (size_t i = 0; i < targets.size(); ++i) {
    const uint64_t seed = rng();
    chains.push_back(std::make_unique<StreamChain>(seed, RandomOddIn(rng, 2 << 20, 4 << 20)));
    CTS_ASSERT_CHAIN_OK(*chains.back(), Enqueue(targets[i], 12, &behind[i]));
  }
  CTS_ASSERT_OK(rt().infinirtDeviceSynchronize());
  const auto where = [](size_t i) { return i == 0 ? std::string("on the NULL stream") : "on created stream " + std::to_string(i); };
  // Every chain's pinned results before any blocking read-back, which could wait by itself.
  for (size_t i = 0; i < chains.size(); ++i) EXPECT_TRUE(chains[i]->VerifyObserved()) << where(i);
  for (size_t i = 0; i < chains.size(); ++i) EXPECT_TRUE(chains[i]->Verify()) << where(i);
}

INSTANTIATE_TEST_SUITE_P(conformance, DeviceOnPick, testing::ValuesIn(DeviceParams()), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, SetDeviceRejects, testing::ValuesIn(BadSetMatrix()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
