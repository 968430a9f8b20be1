// MeasureAcross against the scripted runtime: two ranks on two devices, each stream
// with its own device time per iteration.
#include <gtest/gtest.h>

#include <algorithm>

#include "fake_runtime.h"
#include "timing/timing.h"

namespace infinicts::timing {
namespace {

using test::CountCalls;
using test::FakeRuntime;

double Rank0Ms(int iteration) { return 0.1 + 0.02 * (iteration % 3); }
double Rank1Ms(int iteration) { return 0.13 + 0.01 * (iteration % 5); }

Options Fixed(int iterations) {
  Options options;
  options.min_warmup = 2;
  options.warmup_ms = 0;
  options.min_iterations = iterations;
  options.max_iterations = iterations;
  return options;
}

TEST(MeasureAcross, SampleIsTheSlowestRank) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream0 = fake.AddStream(0);
  infinirtStream_t stream1 = fake.AddStream(1);
  fake.current_device = 1;  // the caller's device, which launches see and which comes back
  std::vector<int> devices_at_launch;
  auto collective = [&](int i) {
    devices_at_launch.push_back(fake.current_device);
    fake.Enqueue(stream0, Rank0Ms(i));
    fake.Enqueue(stream1, Rank1Ms(i));
    return INFINI_STATUS_SUCCESS;
  };
  // The fake refuses to record an event on a stream of another device than the current
  // one: the measurement must select each rank's device.
  const Measurement m = MeasureAcross(rt, INFINI_DEVICE_CPU, {{0, stream0}, {1, stream1}}, collective, Fixed(10));
  EXPECT_EQ(m.method, Method::kDeviceEvents);
  EXPECT_EQ(m.warmup_iterations, 2);
  ASSERT_EQ(m.samples_ms.size(), 10u);
  // The scripts cross over: rank 0 is the slower one in some iterations, rank 1 in others.
  for (int k = 0; k < 10; ++k) {
    const int i = 5 + k;  // after the warm-up and the three probes of the events' clock
    EXPECT_NEAR(m.samples_ms[k], std::max(Rank0Ms(i), Rank1Ms(i)), 1e-6) << k;
  }
  EXPECT_EQ(devices_at_launch, std::vector<int>(15, 1));
  EXPECT_EQ(fake.current_device, 1);
  EXPECT_TRUE(fake.events.empty());
}

TEST(MeasureAcross, HostClockWaitsForEveryStream) {
  FakeRuntime fake;
  fake.event_create_status = INFINI_STATUS_NOT_IMPLEMENTED;
  const RtApi rt = fake.Api();
  infinirtStream_t stream0 = fake.AddStream(0);
  infinirtStream_t stream1 = fake.AddStream(1);
  auto collective = [&](int) {
    fake.Enqueue(stream0, 0.5);
    fake.Enqueue(stream1, 3);  // the synchronize of the last stream ends it
    return INFINI_STATUS_SUCCESS;
  };
  const Measurement m = MeasureAcross(rt, INFINI_DEVICE_CPU, {{0, stream0}, {1, stream1}}, collective, Fixed(3));
  EXPECT_EQ(m.method, Method::kHostClock);
  ASSERT_EQ(m.samples_ms.size(), 3u);
  for (double sample : m.samples_ms) EXPECT_GE(sample, 3.0);
}

TEST(MeasureAcross, ColdCacheFlushesEveryRank) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream0 = fake.AddStream(0);
  infinirtStream_t stream1 = fake.AddStream(1);
  Options options = Fixed(4);
  options.cold_cache = true;
  options.flush_bytes = 2 << 20;
  const Measurement m =
      MeasureAcross(rt, INFINI_DEVICE_CPU, {{0, stream0}, {1, stream1}}, [&](int) {
        fake.Enqueue(stream0, 0.05);
        fake.Enqueue(stream1, 0.05);
        return INFINI_STATUS_SUCCESS;
      }, options);
  EXPECT_TRUE(m.cold_cache);
  // Per rank: once allocated, each warm-up run, each probe of the events' clock, each timed run.
  EXPECT_EQ(fake.memset_sizes.size(), 2u * (1 + 2 + 3 + 4));
  EXPECT_EQ(CountCalls(fake, "malloc"), 2);
  EXPECT_TRUE(fake.allocations.empty());
}

TEST(MeasureAcross, FailingLaunchReleasesEveryRanksEvents) {
  FakeRuntime fake;
  const RtApi rt = fake.Api();
  infinirtStream_t stream0 = fake.AddStream(0);
  infinirtStream_t stream1 = fake.AddStream(1);
  auto fails = [](int i) { return i == 3 ? INFINI_STATUS_INTERNAL_ERROR : INFINI_STATUS_SUCCESS; };
  EXPECT_THROW(MeasureAcross(rt, INFINI_DEVICE_CPU, {{0, stream0}, {1, stream1}}, fails, Fixed(4)), TimingError);
  EXPECT_TRUE(fake.events.empty());
  EXPECT_EQ(fake.current_device, 0);
}

}  // namespace
}  // namespace infinicts::timing
