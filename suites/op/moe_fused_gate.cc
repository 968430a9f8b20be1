// MoeFusedGate: SGLang's grouped sigmoid router (DeepSeek-V3's) over input [tokens, E] and
// bias [E] (F32): s = sigmoid(input), c = s + bias, which only selects; the experts in
// num_expert_group groups of V consecutive ones, each scored by the sum of its two largest c;
// the topk_group best groups kept; the topk − num_fused_shared_experts largest c of those
// into topk_indices (I32) and s / Σ s over them into topk_weights (F32), then the fused shared
// experts E, E + 1, … weighted 1 / routed_scaling_factor; all times routed_scaling_factor when
// apply_routed_scaling_factor_on_output (spec section OP-MOEFUSEDGATE).
//
// Data (common/topk_routing_data.h's router rows, with groups planted where some are
// dropped): logits in [−4, 4) against biases of ±0.25, so the bias reorders experts and c
// differs from s in every weight; in each row a decoy group, the row's best expert (the one of
// the largest bias, at logit 6) among mates at [−4, −2), whose two best sum below the other
// groups' (a kernel ranking groups by their best expert, or not grouping, picks it), and a
// broad group of logits in [0.5, 1.5), first by the sum of all and not by the two best; tie
// rows of few levels, the bias repeating every group, where the last kept group and the first
// dropped one hold the same inputs (only the lower-group rule decides) and experts tie
// exactly; a quarter of the logits at ±100 (e^x / (1 + e^x) is NaN there); biases in
// [−2, −0.95), where every c is below 0 (a kernel scoring dropped experts 0 picks them); and
// faint rows (logits in [−26, −20)) whose weights are ratios of sigmoids of a few 1e-10.
// Every row is drawn again until its decisive gaps exceed 1e-4.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct MoeFusedGateProblem : Param<MoeFusedGateProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // input's; bias is F32
  size_t tokens = 6, experts = 64, groups = 8, keep = 4, topk = 6, shared = 1;
  float routed_scaling_factor = 2.5f;  // DeepSeek-V3's
  bool apply = false;                  // apply_routed_scaling_factor_on_output
  RouterRows rows = RouterRows::kRandom;
  LayoutKind input_layout = LayoutKind::kContiguous;

  size_t GroupSize() const { return groups == 0 ? 0 : experts / groups; }
  // The attributes OP-MOEFUSEDGATE-5 gives a meaning (the bad descriptors' problems aside).
  bool Routable() const {
    return groups >= 1 && experts >= groups && experts % groups == 0 && keep >= 1 && keep <= groups &&
           topk > shared && topk - shared <= keep * GroupSize();
  }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName({tokens, experts}) + "__groups_" +
           std::to_string(groups) + "_keep_" + std::to_string(keep) + "__top" + std::to_string(topk) + "_shared_" +
           std::to_string(shared) + "__scale_" + NumberName(routed_scaling_factor) + (apply ? "__apply" : "") +
           "__input_" + LayoutName(input_layout) + "__" + RouterRowsName(rows);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("experts", experts);
    field("groups", groups).Min(1).Max(32);  // OP-MOEFUSEDGATE-2: beyond 32 groups may be refused
    field("keep", keep).Min(1);
    field("topk", topk).Min(1);
    field("shared", shared);
    field("scale", routed_scaling_factor);
    field("apply", apply);
    field("rows", rows);
    field("input", input_layout);
  }
};

// Each group's score in row r, the sum of its two largest c (the oracle's rule, computed here
// for the data and the ties), and the groups ranked by it (ties: the lower group first).
std::vector<size_t> GroupRanking(const MoeFusedGateProblem &p, const HostTensor &input, const HostTensor &bias,
                                 size_t r) {
  const size_t size = p.GroupSize();
  std::vector<double> score(p.groups);
  for (size_t g = 0; g < p.groups; ++g) {
    std::vector<double> c(size);
    for (size_t v = 0; v < size; ++v) {
      const size_t i = g * size + v;
      c[v] = 1.0 / (1.0 + std::exp(-input.Get({r, i}))) + bias.GetAt(i);
    }
    std::sort(c.begin(), c.end(), std::greater<double>());
    score[g] = c[0] + (size > 1 ? c[1] : 0.0);
  }
  std::vector<size_t> ranking(p.groups);
  std::iota(ranking.begin(), ranking.end(), size_t{0});
  std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return score[a] > score[b]; });
  return ranking;
}

// Tie rows: the bias repeats every group, so a group given another's logits holds its inputs;
// a group's biases not all equal, so that they reorder its experts and c is no multiple of s.
void FillGateBias(const MoeFusedGateProblem &p, HostTensor &bias, Rng &rng) {
  const size_t size = p.GroupSize();
  const auto all_equal = [&] {
    for (size_t i = 1; i < size; ++i) {
      if (bias.GetAt(i) != bias.GetAt(0)) return false;
    }
    return true;
  };
  do {
    FillRouterBias(bias, rng, p.rows);
  } while (p.rows == RouterRows::kTies && size > 1 && all_equal());
  if (p.rows != RouterRows::kTies) return;
  for (size_t i = size; i < p.experts; ++i) bias.SetAt(i, bias.GetAt(i % size));
}

// Row r drawn as the router rows are, then, where some groups are dropped, the groups that
// mislead: in tie rows the first dropped group takes the last kept one's logits (equal group
// scores); elsewhere but in faint rows the decoy and the broad group (see the top).
void FillGateRow(const MoeFusedGateProblem &p, HostTensor &input, const HostTensor &bias, size_t r, Rng &rng) {
  FillRouterLogitRow(input, r, rng, p.rows);
  const size_t size = p.GroupSize();
  if (p.keep >= p.groups || p.rows == RouterRows::kFaint) return;
  if (p.rows == RouterRows::kTies) {
    const std::vector<size_t> ranking = GroupRanking(p, input, bias, r);
    const size_t kept = ranking[p.keep - 1], dropped = ranking[p.keep];
    for (size_t v = 0; v < size; ++v) input.Set({r, dropped * size + v}, input.Get({r, kept * size + v}));
    return;
  }
  size_t decoy = 0;
  for (size_t i = 1; i < p.experts; ++i) {
    if (bias.GetAt(i) > bias.GetAt(decoy)) decoy = i;
  }
  const size_t decoy_group = decoy / size;
  std::uniform_real_distribution<double> low(-4.0, -2.0), moderate(0.5, 1.5);
  for (size_t v = 0; v < size; ++v) input.Set({r, decoy_group * size + v}, low(rng));
  input.Set({r, decoy}, p.rows == RouterRows::kLarge ? 100.0 : 6.0);
  if (p.groups < 3) return;
  size_t broad = std::uniform_int_distribution<size_t>(0, p.groups - 2)(rng);
  if (broad >= decoy_group) ++broad;
  for (size_t v = 0; v < size; ++v) input.Set({r, broad * size + v}, moderate(rng));
}

struct MoeFusedGateOp {
  using Problem = MoeFusedGateProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "moe_fused_gate";
  static constexpr const char *kTensorRoles =
      "topk_weights[tokens,topk] topk_indices[tokens,topk]:int input[tokens,experts]:float bias[experts]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"topk_weights", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({p.tokens, p.topk})},
            {"topk_indices", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.tokens, p.topk})},
            {"input", Role::kInput, p.dtype, MakeLayout(p.input_layout, {p.tokens, p.experts})},
            {"bias", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({p.experts})}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MoeFusedGate>(
        std::make_tuple(p.groups, p.keep, p.shared, p.routed_scaling_factor, p.apply), std::tuple<>());
  }

  static oracle::TopkrouterResult Route(const Problem &p, const std::vector<HostTensor> &t) {
    return oracle::MoeFusedGate(t[2], t[3], p.groups, p.keep, p.topk, p.shared,
                                static_cast<double>(p.routed_scaling_factor), p.apply);
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    if (!p.Routable()) throw std::invalid_argument("moe_fused_gate: the problem " + p.Line() + " routes nothing");
    DrawUntilDecided(
        "MoeFusedGate", p.tokens, p.rows == RouterRows::kFaint, [&] { FillGateBias(p, t[3], rng); },
        [&](size_t row) { FillGateRow(p, t[2], t[3], row, rng); }, [&] { return Route(p, t).row_margins; });
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::TopkrouterResult expected = Route(p, t);
    return {std::move(expected.values), std::move(expected.indices)};
  }

  // Experts of equal input and bias in kept groups may come in any order (OP-MOEFUSEDGATE-8
  // only recommends the lower index first); an expert of a dropped group never stands in.
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    const HostTensor &x = t[2], &bias = t[3];
    std::vector<std::vector<bool>> kept(p.tokens, std::vector<bool>(p.groups, false));
    for (size_t r = 0; r < p.tokens; ++r) {
      const std::vector<size_t> ranking = GroupRanking(p, x, bias, r);
      for (size_t j = 0; j < p.keep; ++j) kept[r][ranking[j]] = true;
    }
    const size_t experts = p.experts, size = p.GroupSize();
    // The shared experts' indices (experts, experts + 1, …) are in range too.
    return SettleTopkTies(expected, got, experts + p.shared, [&](size_t r, size_t a, size_t b) {
      return a < experts && b < experts && kept[r][a / size] && x.Get({r, a}) == x.Get({r, b}) &&
             bias.GetAt(a) == bias.GetAt(b);
    });
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.tokens * p.experts);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, size_t tokens, size_t experts, size_t groups, size_t keep, size_t topk,
                      size_t shared, float routed_scaling_factor = 2.5f, bool apply = false) {
    Problem p;
    p.dtype = dtype;
    p.tokens = tokens;
    p.experts = experts;
    p.groups = groups;
    p.keep = keep;
    p.topk = topk;
    p.shared = shared;
    p.routed_scaling_factor = routed_scaling_factor;
    p.apply = apply;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 5, 64, 8, 4, 6, 1); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    const auto unchanged = [](Specs &) {};
    BadDescriptorList<Problem> bad(ProbeProblem(INFINI_DTYPE_F32));
    // specs: topk_weights, topk_indices, input, bias.
    bad.Add("weights_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
    bad.Add("indices_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I64; });
    bad.Add("input_f64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F64; });
    bad.Add("bias_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    // The bias is F32 whatever input's dtype, not input's (as a kernel templated on one type takes it).
    bad.AddFor(ProbeProblem(INFINI_DTYPE_BF16), "input_bf16_bias_bf16", INFINI_STATUS_BAD_TENSOR_DTYPE,
               [](Specs &s) { s[3].dtype = INFINI_DTYPE_BF16; });
    bad.Add("input_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {64}); });
    bad.Add("bias_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {1, 64}); });
    bad.Add("outputs_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {30});
      Reshape(s[1], {30});
    });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[3].dtype = INFINI_DTYPE_F16;
              Reshape(s[3], {63});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    // The attributes (OP-MOEFUSEDGATE-3): no groups, groups that do not divide the experts
    // (60 of 8), no group kept, nothing left to route.
    Problem no_groups = ProbeProblem(INFINI_DTYPE_F32);
    no_groups.groups = 0;
    Problem none_kept = ProbeProblem(INFINI_DTYPE_F32);
    none_kept.keep = 0;
    bad.AddFor(no_groups, "groups_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.Add("experts_60_in_8_groups", INFINI_STATUS_BAD_PARAM, [](Specs &s) {
      Reshape(s[2], {5, 60});
      Reshape(s[3], {60});
    });
    bad.AddFor(none_kept, "keep_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(Make(INFINI_DTYPE_F32, 5, 64, 8, 4, 2, 2), "topk_2_shared_2", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(no_groups, "param_before_dtype", INFINI_STATUS_BAD_PARAM,
               [](Specs &s) { s[2].dtype = INFINI_DTYPE_F64; }, INFINI_STATUS_BAD_TENSOR_DTYPE);
    // Recommended (OP-MOEFUSEDGATE-4): more groups kept than there are, more experts routed
    // than the kept groups hold (9 of one group of 8).
    Problem beyond_groups = ProbeProblem(INFINI_DTYPE_F32);
    beyond_groups.keep = 9;
    bad.AddRecommendedFor(beyond_groups, "keep_9_of_8_groups", INFINI_STATUS_BAD_PARAM);
    bad.AddRecommendedFor(Make(INFINI_DTYPE_F32, 5, 64, 8, 1, 10, 1), "routed_9_of_8_kept", INFINI_STATUS_BAD_PARAM);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-MOEFUSEDGATE-5", "OP-MOEFUSEDGATE-6", "OP-MOEFUSEDGATE-7", "OP-MOEFUSEDGATE-8"},
            {"OP-MOEFUSEDGATE-1"},
            {"OP-MOEFUSEDGATE-2"},
            {},
            {"OP-MOEFUSEDGATE-3"},
            {"OP-MOEFUSEDGATE-4"}};
  }
};

INFINICTS_OP_CASES(MoeFusedGateOp);
INFINICTS_OP_WORKSPACE_CASES(MoeFusedGateOp);

// Perf: DeepSeek-V3's (and R1's) router as SGLang fuses it: logits [tokens, 256] and the
// e_score_correction_bias [256], 8 groups of 32, 4 kept, the top-8 routed experts and one
// fused shared expert into [tokens, 9], routed_scaling_factor 2.5 (not applied on the output).
// Rows drawn as the accuracy cases' random ones; both outputs checked whole.
struct MoeFusedGateWorkload {
  using Op = MoeFusedGateOp;
  static std::vector<std::string> MathClauses() { return {"OP-MOEFUSEDGATE-5", "OP-MOEFUSEDGATE-6"}; }
  static std::vector<PerfProblem> Problems() {
    return NamedModelProblems(
        "router", PerfWeight::kCheap, HalfAndSingleDtypes(),
        {{"deepseek_v3", {{"experts", 256}, {"groups", 8}, {"keep", 4}, {"topk", 9}, {"shared", 1}}}});
  }
  static MoeFusedGateProblem At(const PerfProblem &p) {
    return MoeFusedGateOp::Make(p.dtype, p.Dim("tokens"), p.Dim("experts"), p.Dim("groups"), p.Dim("keep"),
                                p.Dim("topk"), p.Dim("shared"));
  }
};
using MoeFusedGatePerf = OpPerf<MoeFusedGateWorkload>;
INFINICTS_OP_PERF_CASES(MoeFusedGatePerf);

}  // namespace
}  // namespace infinicts::op_cases
