// MoeSum: output[t, h] = Σ_j input[t, j, h], the combine of a MoE layer's k expert outputs per
// token (spec section OP-MOESUM).
//
// Data: values on a dyadic grid where every partial sum of up to 4 terms is exact in the dtype
// (multiples of 2^-8 in [−2, 2] for F16, 2^-5 for BF16, 2^-19 for F32), of both signs: a sum in
// any order or precision is exact, and a term dropped, repeated or read from another expert's
// or token's row is off by a grid step at least. Token rows run padded (input's token stride
// beyond k·H, output's beyond H) and as views, where a kernel indexing by t·k·H + j·H + h reads
// and writes the wrong rows; other layouts MAY be refused.
#include <stdexcept>
#include <string>
#include <utility>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// The gap after each token row of input in its padded layout, elements.
constexpr size_t kTokenRowGap = 5;

struct MoeSumProblem : Param<MoeSumProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  size_t tokens = 3, k = 2, hidden = 8;
  LayoutKind output_layout = LayoutKind::kContiguous, input_layout = LayoutKind::kContiguous;
  bool padded_tokens = false;  // input [N, k, H] with token rows kTokenRowGap apart, experts' rows contiguous

  Shape InputShape() const { return {tokens, k, hidden}; }
  Shape OutputShape() const { return {tokens, hidden}; }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__tokens_" + std::to_string(tokens) + "_k_" + std::to_string(k) +
           "_hidden_" + std::to_string(hidden) + "__" +
           LayoutsName({{"output", output_layout}, {"input", input_layout}}) + (padded_tokens ? "_padded_tokens" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("k", k).Min(2).Max(4);  // OP-MOESUM: beyond 2 … 4 MAY be refused
    field("hidden", hidden);
    field("output", output_layout);
    field("input", input_layout);
    field("padded_tokens", padded_tokens);
  }
};

Layout InputLayout(const MoeSumProblem &p) {
  if (!p.padded_tokens) return MakeLayout(p.input_layout, p.InputShape());
  if (p.input_layout != LayoutKind::kContiguous) {
    throw std::invalid_argument("moe_sum: padded_tokens is a layout of its own (input=contig)");
  }
  const ptrdiff_t h = static_cast<ptrdiff_t>(p.hidden);
  return Layout{p.InputShape(), {static_cast<ptrdiff_t>(p.k) * h + static_cast<ptrdiff_t>(kTokenRowGap), h, 1}, 0};
}

struct MoeSumOp {
  using Problem = MoeSumProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "moe_sum";
  static constexpr const char *kTensorRoles = "output[n,h]=input input[n,~k,h]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"output", Role::kOutput, p.dtype, MakeLayout(p.output_layout, p.OutputShape())},
            {"input", Role::kInput, p.dtype, InputLayout(p)}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::MoeSum>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    switch (p.dtype) {
      case INFINI_DTYPE_F16: FillDyadic(t[1], rng, -512, 512, 8); break;
      case INFINI_DTYPE_BF16: FillDyadic(t[1], rng, -64, 64, 5); break;
      default: FillDyadic(t[1], rng, -(1 << 20), 1 << 20, 19); break;
    }
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::MoeSum(t[1])};
  }

  // One add per input element (k − 1 per output, counted as k).
  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.tokens * p.k * p.hidden);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, size_t tokens, size_t k, size_t hidden) {
    Problem p;
    p.dtype = dtype;
    p.tokens = tokens;
    p.k = k;
    p.hidden = hidden;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, 3, 2, 8); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, 3, 2, 8));
    bad.Add("input_f64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      s[0].dtype = INFINI_DTYPE_F64;
      s[1].dtype = INFINI_DTYPE_F64;
    });
    bad.Add("input_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {3, 16}); });
    bad.Add("output_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {3, 1, 8}); });
    bad.Add("output_of_k_rows", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {6, 8}); });
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-MOESUM-3"}, {"OP-MOESUM-1"}, {"OP-MOESUM-2"}, {}, {}}; }
};

INFINICTS_OP_CASES(MoeSumOp);
INFINICTS_OP_WORKSPACE_CASES(MoeSumOp);

// Perf: the combine of Mixtral-8x7B (top-2, hidden 4096) and of Qwen1.5-MoE-A2.7B (top-4, hidden
// 2048) at the cheap operators' token counts.
struct MoeSumWorkload {
  using Op = MoeSumOp;
  static std::vector<std::string> MathClauses() { return {"OP-MOESUM-3"}; }
  static std::vector<PerfProblem> Problems() {
    return NamedModelProblems("moe_combine", PerfWeight::kCheap, HalfAndSingleDtypes(),
                              {{"mixtral_8x7b", {{"topk", 2}, {"hidden", 4096}}},
                               {"qwen1_5_moe_a2_7b", {{"topk", 4}, {"hidden", 2048}}}});
  }
  static MoeSumOp::Problem At(const PerfProblem &p) {
    return MoeSumOp::Make(p.dtype, p.Dim("tokens"), p.Dim("topk"), p.Dim("hidden"));
  }
};
using MoeSumPerf = OpPerf<MoeSumWorkload>;
INFINICTS_OP_PERF_CASES(MoeSumPerf);

}  // namespace
}  // namespace infinicts::op_cases
