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

}  // namespace
}  // namespace infinicts::timing
