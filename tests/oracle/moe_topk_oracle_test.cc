// The OP-MOETOPK routers' oracles (MoeTopkSoftmax, MoeTopkSigmoid) on rows small enough to
// work by hand.
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

// Logits 1, 3, 2, 0: p = 0.0871443187, 0.6439142599, 0.2368828181, 0.0320586033 (m = 3,
// Σ e^(x − m) = 1.5530017928). A bias of 0.6 on expert 0 lifts it to 0.687 over expert 1's
// 0.644: it ranks first, and its weight stays its probability.
TEST(MoeTopkSoftmaxOracle, TheBiasSelectsAndTheProbabilitiesWeigh) {
  const HostTensor x = F32({1, 4}, {1, 3, 2, 0});
  const HostTensor bias = F32({4}, {0.6f, 0, 0, 0});
  const oracle::TopkrouterResult plain = oracle::MoeTopkSoftmax(x, nullptr, 2, false, 0.0f);
  ExpectValues(plain.indices, {1, 2}, {1, 2});
  ExpectValues(plain.values, {1, 2}, {0.6439142598879724, 0.23688281808991013});
  const oracle::TopkrouterResult biased = oracle::MoeTopkSoftmax(x, &bias, 2, false, 0.0f);
  ExpectValues(biased.indices, {1, 2}, {0, 1});
  ExpectValues(biased.values, {1, 2}, {0.08714431874203257, 0.6439142598879724});
  // Renormalised over the two: 0.0871443 / 0.7310586 and 0.6439143 / 0.7310586.
  const oracle::TopkrouterResult renormalised = oracle::MoeTopkSoftmax(x, &bias, 2, true, 0.0f);
  ExpectValues(renormalised.values, {1, 2},
               {0.08714431874203257 / 0.7310585786300049, 0.6439142598879724 / 0.7310585786300049});
}

// A soft cap of 2 folds the logit 4 to 2·tanh(2) = 1.9280551602: p = 1 / (1 + e^−1.928...) =
// 0.8730339992 (0.9820137900 uncapped).
TEST(MoeTopkSoftmaxOracle, TheSoftCapFoldsTheLogitsBeforeTheSoftmax) {
  const oracle::TopkrouterResult result = oracle::MoeTopkSoftmax(F32({1, 2}, {0, 4}), nullptr, 1, false, 2.0f);
  ExpectValues(result.indices, {1, 1}, {1});
  ExpectValues(result.values, {1, 1}, {0.8730339992227998});
}

// Sigmoids 0.5 and 0.75 (logits 0 and ln 3); a bias of 0.5 on expert 0 ranks it first; the
// renormalised weights are 0.5 / 1.25 and 0.75 / 1.25.
TEST(MoeTopkSigmoidOracle, TheBiasSelectsAndTheSigmoidsWeigh) {
  const HostTensor x = F32({1, 2}, {0, static_cast<float>(std::log(3.0))});
  const HostTensor bias = F32({2}, {0.5f, 0});
  const oracle::TopkrouterResult result = oracle::MoeTopkSigmoid(x, &bias, 2, true);
  ExpectValues(result.indices, {1, 2}, {0, 1});
  ExpectValues(result.values, {1, 2}, {0.4, 0.6}, 1e-7);
  const oracle::TopkrouterResult plain = oracle::MoeTopkSigmoid(x, nullptr, 1, false);
  ExpectValues(plain.indices, {1, 1}, {1});
  ExpectValues(plain.values, {1, 1}, {0.75}, 1e-7);
}

// Logits ±100: sigmoids 1 and 0, never NaN.
TEST(MoeTopkSigmoidOracle, LargeLogitsScoreZeroAndOne) {
  const oracle::TopkrouterResult result = oracle::MoeTopkSigmoid(F32({1, 3}, {-100, 100, 0}), nullptr, 3, false);
  ExpectValues(result.indices, {1, 3}, {1, 2, 0});
  ExpectValues(result.values, {1, 3}, {1.0, 0.5, 3.720075976020836e-44});
}

// Equal logits and biases tie (no margin from them, the lower index first); otherwise the
// margin is the smallest gap between neighbouring biased scores down to rank topk.
TEST(MoeTopkOracles, MarginsLeaveExactTiesAside) {
  const HostTensor x = F32({1, 3}, {0, 0, 0});
  const HostTensor tied = F32({3}, {0.25f, 0.25f, 0});
  const oracle::TopkrouterResult ties = oracle::MoeTopkSigmoid(x, &tied, 2, false);
  ExpectValues(ties.indices, {1, 2}, {0, 1});
  EXPECT_NEAR(ties.row_margins[0], 0.25, 1e-12);  // rank 1 (0.75) against rank 2 (0.5)
  const HostTensor close = F32({3}, {0.25f, 0.25f + 1e-5f, 0});
  const oracle::TopkrouterResult near = oracle::MoeTopkSigmoid(x, &close, 2, false);
  ExpectValues(near.indices, {1, 2}, {1, 0});
  EXPECT_NEAR(near.row_margins[0], 1e-5, 1e-7);
}

TEST(MoeTopkOracles, BadArguments) {
  const HostTensor x = F32({2, 4}, std::vector<double>(8, 0.0));
  const HostTensor short_bias = F32({3}, {0, 0, 0});
  EXPECT_THROW(oracle::MoeTopkSoftmax(x, nullptr, 0, false, 0.0f), std::invalid_argument);
  EXPECT_THROW(oracle::MoeTopkSoftmax(x, nullptr, 5, false, 0.0f), std::invalid_argument);
  EXPECT_THROW(oracle::MoeTopkSigmoid(x, &short_bias, 2, false), std::invalid_argument);
  EXPECT_THROW(oracle::MoeTopkSigmoid(F32({8}, std::vector<double>(8, 0.0)), nullptr, 2, false),
               std::invalid_argument);
}

}  // namespace
}  // namespace infinicts
