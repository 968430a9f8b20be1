// MoeTopkSoftmax and MoeTopkSigmoid (docs/spec/op.md OP-MOETOPK), per row of gating_output:
//   scores s_i: the softmax of the (soft-capped) logits over the row, or their sigmoids;
//   the experts ranked by c_i = s_i + bias_i, largest first, ties to the lower index;
//   the first topk of them, each with weight s_i, divided by their sum when renormalizing.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

// The scores of one row of logits, written into `score`.
using RowScores = void (*)(const double *logits, size_t experts, double softcap, double *score);

void SoftmaxScores(const double *logits, size_t experts, double softcap, double *score) {
  for (size_t i = 0; i < experts; ++i) score[i] = softcap != 0.0 ? softcap * std::tanh(logits[i] / softcap) : logits[i];
  const double max = *std::max_element(score, score + experts);
  double sum = 0.0;
  for (size_t i = 0; i < experts; ++i) sum += std::exp(score[i] - max);
  for (size_t i = 0; i < experts; ++i) score[i] = std::exp(score[i] - max) / sum;
}

void SigmoidScores(const double *logits, size_t experts, double, double *score) {
  for (size_t i = 0; i < experts; ++i) score[i] = 1.0 / (1.0 + std::exp(-logits[i]));  // e^(-x) = Inf gives 0
}

TopkrouterResult Route(const char *op, const HostTensor &gating_output, const HostTensor *correction_bias,
                       size_t topk, bool renormalize, double softcap, RowScores row_scores) {
  Require(gating_output.ndim() == 2, op, "gating_output must be 2-D [tokens, experts], got " +
                                             ShapeText(gating_output.shape()));
  const size_t tokens = gating_output.shape()[0], experts = gating_output.shape()[1];
  Require(topk >= 1 && topk <= experts, op,
          "topk must lie in [1, " + std::to_string(experts) + "], got " + std::to_string(topk));
  std::vector<double> bias(experts, 0.0);
  if (correction_bias != nullptr) {
    Require(correction_bias->numel() == experts, op, "correction_bias must hold one value per expert");
    bias = correction_bias->ToDoubles();
  }
  const std::vector<double> logits = gating_output.ToDoubles();
  auto is_nan = [](double v) { return std::isnan(v); };
  Require(std::none_of(logits.begin(), logits.end(), is_nan) && std::none_of(bias.begin(), bias.end(), is_nan), op,
          "gating_output and correction_bias must not hold NaN");

  TopkrouterResult result;
  std::vector<double> weights(tokens * topk), indices(tokens * topk);
  result.row_margins.assign(tokens, std::numeric_limits<double>::infinity());
  std::vector<double> score(experts), choice(experts);
  std::vector<size_t> ranking(experts);
  for (size_t r = 0; r < tokens; ++r) {
    const double *row = logits.data() + r * experts;
    row_scores(row, experts, softcap, score.data());
    for (size_t i = 0; i < experts; ++i) choice[i] = score[i] + bias[i];
    std::iota(ranking.begin(), ranking.end(), size_t{0});
    // stable_sort keeps equal choices in index order: ties go to the lower index.
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return choice[a] > choice[b]; });
    // Two experts of equal logit and bias tie in any arithmetic; others only by accident.
    for (size_t j = 0; j < topk && j + 1 < experts; ++j) {
      const size_t a = ranking[j], b = ranking[j + 1];
      if (row[a] == row[b] && bias[a] == bias[b]) continue;
      result.row_margins[r] = std::min(result.row_margins[r], choice[a] - choice[b]);
    }
    double selected_sum = 0.0;
    for (size_t j = 0; j < topk; ++j) selected_sum += score[ranking[j]];
    for (size_t j = 0; j < topk; ++j) {
      const double weight = score[ranking[j]];
      weights[r * topk + j] = renormalize ? weight / selected_sum : weight;
      indices[r * topk + j] = static_cast<double>(ranking[j]);
    }
  }
  result.values = F64Tensor({tokens, topk}, weights);
  result.indices = F64Tensor({tokens, topk}, indices);
  return result;
}

}  // namespace

TopkrouterResult MoeTopkSoftmax(const HostTensor &gating_output, const HostTensor *correction_bias, size_t topk,
                                bool renormalize, float moe_softcapping) {
  return Route("MoeTopkSoftmax", gating_output, correction_bias, topk, renormalize,
               static_cast<double>(moe_softcapping), SoftmaxScores);
}

TopkrouterResult MoeTopkSigmoid(const HostTensor &gating_output, const HostTensor *correction_bias, size_t topk,
                                bool renormalize) {
  return Route("MoeTopkSigmoid", gating_output, correction_bias, topk, renormalize, 0.0, SigmoidScores);
}

}  // namespace infinicts::oracle
