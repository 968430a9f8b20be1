#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

TEST(RMSNormOracle, HandComputed) {
  // mean(x²) = (9 + 16) / 2 = 12.5
  const HostTensor x = F32({1, 2}, {3, 4});
  const HostTensor w = F32({2}, {1, 2});
  const double rms = std::sqrt(12.5);
  ExpectValues(oracle::RMSNorm(x, w, 0.0), {1, 2}, {3 / rms, 8 / rms});
  ExpectValues(oracle::RMSNorm(x, w, 0.5), {1, 2}, {3 / std::sqrt(13.0), 8 / std::sqrt(13.0)});
}

// Epsilon inside the square root: for a row whose mean square equals eps the result is
// 1/sqrt(2) of the unit-rms value; eps outside the root would give nearly 1.
TEST(RMSNormOracle, EpsilonInsideTheSquareRoot) {
  const HostTensor x = F32({2}, {1e-3, -1e-3});
  const HostTensor w = F32({2}, {1, 1});
  const HostTensor y = oracle::RMSNorm(x, w, 1e-6);
  const double x0 = static_cast<double>(1e-3f);  // the value F32 stores
  EXPECT_NEAR(y.GetAt(0), x0 / std::sqrt(x0 * x0 + 1e-6), 1e-12);
  EXPECT_NEAR(y.GetAt(0), 0.7071067811865475, 1e-6);
}

TEST(RMSNormOracle, RowsOfABatchedStridedInput) {
  const HostTensor x = F32({2, 2, 2}, {3, 4, 6, 8, 1, 1, 0, 2}).WithLayout(PaddedLayout({2, 2, 2}, 1));
  const HostTensor w = F32({2}, {1, 1});
  const HostTensor y = oracle::RMSNorm(x, w, 0.0);
  const double r0 = std::sqrt(12.5), r1 = std::sqrt(50.0), r2 = 1.0, r3 = std::sqrt(2.0);
  ExpectValues(y, {2, 2, 2}, {3 / r0, 4 / r0, 6 / r1, 8 / r1, 1 / r2, 1 / r2, 0, 2 / r3});
}

TEST(LayerNormOracle, ThreeOutputsAsInfiniCoreDefinesThem) {
  // mean 2.5, biased variance (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25
  const HostTensor x = F32({1, 4}, {1, 2, 3, 4});
  const HostTensor w = F32({4}, {2, 2, 2, 2});
  const HostTensor b = F32({4}, {0.5, 0.5, 0.5, 0.5});
  const double deviation = std::sqrt(1.25);
  const std::vector<double> standardized = {-1.5 / deviation, -0.5 / deviation, 0.5 / deviation, 1.5 / deviation};
  const oracle::LayerNormResult result = oracle::LayerNorm(x, w, &b, 0.0);
  ExpectValues(result.std_deviation, {1}, {deviation});
  ExpectValues(result.standardization, {1, 4}, standardized);
  std::vector<double> output;
  for (double s : standardized) output.push_back(2 * s + 0.5);
  ExpectValues(result.output, {1, 4}, output);
}

TEST(LayerNormOracle, EpsilonJoinsTheVarianceAndBiasIsOptional) {
  const HostTensor x = F32({2, 4}, {1, 2, 3, 4, 5, 5, 5, 5});
  const HostTensor w = F32({4}, {1, 1, 1, 1});
  const oracle::LayerNormResult result = oracle::LayerNorm(x, w, nullptr, 0.75);
  const double deviation = std::sqrt(2.0);  // sqrt(1.25 + 0.75)
  ExpectValues(result.std_deviation, {2}, {deviation, std::sqrt(0.75)});
  ExpectValues(result.output, {2, 4}, {-1.5 / deviation, -0.5 / deviation, 0.5 / deviation, 1.5 / deviation, 0, 0, 0, 0});
}

TEST(AddRMSNormOracle, NormalizesTheSumAndReturnsIt) {
  // a + b = (3, 4): mean square 12.5, as in RMSNormOracle.HandComputed; a alone would give 1.
  const HostTensor a = F32({1, 2}, {1, 1});
  const HostTensor b = F32({1, 2}, {2, 3});
  const HostTensor w = F32({2}, {1, 2});
  const oracle::AddRMSNormResult result = oracle::AddRMSNorm(a, b, w, 0.5);
  ExpectValues(result.residual_out, {1, 2}, {3, 4});
  ExpectValues(result.y, {1, 2}, {3 / std::sqrt(13.0), 8 / std::sqrt(13.0)});
}

TEST(AddRMSNormOracle, RefusesMismatchedAddends) {
  const HostTensor w = F32({2}, {1, 1});
  EXPECT_THROW(oracle::AddRMSNorm(F32({1, 2}, {1, 1}), F32({2, 1}, {1, 1}), w, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
