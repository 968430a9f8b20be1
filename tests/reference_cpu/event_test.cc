// Events: completion, timing, re-recording, the status codes of the behaviour file.
#include <atomic>
#include <cmath>
#include <string>
#include <thread>

#include "test_support.h"

namespace reference_cpu_test {
namespace {

using EventTest = RtTest;
using std::chrono::milliseconds;

infinirtEventStatus_t Query(infinirtEvent_t event) {
  infinirtEventStatus_t status = static_cast<infinirtEventStatus_t>(-1);
  EXPECT_RT_OK(infinirtEventQuery(event, &status));
  return status;
}

TEST_F(EventTest, ElapsedTimeMeasuresTheWorkBetweenRecords) {
  infinirtStream_t stream = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&stream));
  infinirtEvent_t start = nullptr, middle = nullptr, end = nullptr;
  for (infinirtEvent_t *event : {&start, &middle, &end}) ASSERT_RT_OK(infinirtEventCreate(event));

  const auto wall_start = std::chrono::steady_clock::now();
  ASSERT_RT_OK(infinirtEventRecord(start, stream));
  ASSERT_RT_OK(EnqueueSleep(stream, milliseconds(20)));
  ASSERT_RT_OK(infinirtEventRecord(middle, stream));
  ASSERT_RT_OK(EnqueueSleep(stream, milliseconds(10)));
  ASSERT_RT_OK(infinirtEventRecord(end, stream));
  ASSERT_RT_OK(infinirtEventSynchronize(end));
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();

  float whole = 0, first = 0, second = 0;
  ASSERT_RT_OK(infinirtEventElapsedTime(&whole, start, end));
  ASSERT_RT_OK(infinirtEventElapsedTime(&first, start, middle));
  ASSERT_RT_OK(infinirtEventElapsedTime(&second, middle, end));
  EXPECT_GE(first, 20.0f);
  EXPECT_GE(second, 10.0f);
  EXPECT_LE(whole, wall_ms);
  EXPECT_NEAR(whole, first + second, 1e-3);
  EXPECT_EQ(Query(middle), INFINIRT_EVENT_COMPLETE);

  for (infinirtEvent_t event : {start, middle, end}) ASSERT_RT_OK(infinirtEventDestroy(event));
  ASSERT_RT_OK(infinirtStreamDestroy(stream));
}

TEST_F(EventTest, EventsNeverRecordedAreComplete) {
  infinirtEvent_t a = nullptr, b = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&a));
  ASSERT_RT_OK(infinirtEventCreate(&b));
  EXPECT_EQ(Query(a), INFINIRT_EVENT_COMPLETE);
  EXPECT_RT_OK(infinirtEventSynchronize(a));
  float ms = 0;
  EXPECT_EQ(infinirtEventElapsedTime(&ms, a, b), INFINI_STATUS_BAD_PARAM);
  ASSERT_RT_OK(infinirtEventRecord(b, nullptr));
  ASSERT_RT_OK(infinirtEventSynchronize(b));
  EXPECT_EQ(infinirtEventElapsedTime(&ms, a, b), INFINI_STATUS_BAD_PARAM) << "start never recorded";
  ASSERT_RT_OK(infinirtEventDestroy(a));
  ASSERT_RT_OK(infinirtEventDestroy(b));
}

// A record behind blocked work, on a created stream and on the NULL stream (GetParam()).
class PendingRecordTest : public RtTest, public ::testing::WithParamInterface<bool> {};

TEST_P(PendingRecordTest, IsNotReadyUntilTheStreamGetsThere) {
  const bool null_stream = GetParam();
  infinirtStream_t stream = nullptr;
  if (!null_stream) {
    ASSERT_RT_OK(infinirtStreamCreate(&stream));
  }
  infinirtEvent_t done = nullptr, pending = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&done));
  ASSERT_RT_OK(infinirtEventCreate(&pending));
  ASSERT_RT_OK(infinirtEventRecord(done, stream));
  Gate gate;
  ASSERT_RT_OK(gate.Block(stream));
  std::atomic<bool> gate_passed{false};
  ASSERT_RT_OK(infinicts_ref::EnqueueOnStream(stream, [&gate_passed] { gate_passed = true; }));
  ASSERT_RT_OK(infinirtEventRecord(pending, stream));
  ASSERT_RT_OK(infinirtEventSynchronize(done));

  EXPECT_EQ(Query(pending), INFINIRT_EVENT_NOT_READY);
  float ms = 0;
  EXPECT_EQ(infinirtEventElapsedTime(&ms, done, pending), INFINI_STATUS_INTERNAL_ERROR);
  std::thread opener([&gate] {
    std::this_thread::sleep_for(milliseconds(20));
    gate.Open();
  });
  ASSERT_RT_OK(infinirtEventSynchronize(pending));
  EXPECT_TRUE(gate_passed.load()) << "EventSynchronize returned before the stream reached the record";
  EXPECT_EQ(Query(pending), INFINIRT_EVENT_COMPLETE);
  EXPECT_RT_OK(infinirtEventElapsedTime(&ms, done, pending));
  opener.join();
  ASSERT_RT_OK(infinirtEventDestroy(done));
  ASSERT_RT_OK(infinirtEventDestroy(pending));
  if (!null_stream) {
    ASSERT_RT_OK(infinirtStreamDestroy(stream));
  }
}

INSTANTIATE_TEST_SUITE_P(Streams, PendingRecordTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return std::string(info.param ? "null_stream" : "created_stream");
                         });

TEST_F(EventTest, ReRecordingSupersedesThePreviousRecord) {
  infinirtStream_t blocked = nullptr, free_running = nullptr;
  ASSERT_RT_OK(infinirtStreamCreate(&blocked));
  ASSERT_RT_OK(infinirtStreamCreate(&free_running));
  infinirtEvent_t event = nullptr;
  ASSERT_RT_OK(infinirtEventCreate(&event));
  Gate gate;
  ASSERT_RT_OK(gate.Block(blocked));
  ASSERT_RT_OK(infinirtEventRecord(event, blocked));
  EXPECT_EQ(Query(event), INFINIRT_EVENT_NOT_READY);
  ASSERT_RT_OK(infinirtEventRecord(event, free_running));
  ASSERT_RT_OK(infinirtStreamSynchronize(free_running));
  EXPECT_EQ(Query(event), INFINIRT_EVENT_COMPLETE);
  // A record still pending on the blocked stream outlives the event it came from.
  ASSERT_RT_OK(infinirtEventDestroy(event));
  gate.Open();
  ASSERT_RT_OK(infinirtStreamDestroy(blocked));
  ASSERT_RT_OK(infinirtStreamDestroy(free_running));
}

TEST_F(EventTest, BadArguments) {
  infinirtEvent_t event = nullptr;
  EXPECT_EQ(infinirtEventCreate(nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtEventCreateWithFlags(nullptr, 0), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtEventCreateWithFlags(&event, 4), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtEventRecord(nullptr, nullptr), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtEventDestroy(nullptr), INFINI_STATUS_NULL_POINTER);

  infinirtEvent_t untimed = nullptr, timed = nullptr;
  ASSERT_RT_OK(infinirtEventCreateWithFlags(&untimed, INFINIRT_EVENT_DISABLE_TIMING | INFINIRT_EVENT_BLOCKING_SYNC));
  ASSERT_RT_OK(infinirtEventCreate(&timed));
  EXPECT_EQ(infinirtEventQuery(timed, nullptr), INFINI_STATUS_NULL_POINTER);
  ASSERT_RT_OK(infinirtEventRecord(untimed, nullptr));
  ASSERT_RT_OK(infinirtEventRecord(timed, nullptr));
  ASSERT_RT_OK(infinirtStreamSynchronize(nullptr));
  float ms = 0;
  EXPECT_EQ(infinirtEventElapsedTime(&ms, untimed, timed), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtEventElapsedTime(&ms, timed, untimed), INFINI_STATUS_BAD_PARAM);
  EXPECT_EQ(infinirtEventElapsedTime(nullptr, timed, timed), INFINI_STATUS_NULL_POINTER);
  EXPECT_EQ(infinirtEventElapsedTime(&ms, nullptr, timed), INFINI_STATUS_NULL_POINTER);
  ASSERT_RT_OK(infinirtEventElapsedTime(&ms, timed, timed));
  EXPECT_EQ(ms, 0.0f);
  ASSERT_RT_OK(infinirtEventDestroy(untimed));
  ASSERT_RT_OK(infinirtEventDestroy(timed));
  EXPECT_EQ(infinirtEventDestroy(timed), INFINI_STATUS_BAD_PARAM) << "double destroy";
}

}  // namespace
}  // namespace reference_cpu_test
