// The MoE routers' CUDA row functions (reference_impl/op/cuda/moe_routing.h), which a GPU
// thread runs per token, run here on the CPU against the definitions (docs/spec/op.md,
// OP-TOPKSOFTMAX and OP-TOPKROUTER) written with sorts in long double: the selection with
// ties to the lower index, Topksoftmax with and without norm, Topkrouter's groups, and the
// OP-MOETOPK routers' rows (softmax with soft cap, sigmoid; bias, renormalize, strided outputs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cuda/moe_routing.h"

namespace reference_cuda_test {
namespace {

namespace op = infinicts::ref::op::cuda;
using Real = long double;

// The positions of the k largest values, largest first, ties to the lower index.
std::vector<int32_t> TopIndices(const std::vector<Real> &values, size_t k) {
  std::vector<int32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return values[a] > values[b]; });
  order.resize(k);
  return order;
}

TEST(MoeRoutingLogic, SelectionIsLargestFirstWithTiesToTheLowerIndex) {
  std::mt19937 random(21);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t n = 1 + trial % 40, k = 1 + trial % std::min<int64_t>(n, 9);
    std::uniform_int_distribution<int> level(-3, 3);  // few distinct values: many ties
    std::vector<float> scores(static_cast<size_t>(n));
    for (float &s : scores) s = static_cast<float>(level(random));
    std::vector<float> best(static_cast<size_t>(k));
    std::vector<int32_t> chosen(static_cast<size_t>(k));
    infinicts::ref::op::SelectTopK<float>([&](int64_t i) { return scores[static_cast<size_t>(i)]; }, n, k, best.data(),
                             chosen.data());
    const std::vector<int32_t> want = TopIndices(std::vector<Real>(scores.begin(), scores.end()), static_cast<size_t>(k));
    ASSERT_EQ(chosen, want) << "trial " << trial;
    for (int64_t j = 0; j < k; ++j) EXPECT_EQ(best[static_cast<size_t>(j)], scores[static_cast<size_t>(want[j])]);
  }
}

TEST(MoeRoutingLogic, TopksoftmaxRowsAreTheirSoftmaxAtTheLargestLogits) {
  std::mt19937 random(5);
  std::normal_distribution<float> logit(0, 3);
  for (int trial = 0; trial < 100; ++trial) {
    const int64_t n = 2 + trial * 7 % 130, topk = 1 + trial % std::min<int64_t>(n, op::kTopksoftmaxMaxTopk);
    const bool norm = trial % 2 == 1;
    std::vector<float> x(static_cast<size_t>(n));
    for (float &v : x) v = logit(random);
    if (n > 4) x[3] = x[1];  // a tie
    std::vector<float> values(static_cast<size_t>(topk));
    std::vector<int32_t> indices(static_cast<size_t>(topk));
    op::TopksoftmaxRow<float>([&](int64_t i) { return x[static_cast<size_t>(i)]; }, n, topk, norm, values.data(),
                              indices.data());
    const std::vector<Real> wide(x.begin(), x.end());
    const std::vector<int32_t> want = TopIndices(wide, static_cast<size_t>(topk));
    ASSERT_EQ(indices, want) << "trial " << trial;
    const Real max = *std::max_element(wide.begin(), wide.end());
    Real denominator = 0;
    if (norm) {
      for (int32_t i : want) denominator += std::exp(wide[static_cast<size_t>(i)] - max);
    } else {
      for (Real v : wide) denominator += std::exp(v - max);
    }
    for (int64_t j = 0; j < topk; ++j) {
      const Real p = std::exp(wide[static_cast<size_t>(want[static_cast<size_t>(j)])] - max) / denominator;
      EXPECT_NEAR(values[static_cast<size_t>(j)], p, 1e-6 * p) << "trial " << trial << " j " << j;
    }
  }
}

// Runs TopkrouterRow and checks it against the definition.
void ExpectRouted(const std::vector<double> &x, const std::vector<float> &bias, float scale, int64_t topk,
                  const std::string &what) {
  std::vector<float> values(static_cast<size_t>(topk));
  std::vector<int32_t> indices(static_cast<size_t>(topk));
  op::TopkrouterRow([&](int64_t i) { return x[static_cast<size_t>(i)]; },
                    [&](int64_t i) { return bias[static_cast<size_t>(i)]; }, scale, topk, values.data(), indices.data());
  std::vector<Real> s(op::kRouterExperts), b(op::kRouterExperts);
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = static_cast<float>(1 / (1 + std::exp(-static_cast<Real>(x[i]))));  // s is stored as F32
    b[i] = s[i] + bias[i];
  }
  std::vector<Real> group(op::kRouterGroups);
  for (size_t g = 0; g < group.size(); ++g) {
    std::vector<Real> members(b.begin() + static_cast<ptrdiff_t>(g * 32), b.begin() + static_cast<ptrdiff_t>(g * 32 + 32));
    std::sort(members.rbegin(), members.rend());
    group[g] = members[0] + members[1];  // the two largest, equal ones both
  }
  const std::vector<int32_t> kept = TopIndices(group, op::kRouterKeptGroups);
  std::vector<Real> c(op::kRouterExperts, 0);  // 0 outside the kept groups
  for (int32_t g : kept) {
    for (size_t i = static_cast<size_t>(g) * 32; i < static_cast<size_t>(g) * 32 + 32; ++i) c[i] = b[i];
  }
  const std::vector<int32_t> want = TopIndices(c, static_cast<size_t>(topk));
  ASSERT_EQ(indices, want) << what;
  Real sum = 1e-9L;
  for (int32_t e : want) sum += s[static_cast<size_t>(e)];
  for (int64_t j = 0; j < topk; ++j) {
    const Real v = scale * s[static_cast<size_t>(want[static_cast<size_t>(j)])] / sum;
    EXPECT_NEAR(values[static_cast<size_t>(j)], v, 1e-6 * v) << what << " j " << j;
  }
}

TEST(MoeRoutingLogic, TopkrouterKeepsTheFourBestGroupsAndScalesTheChosenSigmoids) {
  std::mt19937 random(9);
  std::normal_distribution<double> logit(0, 2);
  std::uniform_real_distribution<float> offset(-0.6f, 0.6f);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<double> x(op::kRouterExperts);
    std::vector<float> bias(op::kRouterExperts);
    for (double &v : x) v = logit(random);
    for (float &b : bias) b = offset(random);
    if (trial % 3 == 0) {
      // Two groups with equal scores: the lower is kept first.
      for (int64_t i = 0; i < op::kRouterGroupSize; ++i) x[64 + i] = x[32 + i], bias[64 + i] = bias[32 + i];
    }
    ExpectRouted(x, bias, 2.5f, 1 + trial * 5 % 24, "trial " + std::to_string(trial));
  }
}

TEST(MoeRoutingLogic, TopkrouterEdges) {
  // A group's two largest equal: both count. Groups 0-2 hold two x = 5 each; group 3 two
  // x = 2 (1.76), group 4 one x = 2.5 and one x = 1 (1.66): group 3 is kept, not group 4.
  std::vector<double> x(op::kRouterExperts, -5.0);
  const std::vector<float> no_bias(op::kRouterExperts, 0.0f);
  for (int g = 0; g < 3; ++g) x[static_cast<size_t>(32 * g + 4)] = x[static_cast<size_t>(32 * g + 20)] = 5.0;
  x[96 + 7] = x[96 + 30] = 2.0;
  x[128 + 1] = 2.5, x[128 + 2] = 1.0;
  ExpectRouted(x, no_bias, 1.0f, 8, "equal largest");
  // Biases pushing groups 2-7 below zero: past the 64 positive experts of groups 0 and 1, the
  // zeros of the groups not kept rank above the kept groups' negative scores.
  std::mt19937 random(4);
  std::normal_distribution<double> logit(0, 1);
  for (double &v : x) v = logit(random);
  std::vector<float> bias(op::kRouterExperts, -1.5f);
  std::fill(bias.begin(), bias.begin() + 64, 0.0f);
  ExpectRouted(x, bias, 1.0f, 80, "negative kept scores");
  // Sigmoids far below 1e-9: the sum's 1e-9 dominates the division.
  std::fill(x.begin(), x.end(), -30.0);
  x[17] = -28.0, x[40] = -29.0;
  ExpectRouted(x, no_bias, 3.0f, 4, "tiny sigmoids");
}

// The OP-MOETOPK row of a thread: scores, the biased ranking and the weights, against the
// definition in long double; outputs written with strides 3 and 2.
TEST(MoeRoutingLogic, MoeTopkRowsRankBiasedScoresAndWeighTheUnbiased) {
  std::mt19937 random(11);
  std::normal_distribution<double> logit(0, 2);
  std::uniform_int_distribution<int> eighths(-8, 8);
  for (int trial = 0; trial < 120; ++trial) {
    const bool softmax = trial % 2 == 0, renormalize = trial % 3 != 0, with_bias = trial % 4 != 1;
    const float softcap = softmax && trial % 5 == 0 ? 2.0f : 0.0f;
    const int64_t n = 2 + trial * 11 % 90, k = 1 + trial % std::min<int64_t>(n, infinicts::ref::op::kMoeTopkMaxTopk);
    std::vector<double> x(static_cast<size_t>(n)), bias(static_cast<size_t>(n), 0.0);
    for (double &v : x) v = static_cast<float>(logit(random));
    if (n > 4) x[3] = x[1];  // a tie, when the biases agree
    if (with_bias) {
      for (double &b : bias) b = eighths(random) / (8.0 * static_cast<double>(n));
      if (n > 4) bias[3] = bias[1];
    }
    infinicts::ref::op::MoeTopkPlan plan{};
    plan.params = {softmax ? infinicts::ref::op::MoeScore::kSoftmax : infinicts::ref::op::MoeScore::kSigmoid,
                   renormalize, softcap};
    plan.tokens = 1;
    plan.experts = n;
    plan.topk = k;
    plan.weight_strides[1] = 3;
    plan.index_strides[1] = 2;
    std::vector<float> weights(static_cast<size_t>(3 * k));
    std::vector<int32_t> indices(static_cast<size_t>(2 * k));
    infinicts::ref::op::MoeTopkRow(plan, 0, [&](int64_t i) { return x[static_cast<size_t>(i)]; },
                                   [&](int64_t i) { return bias[static_cast<size_t>(i)]; }, weights.data(),
                                   indices.data());

    std::vector<Real> score(static_cast<size_t>(n)), choice(static_cast<size_t>(n));
    Real max = -INFINITY, sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Real y = softcap != 0.0f ? softcap * std::tanh(static_cast<Real>(x[i]) / softcap) : static_cast<Real>(x[i]);
      score[i] = softmax ? y : 1 / (1 + std::exp(-static_cast<Real>(x[i])));
      max = std::max(max, score[i]);
    }
    if (softmax) {
      for (Real &y : score) sum += std::exp(y - max);
      for (Real &y : score) y = std::exp(y - max) / sum;
    }
    for (int64_t i = 0; i < n; ++i) choice[i] = score[i] + bias[i];
    const std::vector<int32_t> want = TopIndices(choice, static_cast<size_t>(k));
    Real selected = 0;
    for (int32_t e : want) selected += score[e];
    for (int64_t j = 0; j < k; ++j) {
      ASSERT_EQ(indices[static_cast<size_t>(2 * j)], want[j]) << "trial " << trial << " rank " << j;
      const Real expected = renormalize ? score[want[j]] / selected : score[want[j]];
      EXPECT_NEAR(weights[static_cast<size_t>(3 * j)], static_cast<double>(expected), 1e-6 * static_cast<double>(expected) + 1e-12)
          << "trial " << trial << " rank " << j;
    }
  }
}

}  // namespace
}  // namespace reference_cuda_test
