// Topkrouter: DeepSeek-V3's group-limited MoE routing over x [tokens, 256] and
// correction_bias [256] (F32): sigmoid scores, biased for the selection only, 4 of 8 groups
// kept by the sum of their two best biased scores, the topk experts of the kept groups into
// indices (I32) and their unbiased scores, renormalised and scaled by routed_scaling_factor,
// into values (F32) (spec section OP-TOPKROUTER). The create call takes x and the bias.
//
// Data (common/topk_routing_data.h): biases of ±0.25 against scores spread over (0, 1), so
// the bias reorders experts (an unbiased selection picks others, a biased value shows) and
// the global top k reaches into dropped groups (a selection that ignores the groups picks
// others); rows of few levels, where equal biased scores and equal group scores leave only
// the tie rules to decide; logits of ±100, where e^x / (1 + e^x) is NaN; and biases so
// negative that masked experts, at 0, outrank most kept ones; and faint rows, whose chosen
// sigmoids sum to a few 1e-9, where the 1e-9 added to that sum shows. Every row is redrawn
// until its decisive gaps exceed 1e-4, so F32 arithmetic ranks as the fp64 oracle does. topk 2, 8
// (DeepSeek-V3's), 32 and 256 (every expert: the kept groups' in order, then the masked
// ones by index); topk 1 would write routed_scaling_factor everywhere, so it is not run.
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/topk_routing_data.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kRoutedExperts = 256;
constexpr size_t kExpertsPerGroup = 32;  // 8 groups of 32 (OP-TOPKROUTER-3)

struct TopkrouterProblem : Param<TopkrouterProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // x; correction_bias is F32
  size_t tokens = 6, topk = 8;
  float routed_scaling_factor = 2.5f;  // DeepSeek-V3's
  RouterRows rows = RouterRows::kRandom;
  LayoutKind x_layout = LayoutKind::kContiguous, bias_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName({tokens, kRoutedExperts}) + "__top" +
           std::to_string(topk) + "__scale_" + NumberName(routed_scaling_factor) + "__" +
           LayoutsName({{"x", x_layout}, {"bias", bias_layout}}) + "__" + RouterRowsName(rows);
  }
  // The expert count is fixed (kRoutedExperts): tokens alone is a field.
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("topk", topk).Min(1).Max(256);  // OP-TOPKROUTER-3: 1 <= topk <= 256
    field("scale", routed_scaling_factor);
    field("rows", rows);
    field("x", x_layout);
    field("bias", bias_layout);
  }
};

struct TopkrouterOp {
  using Problem = TopkrouterProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "topkrouter";
  static constexpr const char *kTensorRoles =
      "values indices x[~tokens,experts]:float correction_bias[experts]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = RoutingOutputSpecs(p.tokens, p.topk);
    specs.push_back({"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, {p.tokens, kRoutedExperts})});
    specs.push_back({"correction_bias", Role::kInput, INFINI_DTYPE_F32, MakeLayout(p.bias_layout, {kRoutedExperts})});
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::Topkrouter>(std::tuple<>(), std::make_tuple(p.routed_scaling_factor, p.topk));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillRouterInputs(t[2], t[3], rng, p.rows, p.routed_scaling_factor, p.topk);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::TopkrouterResult expected = oracle::Topkrouter(t[2], t[3], p.routed_scaling_factor, p.topk);
    return {std::move(expected.values), std::move(expected.indices)};
  }

  // Experts of one group with equal logits and biases may come in any order (OP-TOPKROUTER-6 only
  // recommends the lower index first); across groups the group ranking still decides.
  static std::vector<HostTensor> SettleTies(const Problem &, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    const HostTensor &x = t[2], &bias = t[3];
    return SettleTopkTies(expected, got, kRoutedExperts, [&x, &bias](size_t r, size_t a, size_t b) {
      return a / kExpertsPerGroup == b / kExpertsPerGroup && x.Get({r, a}) == x.Get({r, b}) &&
             bias.GetAt(a) == bias.GetAt(b);
    });
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.tokens * kRoutedExperts);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, size_t tokens, size_t topk, RouterRows rows = RouterRows::kRandom,
                      float routed_scaling_factor = 2.5f) {
    Problem p;
    p.dtype = dtype;
    p.tokens = tokens;
    p.topk = topk;
    p.rows = rows;
    p.routed_scaling_factor = routed_scaling_factor;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 5, 8); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, 5, 8));
    // The create call's tensors: x (specs[2]) and correction_bias (specs[3]).
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[2].dtype = INFINI_DTYPE_I32;
      s[3].dtype = INFINI_DTYPE_I32;
    });
    bad.Add("bias_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.AddFor(Make(INFINI_DTYPE_F16, 5, 8), "x_f16_bias_f16", INFINI_STATUS_BAD_TENSOR_DTYPE,
               [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.AddFor(Make(INFINI_DTYPE_F64, 5, 8), "x_f64_bias_f64", INFINI_STATUS_BAD_TENSOR_DTYPE,
               [](Specs &s) { s[3].dtype = INFINI_DTYPE_F64; });
    bad.Add("x_128_experts", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[2], {5, 128});
      Reshape(s[3], {128});
    });
    bad.Add("x_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {kRoutedExperts}); });
    bad.Add("bias_length_128", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {128}); });
    bad.Add("bias_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {1, kRoutedExperts}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[3].dtype = INFINI_DTYPE_F16;
              Reshape(s[3], {128});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-TOPKROUTER-3", "OP-TOPKROUTER-4", "OP-TOPKROUTER-5", "OP-TOPKROUTER-6"},
            {"OP-TOPKROUTER-1"},
            {"OP-TOPKROUTER-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(TopkrouterOp);
INFINICTS_OP_WORKSPACE_CASES(TopkrouterOp);

// Perf: DeepSeek-V3's (and R1's) router, x [tokens, 256] of router logits and the
// e_score_correction_bias [256] into the top-8 experts of the 4 kept groups (of 8), scaled by
// its routed_scaling_factor of 2.5. The inputs are the accuracy cases' random ones, rows
// redrawn until their ranking is unambiguous; both outputs are checked whole (the indices
// exactly).
constexpr size_t kDeepSeekV3Topk = 8;
constexpr float kDeepSeekV3Scaling = 2.5f;

struct TopkrouterWorkload {
  using Op = TopkrouterOp;
  static std::vector<std::string> MathClauses() { return {"OP-TOPKROUTER-3", "OP-TOPKROUTER-4"}; }
  static std::vector<PerfProblem> Problems() {
    return NamedModelProblems("router", PerfWeight::kCheap, HalfAndSingleDtypes(),
                              {{"deepseek_v3", {{"experts", kRoutedExperts}, {"topk", kDeepSeekV3Topk}}}});
  }
  static TopkrouterProblem At(const PerfProblem &p) {
    return TopkrouterOp::Make(p.dtype, p.Dim("tokens"), p.Dim("topk"), RouterRows::kRandom, kDeepSeekV3Scaling);
  }
};
using TopkrouterPerf = OpPerf<TopkrouterWorkload>;
INFINICTS_OP_PERF_CASES(TopkrouterPerf);

}  // namespace
}  // namespace infinicts::op_cases
