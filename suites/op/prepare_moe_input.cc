// PrepareMoeInput: from a MoE layer's topk_ids, the plan of CUTLASS's grouped expert GEMMs
// (spec section OP-PREPAREMOEINPUT): each expert's two problem sizes, the experts' offsets
// (and the block scales' offsets, counts rounded up to 128), and the permutations that gather
// the tokens expert by expert and scatter the results back.
//
// Data: each token routes to topk distinct experts drawn with a skew (a few experts take most
// slots, a quarter none), so empty experts, experts past 128 slots (a second block-scale
// block) and single slots all show; with foreign slots, a tenth of them hold −1, as an
// expert-parallel rank's ids do for experts elsewhere, which count for no expert. The
// permutations' order within an expert is free: an expert whose tokens and positions agree
// with the oracle's is compared in the backend's own order.
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/skewed_routes.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct PrepareMoeInputProblem : Param<PrepareMoeInputProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_I32;  // topk_ids'
  size_t tokens = 6, topk = 2, experts = 8, n = 16, k = 32;
  bool blockscale = true;      // blockscale_offsets given
  bool foreign = false;        // a tenth of the slots −1 (experts of other ranks)
  bool flat_sizes = false;     // problem sizes as [3·experts] rather than [experts, 3]
  LayoutKind ids_layout = LayoutKind::kContiguous;

  size_t Slots() const { return tokens * topk; }
  Shape SizesShape() const { return flat_sizes ? Shape{3 * experts} : Shape{experts, 3}; }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__tokens_" + std::to_string(tokens) + "_top" + std::to_string(topk) +
           "_experts_" + std::to_string(experts) + "_n_" + std::to_string(n) + "_k_" + std::to_string(k) +
           (blockscale ? "" : "__no_blockscale") + (foreign ? "__foreign" : "") + (flat_sizes ? "__flat_sizes" : "") +
           "__" + LayoutsName({{"ids", ids_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("topk", topk).Min(1);
    field("experts", experts).Min(1);
    field("n", n);
    field("k", k);
    field("blockscale", blockscale);
    field("foreign", foreign);
    field("flat_sizes", flat_sizes);
    field("ids", ids_layout);
  }
};

// Skewed routes (common/skewed_routes.h), a tenth of the slots −1 with foreign.
void FillRouting(const PrepareMoeInputProblem &p, HostTensor &ids, Rng &rng) {
  const std::vector<std::vector<size_t>> routes = SkewedRoutes(p.tokens, p.topk, p.experts, rng);
  std::bernoulli_distribution foreign(p.foreign ? 0.1 : 0.0);
  for (size_t t = 0; t < p.tokens; ++t) {
    for (size_t j = 0; j < p.topk; ++j) ids.Set({t, j}, foreign(rng) ? -1.0 : static_cast<double>(routes[t][j]));
  }
}

// The same elements in row-major order under another shape.
HostTensor WithShape(const HostTensor &tensor, const Shape &shape) {
  HostTensor reshaped(tensor.dtype(), shape);
  for (size_t i = 0; i < tensor.numel(); ++i) reshaped.SetAt(i, tensor.GetAt(i));
  return reshaped;
}

struct PrepareMoeInputOp {
  using Problem = PrepareMoeInputProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "prepare_moe_input";
  static constexpr const char *kTensorRoles =
      "expert_offsets[~e1]:int blockscale_offsets[~e1b]:int problem_sizes1[~e,~three]:int "
      "problem_sizes2[~e,~three]:int input_permutation[~s]:int output_permutation[~s]:int topk_ids[~t,~k]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"expert_offsets", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.experts + 1})},
        {"blockscale_offsets", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.experts + 1})},
        {"problem_sizes1", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout(p.SizesShape())},
        {"problem_sizes2", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout(p.SizesShape())},
        {"input_permutation", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.Slots()})},
        {"output_permutation", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.Slots()})},
        {"topk_ids", Role::kInput, p.dtype, MakeLayout(p.ids_layout, {p.tokens, p.topk})}};
    specs[1].optional = true;
    specs[1].present = p.blockscale;
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::PrepareMoeInput>(std::make_tuple(p.experts, p.n, p.k));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) { FillRouting(p, t[6], rng); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::PrepareMoeInputResult r = oracle::PrepareMoeInput(t[6], p.experts, p.n, p.k);
    std::vector<HostTensor> outputs = {std::move(r.expert_offsets)};
    if (p.blockscale) outputs.push_back(std::move(r.blockscale_offsets));
    outputs.push_back(WithShape(r.problem_sizes1, p.SizesShape()));
    outputs.push_back(WithShape(r.problem_sizes2, p.SizesShape()));
    outputs.push_back(std::move(r.input_permutation));
    outputs.push_back(std::move(r.output_permutation));
    return outputs;
  }

  // Within an expert the order is free: where the backend's positions of an expert hold its
  // tokens and each of its slots points at a position holding the slot's token, its order is
  // taken. Positions past the routed slots and slots routed nowhere hold what it left there.
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    const size_t in = 4, out = 5;  // by spec: absent outputs keep their places
    if (got.size() != expected.size() || got[in].numel() != p.Slots() || got[out].numel() != p.Slots()) return expected;
    std::vector<HostTensor> settled;
    for (const HostTensor &e : expected) settled.push_back(e.Contiguous());
    const HostTensor &ids = t[6];
    std::vector<std::vector<size_t>> slots_of(p.experts);
    for (size_t i = 0; i < p.Slots(); ++i) {
      const auto e = static_cast<int64_t>(ids.Get({i / p.topk, i % p.topk}));
      if (e >= 0 && e < static_cast<int64_t>(p.experts)) {
        slots_of[static_cast<size_t>(e)].push_back(i);
      } else {
        settled[out].SetAt(i, got[out].GetAt(i));
      }
    }
    size_t start = 0;
    for (size_t e = 0; e < p.experts; ++e) {
      const size_t count = slots_of[e].size();
      bool agrees = true;
      std::vector<bool> taken(count, false);
      for (size_t i : slots_of[e]) {
        const double at = got[out].GetAt(i);
        const bool inside = at >= static_cast<double>(start) && at < static_cast<double>(start + count);
        if (!inside || taken[static_cast<size_t>(at) - start] ||
            got[in].GetAt(static_cast<size_t>(at)) != static_cast<double>(i / p.topk)) {
          agrees = false;
          break;
        }
        taken[static_cast<size_t>(at) - start] = true;
      }
      if (agrees) {
        for (size_t i : slots_of[e]) settled[out].SetAt(i, got[out].GetAt(i));
        for (size_t a = start; a < start + count; ++a) settled[in].SetAt(a, got[in].GetAt(a));
      }
      start += count;
    }
    for (size_t a = start; a < p.Slots(); ++a) settled[in].SetAt(a, got[in].GetAt(a));
    return settled;
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(p.Slots()); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_I32}; }

  static Problem Make(size_t tokens, size_t topk, size_t experts, size_t n, size_t k) {
    Problem p;
    p.tokens = tokens;
    p.topk = topk;
    p.experts = experts;
    p.n = n;
    p.k = k;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) {
    Problem p = Make(6, 2, 8, 16, 32);
    p.dtype = dtype;
    return p;
  }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    const Problem probe = Make(6, 2, 8, 16, 32);
    BadDescriptorList<Problem> bad(probe);
    bad.Add("topk_ids_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[6].dtype = INFINI_DTYPE_I64; });
    bad.Add("expert_offsets_of_experts", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {8}); });
    bad.Add("blockscale_offsets_of_experts", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {8}); });
    bad.Add("problem_sizes1_of_2_columns", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {8, 2}); });
    bad.Add("problem_sizes2_transposed", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {3, 8}); });
    bad.Add("input_permutation_short", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {11}); });
    bad.Add("output_permutation_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[5], {6, 2}); });
    bad.Add("topk_ids_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[6], {12}); });
    Problem no_experts = probe, no_n = probe, no_k = probe;
    no_experts.experts = 0;
    no_n.n = 0;
    no_k.k = 0;
    bad.AddFor(no_experts, "num_experts_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(no_n, "n_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(no_k, "k_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PREPAREMOEINPUT-3", "OP-PREPAREMOEINPUT-4"},
            {"OP-PREPAREMOEINPUT-1"},
            {"OP-PREPAREMOEINPUT-2"},
            {},
            {"OP-PREPAREMOEINPUT-2"}};
  }
};

INFINICTS_OP_CASES(PrepareMoeInputOp);
INFINICTS_OP_WORKSPACE_CASES(PrepareMoeInputOp);

// Perf: the grouped GEMMs' plan of Qwen3-30B-A3B's MoE layer (128 experts, top-8, expert
// GEMMs of n 768 and k 2048) and of DeepSeek-V3's on one of 8 expert-parallel ranks (32 local
// experts, n 2048, k 7168, a tenth of the slots elsewhere), at the cheap operators' token
// counts from 16 on. I32 throughout.
struct PrepareMoeInputWorkload {
  using Op = PrepareMoeInputOp;
  static std::vector<std::string> MathClauses() { return {"OP-PREPAREMOEINPUT-3", "OP-PREPAREMOEINPUT-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems = IndexModelProblems(
        "grouped_gemm_plan", PerfWeight::kCheap,
        {{"qwen3_30b_a3b", {{"topk", 8}, {"experts", 128}, {"n", 768}, {"k", 2048}, {"ranks", 1}}},
         {"deepseek_v3_ep8", {{"topk", 8}, {"experts", 32}, {"n", 2048}, {"k", 7168}, {"ranks", 8}}}});
    // One token's input_permutation is all token 0, data the check refuses as unable to tell
    // an all-zero output.
    problems.erase(std::remove_if(problems.begin(), problems.end(), [](const PerfProblem &p) { return p.tokens < 2; }),
                   problems.end());
    return problems;
  }
  static PrepareMoeInputOp::Problem At(const PerfProblem &p) {
    PrepareMoeInputOp::Problem problem =
        PrepareMoeInputOp::Make(p.Dim("tokens"), p.Dim("topk"), p.Dim("experts"), p.Dim("n"), p.Dim("k"));
    problem.foreign = p.Dim("ranks") > 1;
    return problem;
  }
};
using PrepareMoeInputPerf = OpPerf<PrepareMoeInputWorkload>;
INFINICTS_OP_PERF_CASES(PrepareMoeInputPerf);

}  // namespace
}  // namespace infinicts::op_cases
