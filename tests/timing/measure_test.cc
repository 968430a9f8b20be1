// Measure against the scripted runtime: which clock, what the samples are, how many,
// the cache flush, and the clean-up after a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "fake_runtime.h"
#include "timing/timing.h"

namespace infinicts::timing {
namespace {

using test::CountCalls;
using test::FakeRuntime;

// Device time of iteration i: distinct values, so that a sample read from the wrong
// pair or the wrong iteration shows, 0.01 ms apart: at least 25 of those steps, resolved.
double ScriptedMs(int iteration) { return 0.25 + 0.01 * (iteration % 7); }

Options Fixed(int iterations) {
  Options options;
  options.min_warmup = 3;
  options.warmup_ms = 0;
  options.min_iterations = iterations;
  options.max_iterations = iterations;
  return options;
}

void SleepMs(double ms) { std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms)); }

TEST(Measure, EventsGiveTheDeviceTimeOfEachIteration) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  std::vector<int> launched;
  const Measurement m = Measure(
      rt, stream,
      [&](int i) {
        launched.push_back(i);
        fake.Enqueue(stream, ScriptedMs(i));  // returns before the work ends
        return INFINI_STATUS_SUCCESS;
      },
      Fixed(9));
  EXPECT_EQ(m.method, Method::kDeviceEvents);
  EXPECT_EQ(m.warmup_iterations, 3);
  ASSERT_EQ(m.samples_ms.size(), 9u);
  // Iterations 3 to 5 probe the events' clock (empty pairs read 0 here, the probes more).
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(m.samples_ms[k], ScriptedMs(6 + k), 1e-6) << k;
  EXPECT_EQ(m.stats.count, 9u);
  EXPECT_EQ(m.stats.max_ms, *std::max_element(m.samples_ms.begin(), m.samples_ms.end()));
  EXPECT_EQ(launched, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));  // warm-up, probe, timed
  EXPECT_EQ(m.launches_per_sample, 1);
  EXPECT_TRUE(m.resolved);
  EXPECT_FALSE(m.cold_cache);
  EXPECT_TRUE(fake.events.empty()) << "every event destroyed";
}

TEST(Measure, HostClockWithoutEvents) {
  FakeRuntime fake;
  fake.event_create_status = INFINI_STATUS_NOT_IMPLEMENTED;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  // The work ends at the synchronize (2 ms after the launch returns): the host clock
  // must wait for it.
  const Measurement m = Measure(
      rt, stream, [&](int) { fake.Enqueue(stream, 2); return INFINI_STATUS_SUCCESS; }, Fixed(4));
  EXPECT_EQ(m.method, Method::kHostClock);
  ASSERT_EQ(m.samples_ms.size(), 4u);
  for (double sample : m.samples_ms) EXPECT_GE(sample, 2.0);
  EXPECT_EQ(CountCalls(fake, "create_event"), 1) << "tried once";
}

TEST(Measure, HostClockWhenElapsedTimeIsUnsupported) {
  FakeRuntime fake;
  fake.event_elapsed_status = INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  const Measurement m = Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, Fixed(3));
  EXPECT_EQ(m.method, Method::kHostClock);
  EXPECT_TRUE(fake.events.empty());
}

TEST(Measure, ForcedHostClockCreatesNoEvent) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(3);
  options.force_host_clock = true;
  const Measurement m = Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, options);
  EXPECT_EQ(m.method, Method::kHostClock);
  EXPECT_EQ(CountCalls(fake, "create_event"), 0);
}

TEST(Measure, IterationsFollowTheBudget) {
  FakeRuntime fake;
  fake.event_create_status = INFINI_STATUS_NOT_IMPLEMENTED;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  auto two_ms = [](int) { SleepMs(2); return INFINI_STATUS_SUCCESS; };
  Options options;
  options.budget_ms = 20;
  options.warmup_ms = 10;
  options.min_iterations = 1;
  const Measurement m = Measure(rt, stream, two_ms, options);
  // A sleep lasts at least 2 ms, so at most 10 fit; at least 2 unless a busy machine
  // makes the sleeps five times longer than asked.
  EXPECT_LE(m.samples_ms.size(), 10u);
  EXPECT_GE(m.samples_ms.size(), 2u);
  EXPECT_GE(m.warmup_iterations, 2);
  EXPECT_EQ(m.budget_ms, 20);

  options.min_iterations = 15;
  EXPECT_EQ(Measure(rt, stream, two_ms, options).samples_ms.size(), 15u);
  options.min_iterations = 1;
  options.max_iterations = 4;
  options.budget_ms = 1000;  // room for far more than 4
  EXPECT_EQ(Measure(rt, stream, two_ms, options).samples_ms.size(), 4u);
}

TEST(Measure, WarmUpRunsAtLeastTheMinimum) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(2);
  options.min_warmup = 7;
  EXPECT_EQ(Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, options).warmup_iterations, 7);
}

TEST(Measure, ColdCacheFlushesBeforeEveryIterationOutsideTheTimedWindow) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(5);
  options.cold_cache = true;
  options.flush_bytes = 8 << 20;
  const Measurement m = Measure(
      rt, stream, [&](int i) { fake.Enqueue(stream, ScriptedMs(i)); return INFINI_STATUS_SUCCESS; }, options);
  EXPECT_TRUE(m.cold_cache);
  // One write when allocated, then one per warm-up iteration, per probe of the events' clock
  // and per timed iteration, all of flush_bytes.
  EXPECT_EQ(fake.memset_sizes, std::vector<size_t>(1 + 3 + 3 + 5, options.flush_bytes));
  // Each timed iteration: flush, then start event, launch, end event.
  const auto after_last_record = std::find(fake.calls.rbegin(), fake.calls.rend(), "record").base();
  const std::vector<std::string> timed(after_last_record - 5 * 4, after_last_record);
  std::vector<std::string> expected;
  for (int k = 0; k < 5; ++k) expected.insert(expected.end(), {"memset", "record", "launch", "record"});
  EXPECT_EQ(timed, expected);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(m.samples_ms[k], ScriptedMs(6 + k), 1e-6);
  EXPECT_TRUE(fake.allocations.empty()) << "flush buffer freed";
}

// A clock of 1 ms ticks and launches of 0.05 ms: a pair around one launch reads 0, so launches
// go several to a sample until a sample spans kTicksPerSample ticks; each sample is their mean.
TEST(Measure, LaunchesBelowACoarseClockGoSeveralToASample) {
  FakeRuntime fake;
  fake.event_tick_ms = 1;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(5);
  const Measurement m = Measure(
      rt, stream, [&](int) { fake.Enqueue(stream, 0.05); return INFINI_STATUS_SUCCESS; }, options);
  ASSERT_TRUE(m.resolution_ms.has_value());
  EXPECT_EQ(*m.resolution_ms, 1.0) << "the first reading above 0";
  EXPECT_GE(m.launches_per_sample * 0.05, kTicksPerSample * 1.0 * 0.99);
  EXPECT_TRUE(m.resolved);
  ASSERT_EQ(m.samples_ms.size(), 5u);
  for (double sample : m.samples_ms) EXPECT_NEAR(sample, 0.05, 0.05 / kTicksPerSample) << "a mean within a tick";
}

// A clock that never reads above 0: the most launches per sample, unresolved, median 0.
TEST(Measure, AClockThatReadsNothingIsUnresolved) {
  FakeRuntime fake;
  fake.event_tick_ms = 1e9;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(5);
  options.max_launches_per_sample = 16;
  const Measurement m = Measure(
      rt, stream, [&](int) { fake.Enqueue(stream, 0.001); return INFINI_STATUS_SUCCESS; }, options);
  EXPECT_EQ(m.launches_per_sample, 16);
  EXPECT_FALSE(m.resolved);
  EXPECT_FALSE(m.resolution_ms.has_value());
  EXPECT_EQ(m.stats.median_ms, 0);
  EXPECT_EQ(m.ToJson().at("resolved"), false);
}

TEST(Measure, ColdCacheHalvesTheFlushBufferUntilItFits) {
  FakeRuntime fake;
  fake.largest_allocation = 3 << 20;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(2);
  options.cold_cache = true;
  options.flush_bytes = 16 << 20;
  const Measurement m = Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, options);
  EXPECT_TRUE(m.cold_cache);
  EXPECT_EQ(CountCalls(fake, "malloc"), 4);  // 16, 8, 4, 2 MiB
  ASSERT_FALSE(fake.memset_sizes.empty());
  EXPECT_EQ(fake.memset_sizes.back(), size_t{2} << 20);
  EXPECT_TRUE(fake.allocations.empty());
}

TEST(Measure, ColdCacheTurnsOffBelowOneMebibyte) {
  FakeRuntime fake;
  fake.largest_allocation = 512 << 10;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(2);
  options.cold_cache = true;
  options.flush_bytes = 4 << 20;
  const Measurement m = Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, options);
  EXPECT_FALSE(m.cold_cache);
  EXPECT_EQ(CountCalls(fake, "malloc"), 3);  // 4, 2, 1 MiB
  EXPECT_TRUE(fake.memset_sizes.empty());
  EXPECT_FALSE(m.ToJson().at("cold_cache").get<bool>());
}

TEST(Measure, FailingLaunchThrowsAndReleasesEverything) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(5);
  options.cold_cache = true;
  options.flush_bytes = 2 << 20;
  auto fails_in_timed_loop = [&](int i) {
    fake.Enqueue(stream, 0.01);
    return i == 5 ? INFINI_STATUS_BAD_TENSOR_SHAPE : INFINI_STATUS_SUCCESS;
  };
  try {
    Measure(rt, stream, fails_in_timed_loop, options);
    FAIL() << "no TimingError";
  } catch (const TimingError &error) {
    EXPECT_EQ(error.status(), INFINI_STATUS_BAD_TENSOR_SHAPE);
    EXPECT_NE(std::string(error.what()).find("launch (iteration 5)"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("INFINI_STATUS_BAD_TENSOR_SHAPE"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(fake.allocations.empty()) << "flush buffer freed";
  EXPECT_TRUE(fake.events.empty()) << "events destroyed";
  EXPECT_EQ(fake.calls.back(), "free");
}

TEST(Measure, FailingRuntimeCallIsNamed) {
  FakeRuntime fake;
  fake.event_record_status = INFINI_STATUS_INTERNAL_ERROR;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  try {
    Measure(rt, stream, [](int) { return INFINI_STATUS_SUCCESS; }, Fixed(2));
    FAIL() << "no TimingError";
  } catch (const TimingError &error) {
    EXPECT_EQ(error.status(), INFINI_STATUS_INTERNAL_ERROR);
    EXPECT_EQ(std::string(error.what()), "infinirtEventRecord answered INFINI_STATUS_INTERNAL_ERROR");
  }
  EXPECT_TRUE(fake.events.empty());
}

TEST(Measure, ExceptionFromTheLaunchReleasesEverything) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream = fake.AddStream(0);
  Options options = Fixed(3);
  options.cold_cache = true;
  options.flush_bytes = 1 << 20;
  auto throws = [](int i) -> int {
    if (i == 4) throw std::runtime_error("host side failed");
    return INFINI_STATUS_SUCCESS;
  };
  EXPECT_THROW(Measure(rt, stream, throws, options), std::runtime_error);
  EXPECT_TRUE(fake.allocations.empty());
  EXPECT_TRUE(fake.events.empty());
}

}  // namespace
}  // namespace infinicts::timing
