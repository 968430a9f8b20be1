// The generators are reproducible from their seed and produce data that exposes the
// faults they are named for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "tensor/generate.h"
#include "tensor/half.h"

namespace infinicts {
namespace {

TEST(Generate, SameSeedSameData) {
  HostTensor first(INFINI_DTYPE_F16, Shape{64}), second(INFINI_DTYPE_F16, Shape{64}), third(INFINI_DTYPE_F16, Shape{64});
  Rng rng_a(7), rng_b(7), rng_c(8);
  FillUniform(first, rng_a, -1, 1);
  FillUniform(second, rng_b, -1, 1);
  FillUniform(third, rng_c, -1, 1);
  EXPECT_EQ(first.ToDoubles(), second.ToDoubles());
  EXPECT_NE(first.ToDoubles(), third.ToDoubles());
}

TEST(Generate, FillsStridedViewsThroughTheirIndices) {
  HostTensor view(INFINI_DTYPE_F32, PaddedLayout({3, 4}, 2));
  view.FillStorage(-99.0);
  Rng rng(1);
  FillAwayFromZero(view, rng);
  for (double value : view.ToDoubles()) EXPECT_NE(value, -99.0);
  for (size_t gap : view.UncoveredStorageElements()) EXPECT_EQ(view.GetStorageElement(gap), -99.0);
}

TEST(Generate, AwayFromZeroStaysAwayFromZero) {
  HostTensor tensor(INFINI_DTYPE_BF16, Shape{4096});
  Rng rng(2);
  FillAwayFromZero(tensor, rng, 0.25, 2.0);
  bool positive = false, negative = false;
  for (double value : tensor.ToDoubles()) {
    ASSERT_GE(std::fabs(value), 0.24);
    ASSERT_LE(std::fabs(value), 2.01);
    positive |= value > 0;
    negative |= value < 0;
  }
  EXPECT_TRUE(positive && negative);
}

// A softmax computed in float without subtracting the row maximum breaks on every row.
TEST(Generate, LargeMagnitudeRowsBreakANaiveSoftmax) {
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}) {
    HostTensor tensor(dtype, Shape{8, 32});
    Rng rng(3);
    FillLargeMagnitudeRows(tensor, rng, 1);
    for (size_t row = 0; row < 8; ++row) {
      float sum = 0.0f;
      for (size_t j = 0; j < 32; ++j) sum += std::exp(static_cast<float>(tensor.Get({row, j})));
      const float first = std::exp(static_cast<float>(tensor.Get({row, 0}))) / sum;
      EXPECT_FALSE(std::isfinite(first) && sum > 0.0f) << "row " << row;
    }
  }
}

TEST(Generate, LargeMagnitudeRowsAlongAnInnerAxisShareTheirLevel) {
  HostTensor tensor(INFINI_DTYPE_F32, Shape{2, 16, 3});
  Rng rng(4);
  FillLargeMagnitudeRows(tensor, rng, 1, 100.0, 4.0);
  for (size_t outer = 0; outer < 2; ++outer) {
    for (size_t inner = 0; inner < 3; ++inner) {
      const double level = tensor.Get({outer, 0, inner}) > 0 ? 100.0 : -100.0;
      for (size_t j = 0; j < 16; ++j) EXPECT_LE(std::fabs(tensor.Get({outer, j, inner}) - level), 4.0);
    }
  }
}

// Every row tells eps inside the square root from eps outside it.
TEST(Generate, SmallRmsRowsSeparateEpsilonPlacements) {
  const double epsilon = 1e-5;
  HostTensor tensor(INFINI_DTYPE_F16, Shape{16, 128});
  Rng rng(5);
  FillSmallRmsRows(tensor, rng, epsilon);
  for (size_t row = 0; row < 16; ++row) {
    double sum_of_squares = 0.0;
    for (size_t j = 0; j < 128; ++j) sum_of_squares += tensor.Get({row, j}) * tensor.Get({row, j});
    const double mean_square = sum_of_squares / 128;
    EXPECT_GT(mean_square, epsilon / 5);
    EXPECT_LT(mean_square, epsilon * 5);
    const double inside = std::sqrt(mean_square + epsilon);
    const double outside = std::sqrt(mean_square) + epsilon;
    EXPECT_GT(std::fabs(inside - outside) / inside, 0.1) << "row " << row;
  }
}

TEST(Generate, SmallVarianceRows) {
  HostTensor tensor(INFINI_DTYPE_F32, Shape{8, 256});
  Rng rng(6);
  FillSmallVarianceRows(tensor, rng, 1e-4, 2.0);
  for (size_t row = 0; row < 8; ++row) {
    double mean = 0.0;
    for (size_t j = 0; j < 256; ++j) mean += tensor.Get({row, j}) / 256;
    double variance = 0.0;
    for (size_t j = 0; j < 256; ++j) variance += (tensor.Get({row, j}) - mean) * (tensor.Get({row, j}) - mean) / 256;
    EXPECT_GT(variance, 1e-4 / 3);
    EXPECT_LT(variance, 1e-4 * 3);
  }
}

// Long-K dot products of positive dyadic data are exact in F32 and far off (beyond the
// F16 tolerance) when accumulated in F16 or BF16.
TEST(Generate, DyadicDataExposesHalfPrecisionAccumulation) {
  const size_t k = 4096;
  HostTensor a(INFINI_DTYPE_F16, Shape{4, k}), b(INFINI_DTYPE_F16, Shape{4, k});
  Rng rng(7);
  FillDyadic(a, rng, 1, 4);
  FillDyadic(b, rng, 1, 4);
  std::set<double> seen;
  for (size_t row = 0; row < 4; ++row) {
    double exact = 0.0;
    float single = 0.0f;
    double half = 0.0, brain = 0.0;
    for (size_t q = 0; q < k; ++q) {
      const double product = a.Get({row, q}) * b.Get({row, q});
      seen.insert(a.Get({row, q}));
      exact += product;
      single += static_cast<float>(product);
      half = RoundToF16(half + product);
      brain = RoundToBf16(brain + product);
    }
    EXPECT_EQ(static_cast<double>(single), exact);
    EXPECT_GT(std::fabs(half - exact), 0.01 * exact);
    EXPECT_GT(std::fabs(brain - exact), 0.05 * exact);
  }
  EXPECT_EQ(seen, (std::set<double>{1, 2, 3, 4}));
}

TEST(Generate, DyadicFractionsAndSigns) {
  HostTensor tensor(INFINI_DTYPE_BF16, Shape{2000});
  Rng rng(17);
  FillDyadic(tensor, rng, -2, 2, 2);
  std::set<double> seen;
  for (double value : tensor.ToDoubles()) seen.insert(value);
  EXPECT_EQ(seen, (std::set<double>{-0.5, -0.25, 0.25, 0.5}));
}

TEST(Generate, IntegersStayInRange) {
  HostTensor positions(INFINI_DTYPE_I32, Shape{1000});
  Rng rng(8);
  FillIntegers(positions, rng, 5, 9);
  std::set<int64_t> seen;
  for (size_t i = 0; i < 1000; ++i) seen.insert(positions.GetInt({i}));
  EXPECT_EQ(seen, (std::set<int64_t>{5, 6, 7, 8}));
  HostTensor arange(INFINI_DTYPE_I64, Shape{2, 3});
  FillArange(arange, 10);
  EXPECT_EQ(arange.ToDoubles(), (std::vector<double>{10, 11, 12, 13, 14, 15}));
  EXPECT_THROW(FillIntegers(positions, rng, 3, 3), std::invalid_argument);
}

TEST(Generate, SamplingScoresHaveADistinctTop) {
  HostTensor scores(INFINI_DTYPE_F16, Shape{32000});
  Rng rng(9);
  FillSamplingScores(scores, rng, 64, 0.125);
  std::vector<double> values = scores.ToDoubles();
  std::sort(values.rbegin(), values.rend());
  for (size_t rank = 1; rank < 64; ++rank) EXPECT_EQ(values[rank - 1] - values[rank], 0.125);
  EXPECT_LT(values[64], values[63]);
  // BF16 cannot keep 1000 values 1/8 apart near a hundred: the generator says so.
  HostTensor coarse(INFINI_DTYPE_BF16, Shape{2000});
  EXPECT_THROW(FillSamplingScores(coarse, rng, 1000, 0.125), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
