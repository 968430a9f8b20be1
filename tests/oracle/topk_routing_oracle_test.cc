// The MoE routers' oracles (Topksoftmax, Topkrouter) on rows small enough to work by hand.
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
using testing_helpers::F64;

// Logits 1, 3, 2, 0: ranked 1, 2, 0, 3. With m = 3, Σ e^(x - m) = 1 + e^-1 + e^-2 + e^-3 =
// 1.5530017928, so p_1 = 0.6439142599 and p_2 = e^-1 / 1.5530017928 = 0.2368828181.
TEST(TopksoftmaxOracle, ValuesAreTheWholeRowsSoftmax) {
  const oracle::TopkRoutingResult result = oracle::Topksoftmax(F32({1, 4}, {1, 3, 2, 0}), 2, 0);
  ExpectValues(result.indices, {1, 2}, {1, 2});
  ExpectValues(result.values, {1, 2}, {0.6439142598879724, 0.23688281808991013});
}

// Renormalised: 1 / (1 + e^-1) and e^-1 / (1 + e^-1), the softmax of the two selected.
TEST(TopksoftmaxOracle, NormRenormalisesTheSelectedOnesForAnyNonzeroNorm) {
  for (int norm : {1, 2, -1}) {
    const oracle::TopkRoutingResult result = oracle::Topksoftmax(F32({1, 4}, {1, 3, 2, 0}), 2, norm);
    ExpectValues(result.indices, {1, 2}, {1, 2});
    ExpectValues(result.values, {1, 2}, {0.7310585786300049, 0.2689414213699951});
  }
}

// Four equal logits: each is 1/4 of the row, not 1/2 of the two selected.
TEST(TopksoftmaxOracle, SelectedExpertsKeepTheirShareOfTheRow) {
  const oracle::TopkRoutingResult result = oracle::Topksoftmax(F32({1, 4}, {0, 0, 0, 0}), 2, 0);
  ExpectValues(result.indices, {1, 2}, {0, 1});
  ExpectValues(result.values, {1, 2}, {0.25, 0.25});
}

// Three experts at 5 (indices 1, 2, 4) tie; the lower index ranks first, also across the
// edge of the selection. Σ e^(x - 5) = e^-3 + 3 + e^-4 = 3.0681027073, so each p is 0.3259343299.
TEST(TopksoftmaxOracle, TiesGoToTheLowerIndex) {
  const HostTensor x = F32({1, 5}, {2, 5, 5, 1, 5});
  ExpectValues(oracle::Topksoftmax(x, 1, 0).indices, {1, 1}, {1});
  ExpectValues(oracle::Topksoftmax(x, 2, 0).indices, {1, 2}, {1, 2});
  const oracle::TopkRoutingResult three = oracle::Topksoftmax(x, 3, 0);
  ExpectValues(three.indices, {1, 3}, {1, 2, 4});
  ExpectValues(three.values, {1, 3}, {0.32593432991497495, 0.32593432991497495, 0.32593432991497495});
  ExpectValues(oracle::Topksoftmax(x, 5, 0).indices, {1, 5}, {1, 2, 4, 0, 3});
}

// Logits at ±1000 (e^x overflows or underflows): the same values as for 1 and 0, per row.
TEST(TopksoftmaxOracle, LargeLogitsStayFinite) {
  const oracle::TopkRoutingResult result = oracle::Topksoftmax(F32({2, 2}, {1000, 999, -1000, -999}), 2, 0);
  ExpectValues(result.indices, {2, 2}, {0, 1, 1, 0});
  ExpectValues(result.values, {2, 2},
               {0.7310585786300049, 0.2689414213699951, 0.7310585786300049, 0.2689414213699951});
}

TEST(TopksoftmaxOracle, HalfLogitsAndBadArguments) {
  const HostTensor half = HostTensor::FromValues(INFINI_DTYPE_F16, {1, 4}, {1, 3, 2, 0});
  ExpectValues(oracle::Topksoftmax(half, 2, 0).indices, {1, 2}, {1, 2});
  EXPECT_THROW(oracle::Topksoftmax(F32({4}, {1, 3, 2, 0}), 2, 0), std::invalid_argument);
  EXPECT_THROW(oracle::Topksoftmax(F32({1, 4}, {1, 3, 2, 0}), 0, 0), std::invalid_argument);
  EXPECT_THROW(oracle::Topksoftmax(F32({1, 4}, {1, 3, 2, 0}), 5, 0), std::invalid_argument);
  EXPECT_THROW(oracle::Topksoftmax(F32({1, 2}, {1, NAN}), 1, 0), std::invalid_argument);
}

// A router row: every logit 0 (score 0.5) and every bias 0 unless set, in F64 so that the
// scores below are exact.
struct RouterRow {
  std::vector<double> x = std::vector<double>(256, 0.0);
  std::vector<double> bias = std::vector<double>(256, 0.0);
  oracle::TopkrouterResult Route(size_t topk, float routed_scaling_factor = 2.5f) const {
    return oracle::Topkrouter(F64({1, 256}, x), F64({256}, bias), routed_scaling_factor, topk);
  }
};

// Every biased score 0.5: all groups score 1 and tie, so groups 0-3 are kept, and the
// experts tie, so 0, 1, 2 are selected, each 2.5 · 0.5 / (1.5 + 1e-9). Every tie comes from
// equal inputs: nothing was decided by a gap.
TEST(TopkrouterOracle, EqualScoresGoToTheLowerGroupsAndIndices) {
  const oracle::TopkrouterResult result = RouterRow().Route(3);
  ExpectValues(result.indices, {1, 3}, {0, 1, 2});
  ExpectValues(result.values, {1, 3}, {0.8333333327777778, 0.8333333327777778, 0.8333333327777778});
  ASSERT_EQ(result.row_margins.size(), 1u);
  EXPECT_TRUE(std::isinf(result.row_margins[0]));
}

// Group 7: expert 224 (s 0.75, bias 0.05, b 0.8) and 225 (s 0.5, bias 0.2, b 0.7) score 1.5.
// Group 6: expert 192 has the second best b of all (0.9) but its others 0.05: 0.95, below the
// plain groups' 1, so group 6 is dropped, and 192 with it. Kept: 7, 0, 1, 2. The top 4 are
// 224, 225, 0, 1, valued from their unbiased scores: 2.5 · (0.75, 0.5, 0.5, 0.5) / (2.25 + 1e-9).
TEST(TopkrouterOracle, GroupsScoreByTheirTwoBestAndTheBiasOnlySelects) {
  RouterRow row;
  row.x[224] = std::log(3.0);
  row.bias[224] = 0.05;
  row.bias[225] = 0.2;
  row.bias[192] = 0.4;
  for (size_t i = 193; i < 224; ++i) row.bias[i] = -0.45;
  const oracle::TopkrouterResult result = row.Route(4);
  ExpectValues(result.indices, {1, 4}, {224, 225, 0, 1});
  ExpectValues(result.values, {1, 4},
               {0.833333332962963, 0.555555555308642, 0.555555555308642, 0.555555555308642}, 1e-9);
  // Groups 2 and 3 tie on equal inputs (the rule decides, no gap); the smallest deciding gap
  // is b 0.8 over 0.7.
  EXPECT_NEAR(result.row_margins[0], 0.1, 1e-12);
}

// routed_scaling_factor scales after the renormalisation: 1.5 · 0.75 / 2.25.
TEST(TopkrouterOracle, ScalingFactorMultipliesTheRenormalisedScores) {
  RouterRow row;
  row.x[224] = std::log(3.0);
  row.bias[224] = 0.3;
  const oracle::TopkrouterResult result = row.Route(4, 1.5f);
  ExpectValues(result.indices, {1, 4}, {224, 0, 1, 2});
  EXPECT_NEAR(result.values.GetAt(0), 1.5 * 0.75 / (0.75 + 1.5 + 1e-9), 1e-12);
}

// Every biased score 0.5 - 0.8 = -0.3: the kept groups' experts rank below the dropped
// ones at 0, which come in index order from group 4 (expert 128) on; each 2.5 · 0.5 / (1 + 1e-9).
TEST(TopkrouterOracle, DroppedExpertsScoreZeroNotMinusInfinity) {
  RouterRow row;
  row.bias.assign(256, -0.8);
  const oracle::TopkrouterResult result = row.Route(2);
  ExpectValues(result.indices, {1, 2}, {128, 129});
  ExpectValues(result.values, {1, 2}, {1.24999999875, 1.24999999875}, 1e-12);
}

// x = 100 scores 1 and x = -100 scores e^-100 (about 3.7e-44), never NaN: group 0 scores
// 1 + 0.5 and its expert 0 leads; expert 1 (b near 0) falls behind expert 2.
TEST(TopkrouterOracle, LargeLogitsScoreZeroAndOne) {
  RouterRow row;
  row.x[0] = 100.0;
  row.x[1] = -100.0;
  const oracle::TopkrouterResult result = row.Route(2);
  ExpectValues(result.indices, {1, 2}, {0, 2});
  ExpectValues(result.values, {1, 2}, {1.6666666655555555, 0.8333333327777778}, 1e-12);
}

// Expert 1 beats expert 0 by 1e-6 only: the margin says so. With every expert selected, the
// kept ones (0.5) lead the dropped ones (0) by 0.5, and the dropped ones tie in index order.
TEST(TopkrouterOracle, MarginIsTheSmallestDecidingGap) {
  RouterRow row;
  row.bias[1] = 1e-6;
  const oracle::TopkrouterResult result = row.Route(3);
  ExpectValues(result.indices, {1, 3}, {1, 0, 2});
  EXPECT_NEAR(result.row_margins[0], 1e-6, 1e-15);
  const oracle::TopkrouterResult all = RouterRow().Route(256);
  EXPECT_NEAR(all.row_margins[0], 0.5, 1e-12);
  EXPECT_EQ(all.indices.GetAt(127), 127);  // the kept groups' last expert
  EXPECT_EQ(all.indices.GetAt(128), 128);  // then the dropped ones in index order
}

TEST(TopkrouterOracle, BadArguments) {
  const HostTensor x = F64({1, 256}, std::vector<double>(256, 0.0));
  const HostTensor bias = F64({256}, std::vector<double>(256, 0.0));
  const HostTensor narrow_x = F64({1, 128}, std::vector<double>(128, 0.0));
  const HostTensor narrow_bias = F64({128}, std::vector<double>(128, 0.0));
  EXPECT_THROW(oracle::Topkrouter(narrow_x, narrow_bias, 2.5f, 8), std::invalid_argument);
  EXPECT_THROW(oracle::Topkrouter(x, F64({1, 256}, std::vector<double>(256, 0.0)), 2.5f, 8), std::invalid_argument);
  EXPECT_THROW(oracle::Topkrouter(x, bias, 2.5f, 0), std::invalid_argument);
  EXPECT_THROW(oracle::Topkrouter(x, bias, 2.5f, 257), std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
