// The CPU runtime's graphs: what a capture records, how often replayable work runs, and when
// its release comes.
#include <atomic>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using GraphTest = RtTest;

struct Counted {
  std::atomic<int> runs{0};
  std::atomic<int> releases{0};
};

void CountRun(void *arg) { ++static_cast<Counted *>(arg)->runs; }
void CountRelease(void *arg) { ++static_cast<Counted *>(arg)->releases; }

TEST_F(GraphTest, ReplayableWorkRunsOncePerLaunchAndIsReleasedWithTheLastHolder) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  Counted counted;
  ASSERT_RT_OK(infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_RT_OK(infinictsRefStreamEnqueueReplayable(stream, CountRun, &counted, CountRelease));
  EXPECT_EQ(infinictsRefStreamEnqueue(stream, CountRun, &counted), INFINI_STATUS_BAD_PARAM)
      << "once-only work cannot be captured";
  EXPECT_EQ(infinirtStreamSynchronize(stream), INFINI_STATUS_BAD_PARAM);
  infinirtGraph_t graph = nullptr;
  ASSERT_RT_OK(infinirtStreamEndCapture(stream, &graph));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(counted.runs.load(), 0) << "captured work ran at capture";
  infinirtGraphExec_t exec = nullptr;
  ASSERT_RT_OK(infinirtGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_RT_OK(infinirtGraphDestroy(graph));
  EXPECT_EQ(counted.releases.load(), 0) << "the exec still holds the work";
  for (int launch = 0; launch < 3; ++launch) ASSERT_RT_OK(infinirtGraphLuanch(exec, stream));
  ASSERT_RT_OK(infinirtStreamSynchronize(stream));
  EXPECT_EQ(counted.runs.load(), 3);
  ASSERT_RT_OK(infinirtGraphExecDestroy(exec));
  EXPECT_EQ(counted.releases.load(), 1);
  EXPECT_EQ(infinirtGraphLuanch(exec, stream), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(GraphTest, UncapturedReplayableWorkRunsOnceThenIsReleased) {
  Counted counted;
  ASSERT_RT_OK(infinictsRefStreamEnqueueReplayable(nullptr, CountRun, &counted, CountRelease));
  ASSERT_RT_OK(infinirtStreamSynchronize(nullptr));
  EXPECT_EQ(counted.runs.load(), 1);
  EXPECT_EQ(counted.releases.load(), 1);
  int not_a_stream = 0;
  EXPECT_EQ(infinictsRefStreamEnqueueReplayable(&not_a_stream, CountRun, &counted, CountRelease),
            INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(counted.releases.load(), 2) << "refused work is released at once";
  EXPECT_EQ(counted.runs.load(), 1);
}

TEST_F(GraphTest, RefusalsOnACapturingOrDefaultStream) {
  EXPECT_EQ(infinirtStreamBeginCapture(nullptr, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL), INFINI_STATUS_BAD_PARAM)
      << "the NULL stream cannot be captured";
  infinirtStream_t stream = nullptr, other_device = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  ASSERT_RT_OK(infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_RELAXED));
  EXPECT_EQ(infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL), INFINI_STATUS_BAD_PARAM);
  infinirtEvent_t event = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&event));
  EXPECT_EQ(infinirtEventRecord(event, stream), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtStreamWaitEvent(stream, event), INFINI_STATUS_BAD_PARAM);
  void *p = nullptr;
  EXPECT_EQ(infinirtMallocAsync(&p, 64, stream), INFINI_STATUS_BAD_PARAM);
  infinirtGraph_t graph = nullptr;
  ASSERT_RT_OK(infinirtStreamEndCapture(stream, &graph));
  infinirtGraphExec_t exec = nullptr;
  ASSERT_RT_OK(infinirtGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 1));
  ASSERT_RT_OK(infinirtStreamCreate(&other_device));
  EXPECT_EQ(infinirtGraphLuanch(exec, other_device), INFINI_STATUS_BAD_PARAM) << "a stream of another device";
  ASSERT_RT_OK(infinirtStreamDestroy(other_device));
  ASSERT_RT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
  ASSERT_RT_OK(infinirtGraphExecDestroy(exec));
  ASSERT_RT_OK(infinirtGraphDestroy(graph));
  ASSERT_RT_OK(infinirtEventDestroy(event));
  // Destroying a capturing stream ends its capture.
  ASSERT_RT_OK(infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(GraphTest, SnapshotMatchesMemInfo) {
  infinirtDeviceResourceSnapshot_t snapshot{};
  ASSERT_RT_OK(infinirtGetDeviceResourceSnapshot(INFINI_DEVICE_CPU, 2, &snapshot));
  size_t free_bytes = 0, total_bytes = 0;
  ASSERT_RT_OK(infinirtGetMemInfo(INFINI_DEVICE_CPU, 2, &free_bytes, &total_bytes));
  EXPECT_EQ(snapshot.device_type, INFINI_DEVICE_CPU);
  EXPECT_EQ(snapshot.device_id, 2);
  EXPECT_EQ(snapshot.valid_fields, uint64_t{INFINIRT_RESOURCE_FIELD_MEMORY_CAPACITY});
  EXPECT_EQ(snapshot.total_bytes, total_bytes);
  EXPECT_EQ(snapshot.free_bytes, free_bytes);
  EXPECT_EQ(snapshot.used_bytes, total_bytes - free_bytes);
  EXPECT_EQ(infinirtGetDeviceResourceSnapshot(INFINI_DEVICE_CPU, 3, &snapshot), INFINI_STATUS_DEVICE_NOT_FOUND);
}

}  // namespace
}  // namespace reference_cpu_test
