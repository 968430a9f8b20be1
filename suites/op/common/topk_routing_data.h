// Inputs for the MoE routers' cases (Topksoftmax, Topkrouter, MoeTopkSoftmax, MoeTopkSigmoid;
// their accuracy and perf files).
// The routers' indices are compared exactly, so no two experts whose order decides a result
// may lie so close that F32 arithmetic could swap them: either they tie exactly (equal
// stored inputs, which every arithmetic ranks the same way and the tie rule decides) or
// they lie well apart.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/op_case.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"
#include "tensor/generate.h"
#include "tensor/host_tensor.h"

namespace infinicts::op_cases {

// values (F32) and indices (I32), contiguous [tokens, topk]: compute writes them, while the
// create call takes no descriptor of them (their size follows the run-time topk).
inline std::vector<TensorSpec> RoutingOutputSpecs(size_t tokens, size_t topk) {
  std::vector<TensorSpec> specs = {{"values", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({tokens, topk})},
                                   {"indices", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({tokens, topk})}};
  for (TensorSpec &spec : specs) spec.described = false;
  return specs;
}

// The spec leaves the order of tied experts open (OP-TOPKSOFTMAX-6, OP-TOPKROUTER-6): the backend
// may rank any expert at j whose ranking key ties with the oracle's expert there, provided its row
// names distinct experts. `same_key(row, a, b)` says whether experts a and b tie exactly (equal
// stored inputs). Returns the oracle's outputs with each such index taken from the backend's
// answer (the values follow the key, so they stay equal), and records ties_in_index_order: 0 when
// some tie came out in another order than the lower index first.
template <class SameKey>
std::vector<HostTensor> SettleTopkTies(std::vector<HostTensor> expected, const std::vector<HostTensor> &got,
                                       size_t experts, SameKey same_key) {
  constexpr size_t kIndices = 1;  // RoutingOutputSpecs: values, indices
  HostTensor &want = expected[kIndices];
  const HostTensor &answer = got[kIndices];
  if (answer.storage_bytes() == 0 || want.shape().size() != 2) return expected;
  bool in_index_order = true;
  for (size_t r = 0; r < want.shape()[0]; ++r) {
    std::vector<int64_t> row;
    for (size_t j = 0; j < want.shape()[1]; ++j) row.push_back(static_cast<int64_t>(answer.Get({r, j})));
    std::vector<int64_t> sorted = row;
    std::sort(sorted.begin(), sorted.end());
    const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    const bool in_range = sorted.empty() || (sorted.front() >= 0 && sorted.back() < static_cast<int64_t>(experts));
    if (!distinct || !in_range) continue;  // not a selection at all: the comparison says so
    for (size_t j = 0; j < row.size(); ++j) {
      const auto wanted = static_cast<int64_t>(want.Get({r, j}));
      if (row[j] == wanted || !same_key(r, static_cast<size_t>(row[j]), static_cast<size_t>(wanted))) continue;
      want.Set({r, j}, static_cast<double>(row[j]));
      in_index_order = false;
    }
  }
  cts::RecordMetric("ties_in_index_order", in_index_order ? 1 : 0);
  return expected;
}

// ---- Topksoftmax: logit rows on a grid -------------------------------------------------

enum class LogitRows {
  kDistinct,       // distinct logits: the ranking is unambiguous
  kTies,           // few levels: equal logits inside the top k and at its edge
  kLargePositive,  // kDistinct shifted far up: e^x overflows without the max subtraction
  kLargeNegative,  // and far down: every e^x underflows to 0 (0 / 0) without it
};

inline const char *LogitRowsName(LogitRows kind) {
  switch (kind) {
    case LogitRows::kDistinct: return "distinct";
    case LogitRows::kTies: return "ties";
    case LogitRows::kLargePositive: return "large_positive";
    case LogitRows::kLargeNegative: return "large_negative";
  }
  return "rows";
}

template <>
struct EnumNames<LogitRows> {
  static std::vector<std::pair<LogitRows, std::string>> All() {
    std::vector<std::pair<LogitRows, std::string>> all;
    for (LogitRows kind : {LogitRows::kDistinct, LogitRows::kTies, LogitRows::kLargePositive, LogitRows::kLargeNegative})
      all.emplace_back(kind, LogitRowsName(kind));
    return all;
  }
};

// The grid of distinct logits for a row of `experts`: the largest power of two <= 6 / experts,
// at least 1/32, so that 1.5·experts levels span about 9 (12 for 256 experts), as router
// logits do: the experts left out keep a visible share of the row (a softmax over the
// selected ones alone is off by it), and each value has at most 8 significant bits (exact
// in BF16). Neighbouring levels differ by at least 1/32, a probability ratio of 1.03.
inline double LogitStep(size_t experts) {
  double step = 1.0;
  while (step > 1.0 / 32 && step * static_cast<double>(experts) > 6.0) step /= 2;
  return step;
}

// Where the large rows sit: beyond e^x's F32 range (88.7) for F32 and F64; for F16 and BF16
// beyond F16's (11.1) and near F32's, where F16's spacing is 1/16 and BF16's 0.5, so finer
// neighbouring levels round onto one (ties again, which the tie rule decides).
inline double LargeLogitOffset(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 ? 96.0 : 1000.0;
}

// Fills row r of x [tokens, experts]. kDistinct rows take `experts` of 1.5·experts grid
// levels around 0 (LogitStep), at random and in random order, so rows differ in their
// maximum and spread; kTies rows draw each logit from max(3, experts / 4) levels 0.5 apart.
inline void FillExpertLogitRow(HostTensor &x, size_t r, Rng &rng, LogitRows kind) {
  if (x.ndim() != 2) throw std::invalid_argument("FillExpertLogitRow: x must be 2-D");
  const size_t experts = x.shape()[1];
  if (kind == LogitRows::kTies) {
    const size_t tie_levels = std::max<size_t>(3, experts / 4);
    std::uniform_int_distribution<size_t> tie_level(0, tie_levels - 1);
    for (size_t i = 0; i < experts; ++i) {
      x.Set({r, i}, 0.5 * (static_cast<double>(tie_level(rng)) - static_cast<double>(tie_levels / 2)));
    }
    return;
  }
  const double step = LogitStep(experts);
  const size_t levels = experts + experts / 2;
  const double offset = kind == LogitRows::kLargePositive   ? LargeLogitOffset(x.dtype())
                        : kind == LogitRows::kLargeNegative ? -LargeLogitOffset(x.dtype())
                                                            : 0.0;
  std::vector<size_t> picks(levels);
  std::iota(picks.begin(), picks.end(), size_t{0});
  std::shuffle(picks.begin(), picks.end(), rng);
  for (size_t i = 0; i < experts; ++i) {
    const double level = static_cast<double>(picks[i]) - static_cast<double>(levels / 2);
    x.Set({r, i}, offset + step * level);
  }
}

inline void FillExpertLogits(HostTensor &x, Rng &rng, LogitRows kind) {
  if (x.ndim() != 2) throw std::invalid_argument("FillExpertLogits: x must be 2-D");
  for (size_t r = 0; r < x.shape()[0]; ++r) FillExpertLogitRow(x, r, rng, kind);
}

// ---- Topkrouter: scores and biases, redrawn until the ranking is unambiguous -----------

enum class RouterRows {
  kRandom,        // x uniform in [-4, 4), bias uniform in [-0.25, 0.25): the bias reorders experts
  kTies,          // x of 9 levels, bias of 3: equal biased scores, equal group scores
  kLarge,         // kRandom with a quarter of the logits at ±100: sigmoid's e^x overflows there
  kNegativeBias,  // bias in [-2, -0.95): few kept experts score above the masked ones' 0
  kFaint,         // x in [-26, -20): the chosen sigmoids sum to a few 1e-9, so the sum's 1e-9 shows
};

inline const char *RouterRowsName(RouterRows kind) {
  switch (kind) {
    case RouterRows::kRandom: return "random";
    case RouterRows::kTies: return "ties";
    case RouterRows::kLarge: return "large";
    case RouterRows::kNegativeBias: return "negative_bias";
    case RouterRows::kFaint: return "faint";
  }
  return "rows";
}

template <>
struct EnumNames<RouterRows> {
  static std::vector<std::pair<RouterRows, std::string>> All() {
    std::vector<std::pair<RouterRows, std::string>> all;
    for (RouterRows kind : {RouterRows::kRandom, RouterRows::kTies, RouterRows::kLarge, RouterRows::kNegativeBias,
                            RouterRows::kFaint})
      all.emplace_back(kind, RouterRowsName(kind));
    return all;
  }
};

// F32 sigmoids and sums are good to a few 1e-7 here; the decisive gaps must be far larger.
inline constexpr double kRouterMinMargin = 1e-4;
inline constexpr int kRouterMaxDraws = 200;

inline void FillRouterBias(HostTensor &bias, Rng &rng, RouterRows kind) {
  std::uniform_int_distribution<int> three(-1, 1);
  for (size_t i = 0; i < bias.numel(); ++i) {
    switch (kind) {
      case RouterRows::kTies: bias.SetAt(i, 0.125 * three(rng)); break;
      case RouterRows::kNegativeBias: bias.SetAt(i, std::uniform_real_distribution<double>(-2.0, -0.95)(rng)); break;
      default: bias.SetAt(i, std::uniform_real_distribution<double>(-0.25, 0.25)(rng)); break;
    }
  }
}

inline void FillRouterLogitRow(HostTensor &x, size_t row, Rng &rng, RouterRows kind) {
  std::uniform_real_distribution<double> uniform = kind == RouterRows::kFaint
                                                       ? std::uniform_real_distribution<double>(-26.0, -20.0)
                                                       : std::uniform_real_distribution<double>(-4.0, 4.0);
  std::uniform_int_distribution<int> nine(-4, 4), four(0, 3);
  std::bernoulli_distribution positive(0.5);
  for (size_t i = 0; i < x.shape()[1]; ++i) {
    double value = kind == RouterRows::kTies ? 0.5 * nine(rng) : uniform(rng);
    if (kind == RouterRows::kLarge && four(rng) == 0) value = positive(rng) ? 100.0 : -100.0;
    x.Set({row, i}, value);
  }
}

// Draws the bias (draw_bias()), then every row of x (draw_row(r)), and draws again every row
// whose oracle margin (row_margins(), one per row) is below kRouterMinMargin, the bias and
// every row with it where `bias_decides` (rows whose scores cannot move their ranking, which
// is the bias's). Throws, naming `op`, when rows stay undecided after kRouterMaxDraws draws.
template <class DrawBias, class DrawRow, class RowMargins>
void DrawUntilDecided(const char *op, size_t tokens, bool bias_decides, DrawBias draw_bias, DrawRow draw_row,
                      RowMargins row_margins) {
  std::vector<size_t> to_draw;
  for (int draw = 0; draw < kRouterMaxDraws; ++draw) {
    if (draw == 0 || bias_decides) {
      draw_bias();
      to_draw.resize(tokens);
      std::iota(to_draw.begin(), to_draw.end(), size_t{0});
    }
    for (size_t row : to_draw) draw_row(row);
    const std::vector<double> margins = row_margins();
    to_draw.clear();
    for (size_t row = 0; row < margins.size(); ++row) {
      if (margins[row] < kRouterMinMargin) to_draw.push_back(row);
    }
    if (to_draw.empty()) return;
  }
  throw std::logic_error(std::string(op) + " data: rows still ranked within " + std::to_string(kRouterMinMargin) +
                         " after " + std::to_string(kRouterMaxDraws) + " draws");
}

// Fills correction_bias, then x row by row, drawing again every row whose oracle margin
// (oracle::TopkrouterResult::row_margins) is below kRouterMinMargin. Faint rows' sigmoids
// (below 1e-8) cannot move their ranking, which is the bias's: there a failed draw draws the
// bias and every row again.
inline void FillRouterInputs(HostTensor &x, HostTensor &bias, Rng &rng, RouterRows kind,
                             float routed_scaling_factor, size_t topk) {
  DrawUntilDecided(
      "Topkrouter", x.shape()[0], kind == RouterRows::kFaint, [&] { FillRouterBias(bias, rng, kind); },
      [&](size_t row) { FillRouterLogitRow(x, row, rng, kind); },
      [&] { return oracle::Topkrouter(x, bias, routed_scaling_factor, topk).row_margins; });
}

}  // namespace infinicts::op_cases
