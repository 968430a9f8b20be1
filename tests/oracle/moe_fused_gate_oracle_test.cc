// MoeFusedGate's oracle (OP-MOEFUSEDGATE) on rows small enough to work by hand. Logits 0, ln 3
// and −ln 3 give the sigmoids 0.5, 0.75 and 0.25; the biases set the biased scores c.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "oracle/oracles.h"
#include "test_tensors.h"

namespace infinicts {
namespace {

using testing_helpers::ExpectValues;
using testing_helpers::F32;

const double kLn3 = std::log(3.0);

// The indices are I64.
void ExpectIndices(const HostTensor &indices, const Shape &shape, const std::vector<double> &expected) {
  EXPECT_EQ(indices.dtype(), INFINI_DTYPE_I64);
  ASSERT_EQ(indices.shape(), shape);
  EXPECT_EQ(indices.ToDoubles(), expected);
}

// Two groups of three. Group 0's c: 0.9, 0.2, 0.2 (best 0.9, two best 1.1, all 1.3); group 1's:
// 0.65, 0.55, 0 (best 0.65, two best 1.2, all 1.2). The sum of the two best keeps group 1,
// where its best alone or the sum of all would keep group 0. Its experts 3 (s 0.75) and 4
// (s 0.5) are weighted 0.75 / 1.25 and 0.5 / 1.25, from s, not c.
TEST(MoeFusedGateOracle, KeepsTheGroupsOfTheTwoBestAndWeighsByTheSigmoids) {
  const HostTensor x = F32({1, 6}, {0, 0, 0, kLn3, 0, 0});
  const HostTensor bias = F32({6}, {0.4, -0.3, -0.3, -0.1, 0.05, -0.5});
  const oracle::TopkrouterResult result = oracle::MoeFusedGate(x, bias, 2, 1, 2, 0, 2.5, false);
  ExpectIndices(result.indices, {1, 2}, {3, 4});
  ExpectValues(result.values, {1, 2}, {0.6, 0.4}, 1e-7);
  // The gaps: group 1.2 against 1.1, experts 0.65 against 0.55 (and 0.55 against 0).
  EXPECT_NEAR(result.row_margins[0], 0.1, 1e-6);
  // Every expert of the kept group: 3, 4, then 5 (c 0), never group 0's 0.9.
  const oracle::TopkrouterResult all = oracle::MoeFusedGate(x, bias, 2, 1, 3, 0, 2.5, false);
  ExpectIndices(all.indices, {1, 3}, {3, 4, 5});
  ExpectValues(all.values, {1, 3}, {0.75 / 1.75, 0.5 / 1.75, 0.5 / 1.75}, 1e-7);
  // Both groups kept: the three largest c over all six.
  const oracle::TopkrouterResult both = oracle::MoeFusedGate(x, bias, 2, 2, 3, 0, 2.5, false);
  ExpectIndices(both.indices, {1, 3}, {0, 3, 4});
}

// One fused shared expert (index 6) after the routed ones, weighted 1 / routed_scaling_factor;
// with the flag every weight is scaled, the shared one to 1.
TEST(MoeFusedGateOracle, SharedExpertsFollowAndTheFlagScales) {
  const HostTensor x = F32({1, 6}, {0, 0, 0, kLn3, 0, 0});
  const HostTensor bias = F32({6}, {0.4, -0.3, -0.3, -0.1, 0.05, -0.5});
  const oracle::TopkrouterResult plain = oracle::MoeFusedGate(x, bias, 2, 1, 3, 1, 2.5, false);
  ExpectIndices(plain.indices, {1, 3}, {3, 4, 6});
  ExpectValues(plain.values, {1, 3}, {0.6, 0.4, 0.4}, 1e-7);
  const oracle::TopkrouterResult scaled = oracle::MoeFusedGate(x, bias, 2, 1, 3, 1, 2.5, true);
  ExpectIndices(scaled.indices, {1, 3}, {3, 4, 6});
  ExpectValues(scaled.values, {1, 3}, {1.5, 1.0, 1.0}, 1e-6);
  // Two shared experts, factor 1: 6 and 7 weighted 1.
  const oracle::TopkrouterResult two = oracle::MoeFusedGate(x, bias, 2, 1, 4, 2, 1.0, false);
  ExpectIndices(two.indices, {1, 4}, {3, 4, 6, 7});
  ExpectValues(two.values, {1, 4}, {0.6, 0.4, 1.0, 1.0}, 1e-7);
}

// Groups 0 and 1 hold the same inputs in another order (c 0.6, 0.7 and 0.7, 0.6): equal scores,
// the lower group kept and no margin from it. Inside it, equal inputs rank the lower index first.
TEST(MoeFusedGateOracle, TiesGoToTheLowerGroupAndTheLowerExpert) {
  const HostTensor x = F32({1, 4}, {0, 0, 0, 0});
  const oracle::TopkrouterResult groups = oracle::MoeFusedGate(x, F32({4}, {0.1, 0.2, 0.2, 0.1}), 2, 1, 2, 0, 1.0, false);
  ExpectIndices(groups.indices, {1, 2}, {1, 0});
  ExpectValues(groups.values, {1, 2}, {0.5, 0.5});
  EXPECT_NEAR(groups.row_margins[0], 0.1, 1e-6);  // 0.7 against 0.6 alone
  const oracle::TopkrouterResult experts = oracle::MoeFusedGate(x, F32({4}, {0, 0.2, 0.2, 0.1}), 1, 1, 2, 0, 1.0, false);
  ExpectIndices(experts.indices, {1, 2}, {1, 2});
  EXPECT_NEAR(experts.row_margins[0], 0.1, 1e-6);  // 0.7 (twice) against 0.6
}

// Biased scores below 0: the kept group's experts are chosen all the same (a dropped expert is
// out of the selection, not scored 0). Group 0: c −0.5, −0.6 (sum −1.1); group 1: −0.9, −1.0.
TEST(MoeFusedGateOracle, DroppedExpertsAreNeverChosen) {
  const HostTensor x = F32({2, 4}, {0, 0, 0, 0, -kLn3, -kLn3, 0, 0});
  const HostTensor bias = F32({4}, {-1.0, -1.1, -1.4, -1.5});
  const oracle::TopkrouterResult result = oracle::MoeFusedGate(x, bias, 2, 1, 2, 0, 1.0, false);
  // Row 1: group 0's c −0.75, −0.85 (sum −1.6) against group 1's −0.9, −1.0 (−1.9).
  ExpectIndices(result.indices, {2, 2}, {0, 1, 0, 1});
  ExpectValues(result.values, {2, 2}, {0.5, 0.5, 0.5, 0.5}, 1e-7);
  EXPECT_NEAR(result.row_margins[0], 0.1, 1e-6);
  EXPECT_NEAR(result.row_margins[1], 0.1, 1e-6);
}

TEST(MoeFusedGateOracle, BadArguments) {
  const HostTensor x = F32({2, 8}, std::vector<double>(16, 0.0));
  const HostTensor bias = F32({8}, std::vector<double>(8, 0.0));
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 0, 1, 2, 0, 1.0, false), std::invalid_argument);   // no groups
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 3, 1, 2, 0, 1.0, false), std::invalid_argument);   // 3 does not divide 8
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 4, 0, 2, 0, 1.0, false), std::invalid_argument);   // no group kept
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 4, 5, 2, 0, 1.0, false), std::invalid_argument);   // 5 of 4 kept
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 4, 2, 1, 1, 1.0, false), std::invalid_argument);   // nothing routed
  EXPECT_THROW(oracle::MoeFusedGate(x, bias, 4, 2, 5, 0, 1.0, false), std::invalid_argument);   // 5 of 4 kept experts
  EXPECT_THROW(oracle::MoeFusedGate(x, F32({4}, {0, 0, 0, 0}), 4, 2, 2, 0, 1.0, false), std::invalid_argument);
  EXPECT_THROW(oracle::MoeFusedGate(F32({8}, std::vector<double>(8, 0.0)), bias, 4, 2, 2, 0, 1.0, false),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
