// Subject `resource_snapshot`: infinirtGetDeviceResourceSnapshot (spec section RT-SNAP, an
// optional part outside both levels). The snapshot is held against GetMemInfo and against
// allocations the case makes; fields whose bit is clear are not read.
#include <cmath>
#include <cstring>
#include <string>

#include "cts/case.h"
#include "rt_data.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

constexpr uint64_t kKnownFields =
    INFINIRT_RESOURCE_FIELD_MEMORY_CAPACITY | INFINIRT_RESOURCE_FIELD_COMPUTE_UTILIZATION |
    INFINIRT_RESOURCE_FIELD_MEMORY_BANDWIDTH_UTILIZATION | INFINIRT_RESOURCE_FIELD_KERNEL_TIME_RATIO |
    INFINIRT_RESOURCE_FIELD_COMMUNICATION;

// A snapshot pre-filled with junk, so that a field the backend should set and did not shows.
infinirtDeviceResourceSnapshot_t JunkSnapshot() {
  infinirtDeviceResourceSnapshot_t snapshot;
  std::memset(&snapshot, 0xa7, sizeof(snapshot));
  return snapshot;
}

class SnapshotCase : public cts::CaseBase {};

CTS_PROBE_F(SnapshotCase, null_snapshot, "conformance", "resource_snapshot", "RT-SNAP-1") {
  CTS_ASSERT_STATUS(rt().infinirtGetDeviceResourceSnapshot(cts::device_type(), cts::device_ids().front(), nullptr),
                    INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(SnapshotCase, bad_device, "conformance", "resource_snapshot", "RT-SNAP-2") {
  // A backend without the function ends unsupported here, not passing on its refusals below.
  infinirtDeviceResourceSnapshot_t snapshot = JunkSnapshot();
  CTS_ASSERT_OK(rt().infinirtGetDeviceResourceSnapshot(cts::device_type(), cts::device_ids().front(), &snapshot));
  for (int type : {-1, static_cast<int>(INFINI_DEVICE_TYPE_COUNT), 0x7fffffff}) {
    SCOPED_TRACE("device type " + std::to_string(type));
    EXPECT_EQ(rt().infinirtGetDeviceResourceSnapshot(static_cast<infiniDevice_t>(type), 0, &snapshot),
              INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED)
        << "RT-SNAP-2";
  }
  int counts[INFINI_DEVICE_TYPE_COUNT] = {};
  CTS_ASSERT_OK(rt().infinirtGetAllDeviceCount(counts));
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    if (counts[type] != 0) continue;
    EXPECT_EQ(rt().infinirtGetDeviceResourceSnapshot(static_cast<infiniDevice_t>(type), 0, &snapshot),
              INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED)
        << "RT-SNAP-2: device type " << type << ", which has no device";
    break;
  }
  const int count = counts[cts::device_type()];
  for (int id : {-1, count, count + 7}) {
    EXPECT_EQ(rt().infinirtGetDeviceResourceSnapshot(cts::device_type(), id, &snapshot),
              INFINI_STATUS_DEVICE_NOT_FOUND)
        << "RT-SNAP-2: device id " << id << " of " << count;
  }
}

class SnapshotOnPick : public cts::ParamCase<DeviceParam> {};

CTS_TEST_P(SnapshotOnPick, identifies_device, "resource_snapshot", "RT-SNAP-3", "RT-SNAP-4", "RT-SNAP-7",
           "RT-SNAP-8") {
  const infiniDevice_t type = cts::device_type();
  const int id = PickedId(GetParam().pick);
  infinirtDeviceResourceSnapshot_t snapshot = JunkSnapshot();
  CTS_CHECK_OK(rt().infinirtGetDeviceResourceSnapshot(type, id, &snapshot));
  EXPECT_EQ(snapshot.device_type, type) << "RT-SNAP-3: device_type";
  EXPECT_EQ(snapshot.device_id, id) << "RT-SNAP-3: device_id";
  EXPECT_EQ(snapshot.valid_fields & ~kKnownFields, 0u) << "RT-SNAP-4: valid_fields 0x" << std::hex
                                                       << snapshot.valid_fields << " holds unknown bits";
  EXPECT_EQ(snapshot.estimated_fields & ~snapshot.valid_fields, 0u)
      << "RT-SNAP-4: estimated_fields 0x" << std::hex << snapshot.estimated_fields << " beyond valid_fields 0x"
      << snapshot.valid_fields;
  const struct {
    uint64_t bit;
    const char *name;
    float value;
  } ratios[] = {
      {INFINIRT_RESOURCE_FIELD_COMPUTE_UTILIZATION, "compute_utilization", snapshot.compute_utilization},
      {INFINIRT_RESOURCE_FIELD_MEMORY_BANDWIDTH_UTILIZATION, "memory_bandwidth_utilization",
       snapshot.memory_bandwidth_utilization},
      {INFINIRT_RESOURCE_FIELD_KERNEL_TIME_RATIO, "kernel_time_ratio", snapshot.kernel_time_ratio},
      {INFINIRT_RESOURCE_FIELD_COMMUNICATION, "communication_time_ratio", snapshot.communication_time_ratio},
  };
  for (const auto &ratio : ratios) {
    if ((snapshot.valid_fields & ratio.bit) == 0) continue;
    EXPECT_TRUE(ratio.value >= 0.0f && ratio.value <= 1.0f) << "RT-SNAP-8: " << ratio.name << " = " << ratio.value;
  }
  const bool memory_reported = (snapshot.valid_fields & INFINIRT_RESOURCE_FIELD_MEMORY_CAPACITY) != 0;
  cts::RecordMetric("memory_capacity_reported", memory_reported ? 1 : 0);
  cts::RecordMetric("valid_fields", static_cast<double>(snapshot.valid_fields));
}

CTS_TEST_P(SnapshotOnPick, agrees_with_mem_info, "resource_snapshot", "RT-SNAP-5", "RT-SNAP-6") {
  const infiniDevice_t type = cts::device_type();
  const int id = PickedId(GetParam().pick);
  CTS_ASSERT_OK(rt().infinirtSetDevice(type, id));
  auto snapshot_now = [&](infinirtDeviceResourceSnapshot_t *snapshot) {
    *snapshot = JunkSnapshot();
    return rt().infinirtGetDeviceResourceSnapshot(type, id, snapshot);
  };
  infinirtDeviceResourceSnapshot_t before{}, allocated{}, after{};
  CTS_CHECK_OK(snapshot_now(&before));
  if ((before.valid_fields & INFINIRT_RESOURCE_FIELD_MEMORY_CAPACITY) == 0) {
    GTEST_SKIP() << cts::kUnsupportedPrefix << "the snapshot leaves MEMORY_CAPACITY clear (RT-SNAP-7 records it)";
  }
  size_t free_bytes = 0, total_bytes = 0;
  CTS_ASSERT_OK(rt().infinirtGetMemInfo(type, id, &free_bytes, &total_bytes));
  EXPECT_EQ(before.total_bytes, total_bytes) << "RT-SNAP-5: total_bytes against infinirtGetMemInfo's total";
  EXPECT_LE(before.free_bytes, before.total_bytes) << "RT-SNAP-5: free_bytes exceeds total_bytes";
  EXPECT_EQ(before.used_bytes, before.total_bytes - before.free_bytes) << "RT-SNAP-5: used_bytes";

  auto rng = CaseRng();
  const size_t bytes = RandomOddIn(rng, 16 << 20, 32 << 20);
  void *p = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&p, bytes), p, bytes);
  ScopedDeviceMemory hold(p);
  CTS_CHECK_OK(snapshot_now(&allocated));
  CTS_ASSERT_OK(rt().infinirtFree(hold.Release()));
  CTS_CHECK_OK(snapshot_now(&after));
  if (cts::device_type() == INFINI_DEVICE_CPU) {
    // Device memory is host memory: the OS's free count, which untouched pages do not lower (RT-SNAP-6).
    cts::RecordMetric("free_bytes_track_allocations", allocated.free_bytes + bytes <= before.free_bytes ? 1 : 0);
  } else {
    EXPECT_LE(allocated.free_bytes + bytes, before.free_bytes)
        << "RT-SNAP-6: free_bytes dropped by less than the " << bytes << " bytes allocated";
    EXPECT_GE(after.free_bytes, before.free_bytes) << "RT-SNAP-6: free_bytes did not come back after infinirtFree";
  }
  cts::RecordMetric("total_bytes", static_cast<double>(before.total_bytes));
}

INSTANTIATE_TEST_SUITE_P(conformance, SnapshotOnPick, testing::ValuesIn(DeviceParams()), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
