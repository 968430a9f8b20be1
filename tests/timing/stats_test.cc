#include <gtest/gtest.h>

#include <cmath>

#include "timing/timing.h"

namespace infinicts::timing {
namespace {

TEST(Summarize, OddCountInAnyOrder) {
  const Stats stats = Summarize({3, 1, 2});
  EXPECT_EQ(stats.count, 3u);
  EXPECT_DOUBLE_EQ(stats.median_ms, 2);
  EXPECT_DOUBLE_EQ(stats.min_ms, 1);
  EXPECT_DOUBLE_EQ(stats.max_ms, 3);
  EXPECT_DOUBLE_EQ(stats.p10_ms, 1.2);  // rank 0.2: a fifth of the way from 1 to 2
  EXPECT_DOUBLE_EQ(stats.p90_ms, 2.8);
  EXPECT_DOUBLE_EQ(stats.mean_ms, 2);
  EXPECT_DOUBLE_EQ(stats.cv, 0.5);  // sample standard deviation 1, mean 2
}

TEST(Summarize, EvenCountInterpolatesTheMedian) {
  const Stats stats = Summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(stats.median_ms, 2.5);
  EXPECT_DOUBLE_EQ(stats.p10_ms, 1.3);  // rank 0.3
  EXPECT_DOUBLE_EQ(stats.p90_ms, 3.7);  // rank 2.7
  EXPECT_DOUBLE_EQ(stats.mean_ms, 2.5);
  EXPECT_NEAR(stats.cv, std::sqrt(5.0 / 3.0) / 2.5, 1e-12);
}

TEST(Summarize, PercentilesOnExactRanks) {
  std::vector<double> samples;
  for (int i = 11; i >= 1; --i) samples.push_back(i);  // 1..11: p10 at rank 1, p90 at rank 9
  const Stats stats = Summarize(samples);
  EXPECT_DOUBLE_EQ(stats.p10_ms, 2);
  EXPECT_DOUBLE_EQ(stats.median_ms, 6);
  EXPECT_DOUBLE_EQ(stats.p90_ms, 10);
  EXPECT_DOUBLE_EQ(stats.min_ms, 1);
  EXPECT_DOUBLE_EQ(stats.max_ms, 11);
}

TEST(Summarize, OneSampleHasNoSpread) {
  const Stats stats = Summarize({0.25});
  EXPECT_EQ(stats.count, 1u);
  for (double value : {stats.median_ms, stats.min_ms, stats.max_ms, stats.p10_ms, stats.p90_ms, stats.mean_ms}) {
    EXPECT_DOUBLE_EQ(value, 0.25);
  }
  EXPECT_DOUBLE_EQ(stats.cv, 0);
}

TEST(Summarize, EqualSamplesHaveNoSpread) { EXPECT_DOUBLE_EQ(Summarize({2, 2, 2}).cv, 0); }

TEST(Summarize, EmptyIsAllZero) {
  const Stats stats = Summarize({});
  EXPECT_EQ(stats.count, 0u);
  for (double value :
       {stats.median_ms, stats.min_ms, stats.max_ms, stats.p10_ms, stats.p90_ms, stats.mean_ms, stats.cv}) {
    EXPECT_EQ(value, 0);
  }
}

TEST(MethodName, NamesTheSchemaUses) {
  EXPECT_STREQ(MethodName(Method::kDeviceEvents), "device_events");
  EXPECT_STREQ(MethodName(Method::kHostClock), "host_clock");
}

}  // namespace
}  // namespace infinicts::timing
