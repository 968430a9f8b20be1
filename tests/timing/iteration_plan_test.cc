#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "timing/iteration_plan.h"

namespace infinicts::timing {
namespace {

Options Budget(double budget_ms, int min_iterations, int max_iterations) {
  Options options;
  options.budget_ms = budget_ms;
  options.min_iterations = min_iterations;
  options.max_iterations = max_iterations;
  return options;
}

TEST(TimedIterationCount, FitsTheBudget) {
  EXPECT_EQ(TimedIterationCount(2.0, Budget(20, 1, 1000)), 10);
  EXPECT_EQ(TimedIterationCount(2.5, Budget(20, 1, 1000)), 8);
  EXPECT_EQ(TimedIterationCount(10.0 / 3, Budget(20, 1, 1000)), 6);  // rounded down
}

TEST(TimedIterationCount, ClampsToTheLimits) {
  EXPECT_EQ(TimedIterationCount(100.0, Budget(100, 5, 1000)), 5);  // one iteration exceeds the budget
  EXPECT_EQ(TimedIterationCount(0.001, Budget(100, 5, 1000)), 1000);
  EXPECT_EQ(TimedIterationCount(0.0, Budget(100, 5, 300)), 300);  // too fast for the clock
}

TEST(TimedIterationCount, WithoutWarmUpTakesTheFewest) {
  EXPECT_EQ(TimedIterationCount(std::nullopt, Budget(100, 7, 1000)), 7);
}

TEST(TimedIterationCount, AlwaysAtLeastOne) {
  EXPECT_EQ(TimedIterationCount(100.0, Budget(100, 0, 0)), 1);
  EXPECT_EQ(TimedIterationCount(5.0, Budget(std::nan(""), 3, 10)), 3);
}

TEST(RunWarmUp, RunsExactlyTheMinimumWhenTimeIsNoObject) {
  Options options;
  options.min_warmup = 7;
  options.warmup_ms = 0;
  std::vector<int> enqueued;
  int synchronizes = 0;
  const WarmUp warm_up =
      RunWarmUp(options, [&](int i) { enqueued.push_back(i); }, [&] { ++synchronizes; });
  EXPECT_EQ(warm_up.iterations, 7);
  EXPECT_EQ(enqueued, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(synchronizes, 3);  // batches of 1, 2 and 4
  EXPECT_TRUE(warm_up.per_iteration_ms.has_value());
}

TEST(RunWarmUp, NoneWhenAskedForNone) {
  Options options;
  options.min_warmup = 0;
  options.warmup_ms = 0;
  const WarmUp warm_up = RunWarmUp(options, [](int) { FAIL() << "enqueued"; }, [] {});
  EXPECT_EQ(warm_up.iterations, 0);
  EXPECT_FALSE(warm_up.per_iteration_ms.has_value());
}

TEST(RunWarmUp, FirstRunsOneTimeCostStaysOutOfTheEstimate) {
  Options options;
  options.min_warmup = 2;
  options.warmup_ms = 100;
  const auto start = std::chrono::steady_clock::now();
  const WarmUp warm_up = RunWarmUp(
      options,
      [](int i) { std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 100 : 1)); }, [] {});
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(elapsed_ms, 100);
  EXPECT_GE(warm_up.iterations, 2);
  ASSERT_TRUE(warm_up.per_iteration_ms.has_value());
  EXPECT_GE(*warm_up.per_iteration_ms, 1.0);
  EXPECT_LT(*warm_up.per_iteration_ms, 50.0) << "the 100 ms first run counted";
}

// ChooseBatching against scripted clocks: each reads `per_launch_ms × launches`, floored to
// its tick (0: exact).
std::function<double(int)> Clock(double per_launch_ms, double tick_ms, std::vector<int> *probed) {
  return [=](int launches) {
    probed->push_back(launches);
    const double ms = per_launch_ms * launches;
    return tick_ms > 0 ? std::floor(ms / tick_ms) * tick_ms : ms;
  };
}

TEST(SmallestStep, BetweenDistinctReadings) {
  EXPECT_EQ(SmallestStep({3, 1, 2, 2, 5}), 1.0);
  EXPECT_EQ(SmallestStep({0, 0, 4, 8}), 4.0);
  EXPECT_FALSE(SmallestStep({2, 2, 2}).has_value());
  EXPECT_FALSE(SmallestStep({}).has_value());
}

TEST(LimitsFor, BlindProbingWithinTheBudget) {
  Options options;
  options.budget_ms = 100;
  options.min_iterations = 5;
  options.max_launches_per_sample = 1024;
  EXPECT_EQ(LimitsFor(std::nullopt, options).max_blind_launches, 1024);
  EXPECT_EQ(LimitsFor(0.001, options).max_blind_launches, 1024);
  EXPECT_EQ(LimitsFor(1.0, options).max_blind_launches, 100);
  EXPECT_EQ(LimitsFor(500.0, options).max_blind_launches, 1);
  EXPECT_EQ(LimitsFor(1.0, options).max_launches, 1024);
  EXPECT_EQ(LimitsFor(1.0, options).max_sample_ms, 20.0);
}

BatchLimits Limits(int max_launches, double max_sample_ms = 1e9) { return {max_launches, max_launches, max_sample_ms}; }

TEST(ChooseBatching, OneLaunchWhenTheClockResolvesIt) {
  std::vector<int> probed;
  const Batching b = ChooseBatching(0.001, Clock(0.5, 0, &probed), Limits(1024));
  EXPECT_EQ(b.launches_per_sample, 1);
  EXPECT_EQ(probed, std::vector<int>{1});
}

TEST(ChooseBatching, ScalesUpToTheTicksASampleNeeds) {
  std::vector<int> probed;
  const Batching b = ChooseBatching(0.001, Clock(0.002, 0, &probed), Limits(1024));
  EXPECT_EQ(b.launches_per_sample, 10) << kTicksPerSample << " ticks of 0.001 ms at 0.002 ms a launch";
  EXPECT_EQ(probed, std::vector<int>{1});
}

TEST(ChooseBatching, ACoarseClockIsFoundByItsFirstReading) {
  std::vector<int> probed;
  const Batching b = ChooseBatching(std::nullopt, Clock(0.3, 1.0, &probed), Limits(1024));
  ASSERT_TRUE(b.resolution_ms.has_value());
  EXPECT_EQ(*b.resolution_ms, 1.0);
  EXPECT_EQ(probed, (std::vector<int>{1, 2, 4}));  // 0.3 and 0.6 read 0; 1.2 reads 1
  EXPECT_EQ(b.launches_per_sample, 80);           // 4 × 20 ticks / the 1 tick read
}

TEST(ChooseBatching, NeverMoreThanTheLimit) {
  std::vector<int> probed;
  const Batching b = ChooseBatching(std::nullopt, Clock(1e-6, 1.0, &probed), Limits(64));
  EXPECT_EQ(b.launches_per_sample, 64);
  EXPECT_FALSE(b.resolution_ms.has_value());
  EXPECT_EQ(probed.back(), 64);
  EXPECT_EQ(ChooseBatching(0.001, Clock(1e-6, 0, &probed), Limits(64)).launches_per_sample, 64);
  // A sample's share of the budget bounds it too: 0.5 ms of 0.002 ms launches.
  EXPECT_EQ(ChooseBatching(0.001, Clock(0.002, 0, &probed), Limits(1024, 0.01)).launches_per_sample, 5);
}

TEST(ChooseBatching, BlindProbingStopsAtItsLimit) {
  std::vector<int> probed;
  const Batching b = ChooseBatching(std::nullopt, Clock(1e-6, 1.0, &probed), BatchLimits{1024, 8, 1e9});
  EXPECT_EQ(probed, (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(b.launches_per_sample, 8);
}

}  // namespace
}  // namespace infinicts::timing
