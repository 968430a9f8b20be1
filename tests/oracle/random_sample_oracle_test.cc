#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::F32;

// Scores 3 (index 1), 2 (index 2), 1 (index 0), 0 (index 3) in descending order.
// With temperature 1 the unnormalised cumulative weights are
//   1, 1 + e^-1 = 1.3679, + e^-2 = 1.5032, + e^-3 = 1.5530.
const HostTensor kScores = F32({4}, {1, 3, 2, 0});

int64_t Sample(float random_val, float topp, int topk, float temperature, const HostTensor &scores = kScores) {
  return oracle::RandomSample(scores, random_val, topp, topk, temperature).index;
}

TEST(RandomSampleOracle, ArgmaxCases) {
  EXPECT_EQ(Sample(0.9f, 0.9f, 1, 1.0f), 1);  // topk 1
  EXPECT_EQ(Sample(0.0f, 0.9f, 4, 1.0f), 1);  // random_val 0
  EXPECT_EQ(Sample(0.9f, 0.0f, 4, 1.0f), 1);  // topp 0
  EXPECT_EQ(Sample(0.9f, 0.9f, 4, 0.0f), 1);  // temperature 0
  const oracle::RandomSampleResult result = oracle::RandomSample(kScores, 0.9f, 0.9f, 1, 1.0f);
  EXPECT_TRUE(result.argmax);
  EXPECT_TRUE(std::isinf(result.margin));
}

TEST(RandomSampleOracle, RandomValWalksTheCumulativeDistribution) {
  EXPECT_EQ(Sample(0.5f, 1.0f, 4, 1.0f), 1);   // limit 0.7765 <= 1
  EXPECT_EQ(Sample(0.75f, 1.0f, 4, 1.0f), 2);  // limit 1.1648 in (1, 1.3679]
  EXPECT_EQ(Sample(0.95f, 1.0f, 4, 1.0f), 0);  // limit 1.4754 in (1.3679, 1.5032]
  EXPECT_EQ(Sample(0.99f, 1.0f, 4, 1.0f), 3);  // limit 1.5375 in (1.5032, 1.5530]
}

TEST(RandomSampleOracle, TopkAndToppCapTheLimit) {
  EXPECT_EQ(Sample(0.99f, 1.0f, 2, 1.0f), 2);   // 0.99 · 1.3679 = 1.3542
  EXPECT_EQ(Sample(0.99f, 0.5f, 4, 1.0f), 1);   // 0.99 · 0.5 · 1.5530 = 0.7688
  EXPECT_EQ(Sample(0.99f, 1.0f, 99, 1.0f), 3);  // topk past n counts as n
}

TEST(RandomSampleOracle, TemperatureFlattensTheDistribution) {
  // Temperature 2: 1, 1.6065, 1.9744, 2.1975; 0.5 · 2.1975 = 1.0988 picks the second.
  EXPECT_EQ(Sample(0.5f, 1.0f, 4, 2.0f), 2);
  EXPECT_EQ(Sample(0.5f, 1.0f, 4, 1.0f), 1);
}

TEST(RandomSampleOracle, MarginMeasuresDistanceToTheNearestBoundary) {
  const oracle::RandomSampleResult result = oracle::RandomSample(kScores, 0.5f, 1.0f, 4, 1.0f);
  const double total = 1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0);
  const double limit = 0.5 * total;
  EXPECT_NEAR(result.margin, std::min(limit, 1.0 - limit) / total, 1e-12);
  EXPECT_FALSE(result.argmax);
}

TEST(RandomSampleOracle, TiesAtTheChosenScoreAreAmbiguous) {
  const HostTensor tied = F32({3}, {2, 2, 1});
  EXPECT_EQ(oracle::RandomSample(tied, 0.5f, 1.0f, 1, 1.0f).index, 0);  // the first maximum
  EXPECT_EQ(oracle::RandomSample(tied, 0.5f, 1.0f, 1, 1.0f).margin, 0.0);
  EXPECT_EQ(oracle::RandomSample(tied, 0.2f, 1.0f, 3, 1.0f).margin, 0.0);
}

TEST(RandomSampleOracle, HalfScoresAndBadArguments) {
  const HostTensor half = HostTensor::FromValues(INFINI_DTYPE_F16, {4}, {1, 3, 2, 0});
  EXPECT_EQ(oracle::RandomSample(half, 0.95f, 1.0f, 4, 1.0f).index, 0);
  EXPECT_THROW(oracle::RandomSample(F32({2, 2}, {1, 2, 3, 4}), 0.5f, 1.0f, 2, 1.0f), std::invalid_argument);
  EXPECT_THROW(oracle::RandomSample(kScores, 1.5f, 1.0f, 2, 1.0f), std::invalid_argument);
  EXPECT_THROW(oracle::RandomSample(F32({2}, {1, NAN}), 0.5f, 1.0f, 2, 1.0f), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts

namespace infinicts {
namespace {

using testing_helpers::F32;

// Two rows: row 0 is kScores' 1, 3, 2, 0; row 1 holds the same values in another order
// (2, 0, 1, 3: indices 3, 0, 2, 1 in descending order), so each row's answer depends on its
// own scores and parameters.
TEST(RandomSampleBatchOracle, EachRowUnderItsOwnParameters) {
  const HostTensor scores = F32({2, 4}, {1, 3, 2, 0, 2, 0, 1, 3});
  const std::vector<oracle::RandomSampleResult> results =
      oracle::RandomSampleBatch(scores, {{0.75f, 1.0f, 4, 1.0f}, {0.95f, 1.0f, 4, 1.0f}});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].index, 2);  // limit 1.1648: the second rank of row 0, index 2
  EXPECT_EQ(results[1].index, 2);  // limit 1.4754: the third rank of row 1, index 2
  const std::vector<oracle::RandomSampleResult> swapped =
      oracle::RandomSampleBatch(scores, {{0.95f, 1.0f, 4, 1.0f}, {0.75f, 1.0f, 4, 1.0f}});
  EXPECT_EQ(swapped[0].index, 0);  // the third rank of row 0
  EXPECT_EQ(swapped[1].index, 0);  // the second rank of row 1
}

TEST(RandomSampleBatchOracle, ArgmaxTriggersPerRow) {
  const HostTensor scores = F32({2, 4}, {1, 3, 2, 0, 2, 0, 1, 3});
  const std::vector<oracle::RandomSampleResult> results =
      oracle::RandomSampleBatch(scores, {{0.99f, 1.0f, 1, 1.0f}, {0.99f, 1.0f, 4, 1.0f}});
  EXPECT_EQ(results[0].index, 1);  // topk 1: the largest of row 0
  EXPECT_TRUE(results[0].argmax);
  EXPECT_EQ(results[1].index, 1);  // limit 1.5375: the last rank of row 1, index 1
  EXPECT_FALSE(results[1].argmax);
}

TEST(RandomSampleBatchOracle, RefusesMismatchedParameters) {
  EXPECT_THROW(oracle::RandomSampleBatch(F32({2, 4}, {1, 3, 2, 0, 2, 0, 1, 3}), {{0.5f, 1.0f, 4, 1.0f}}),
               std::invalid_argument);
  EXPECT_THROW(oracle::RandomSampleBatch(F32({4}, {1, 3, 2, 0}), {{0.5f, 1.0f, 4, 1.0f}}), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
