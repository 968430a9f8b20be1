// MoeAlign: topk_ids' flat slots grouped by expert, each group padded to a multiple of
// block_size, with each block's expert and the padded total (spec section OP-MOEALIGN): what a
// fused MoE's block-wise grouped GEMMs read.
//
// Data: each token routes to topk distinct experts drawn with a skew (a few experts take most
// slots, about a quarter take none), so groups of every size show: empty, one slot, a block
// and one, several blocks. Rows all routed to the same experts make every group exactly
// tokens long, a multiple of block_size where tokens is (a ceiling that adds a spare block
// shows). The expert map of expert parallelism holds a shuffled 1/ranks of the global experts
// under permuted local names, so a kernel that reads global ids as local ones, or
// keeps the slots of other ranks, misplaces them. Within a group the slots may come in any
// order: a group holding exactly the oracle's slots is compared in its own order.
#include <algorithm>
#include <numeric>
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

struct MoeAlignProblem : Param<MoeAlignProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_I32;  // topk_ids'
  size_t tokens = 6, topk = 2, experts = 8, block = 4;
  size_t ranks = 1;            // > 1: expert parallelism, ids over experts·ranks global experts, a map
  bool same_experts = false;   // every token routed to the same topk experts
  bool pad = true;             // pad_sorted_token_ids
  size_t spare_blocks = 0;     // sorted_token_ids longer than InfiniCore's bound by this many blocks
  LayoutKind ids_layout = LayoutKind::kContiguous;

  size_t Slots() const { return tokens * topk; }
  bool HasMap() const { return ranks > 1; }
  size_t GlobalExperts() const { return experts * ranks; }
  // InfiniCore's length for sorted_token_ids (its own create call's bound, which is at least
  // any routing's padded total: it counts num_experts + 1 groups).
  size_t SortedLength() const {
    const size_t b = std::max<size_t>(block, 1), groups = experts + 1;
    const size_t bound = Slots() < groups ? Slots() * b : Slots() + groups * (b - 1);
    return bound + spare_blocks * b;
  }
  size_t ExpertBlocks() const {
    const size_t b = std::max<size_t>(block, 1);
    return (SortedLength() + b - 1) / b;
  }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__tokens_" + std::to_string(tokens) + "_top" + std::to_string(topk) +
           "_experts_" + std::to_string(experts) + "_block_" + std::to_string(block) +
           (HasMap() ? "__ranks_" + std::to_string(ranks) : "") + (same_experts ? "__same_experts" : "") + (pad ? "" : "__no_pad") +
           (spare_blocks > 0 ? "__spare_" + std::to_string(spare_blocks) : "") + "__" +
           LayoutsName({{"ids", ids_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("tokens", tokens);
    field("topk", topk).Min(1);
    field("experts", experts).Min(1);
    field("block", block).Min(1);
    field("ranks", ranks).Min(1);
    field("same_experts", same_experts);
    field("pad", pad);
    field("spare_blocks", spare_blocks);
    field("ids", ids_layout);
  }
};

// Each row's topk distinct global experts (common/skewed_routes.h), or the same experts in
// every row.
void FillRouting(const MoeAlignProblem &p, HostTensor &ids, Rng &rng) {
  std::vector<std::vector<size_t>> routes = SkewedRoutes(p.tokens, p.topk, p.GlobalExperts(), rng);
  for (size_t t = 0; t < p.tokens; ++t) {
    if (p.same_experts) {
      routes[t] = routes[0];
      std::shuffle(routes[t].begin(), routes[t].end(), rng);
    }
    for (size_t j = 0; j < p.topk; ++j) ids.Set({t, j}, static_cast<double>(routes[t][j]));
  }
}

// The map's entries.
std::vector<int64_t> ExpertMap(const HostTensor &map) {
  std::vector<int64_t> values;
  for (size_t g = 0; g < map.numel(); ++g) values.push_back(static_cast<int64_t>(map.GetAt(g)));
  return values;
}

// The map of this rank: a shuffled 1/ranks of the global experts under permuted local names,
// −1 for the others.
void FillExpertMap(const MoeAlignProblem &p, HostTensor &map, Rng &rng) {
  std::vector<size_t> globals(p.GlobalExperts()), locals(p.experts);
  std::iota(globals.begin(), globals.end(), size_t{0});
  std::iota(locals.begin(), locals.end(), size_t{0});
  std::shuffle(globals.begin(), globals.end(), rng);
  std::shuffle(locals.begin(), locals.end(), rng);
  for (size_t g = 0; g < globals.size(); ++g) map.SetAt(g, -1.0);
  for (size_t l = 0; l < p.experts; ++l) map.SetAt(globals[l], static_cast<double>(locals[l]));
}

struct MoeAlignOp {
  using Problem = MoeAlignProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "moe_align";
  static constexpr const char *kTensorRoles =
      "sorted_token_ids[~l]:int expert_ids[~b]:int num_tokens_post_padded[~one]:int topk_ids[~t,~k]:int expert_map";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"sorted_token_ids", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.SortedLength()})},
        {"expert_ids", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({p.ExpertBlocks()})},
        {"num_tokens_post_padded", Role::kOutput, INFINI_DTYPE_I32, ContiguousLayout({1})},
        {"topk_ids", Role::kInput, p.dtype, MakeLayout(p.ids_layout, {p.tokens, p.topk})},
        {"expert_map", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.GlobalExperts()})}};
    specs[4].described = false;  // a raw buffer: compute takes it, the create call no descriptor
    specs[4].optional = true;
    specs[4].present = p.HasMap();
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MoeAlign>(std::make_tuple(p.experts, p.block), std::make_tuple(p.pad ? 1 : 0));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillRouting(p, t[3], rng);
    if (p.HasMap()) FillExpertMap(p, t[4], rng);
  }

  static oracle::MoeAlignResult Align(const Problem &p, const std::vector<HostTensor> &t) {
    return oracle::MoeAlign(t[3], p.HasMap() ? ExpertMap(t[4]) : std::vector<int64_t>{}, p.experts, p.block,
                            p.SortedLength(), p.ExpertBlocks());
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::MoeAlignResult r = Align(p, t);
    return {std::move(r.sorted_token_ids), std::move(r.expert_ids), std::move(r.num_tokens_post_padded)};
  }

  // A group's slots in any order; the blocks past the total, and without pad every padding
  // position, hold what the backend left there.
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected, const std::vector<HostTensor> &got) {
    if (got.size() < 3 || got[0].numel() != expected[0].numel() || got[1].numel() != expected[1].numel()) {
      return expected;
    }
    std::vector<HostTensor> settled = {expected[0].Contiguous(), expected[1].Contiguous(), expected[2].Contiguous()};
    const oracle::MoeAlignResult r = Align(p, t);
    const size_t total = r.group_starts.back();
    for (size_t b = total / p.block; b < p.ExpertBlocks(); ++b) settled[1].SetAt(b, got[1].GetAt(b));
    for (size_t e = 0; e < p.experts; ++e) {
      const size_t start = r.group_starts[e], count = r.group_counts[e];
      std::vector<double> want, have;
      for (size_t i = start; i < start + count; ++i) {
        want.push_back(settled[0].GetAt(i));
        have.push_back(got[0].GetAt(i));
      }
      std::vector<double> sorted_have = have;
      std::sort(sorted_have.begin(), sorted_have.end());
      if (sorted_have == want) {  // the oracle's are in increasing order
        for (size_t i = 0; i < count; ++i) settled[0].SetAt(start + i, have[i]);
      }
      if (!p.pad) {
        for (size_t i = start + count; i < r.group_starts[e + 1]; ++i) settled[0].SetAt(i, got[0].GetAt(i));
      }
    }
    if (!p.pad) {
      for (size_t i = total; i < p.SortedLength(); ++i) settled[0].SetAt(i, got[0].GetAt(i));
    }
    return settled;
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(p.Slots()); }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_I32}; }

  static Problem Make(size_t tokens, size_t topk, size_t experts, size_t block, size_t ranks = 1) {
    Problem p;
    p.tokens = tokens;
    p.topk = topk;
    p.experts = experts;
    p.block = block;
    p.ranks = ranks;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) {
    Problem p = Make(6, 2, 8, 4);
    p.dtype = dtype;
    return p;
  }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    const Problem probe = Make(6, 2, 8, 4);
    BadDescriptorList<Problem> bad(probe);
    bad.Add("topk_ids_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_I64; });
    bad.Add("expert_ids_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_I64; });
    bad.Add("topk_ids_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {12}); });
    bad.Add("sorted_token_ids_2d", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) { Reshape(s[0], {s[0].layout.shape[0], 1}); });
    bad.Add("num_tokens_post_padded_of_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {2}); });
    // 12 slots of 8 experts in blocks of 4 may need min(48, 12 + 8·3) = 36 positions, 9 blocks.
    bad.Add("sorted_token_ids_below_any_bound", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {35}); });
    bad.Add("expert_ids_below_any_bound", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {8}); });
    Problem no_experts = probe, no_block = probe;
    no_experts.experts = 0;
    no_block.block = 0;
    bad.AddFor(no_experts, "num_experts_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(no_block, "block_size_0", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-MOEALIGN-3", "OP-MOEALIGN-4"}, {"OP-MOEALIGN-1"}, {"OP-MOEALIGN-2"}, {}, {"OP-MOEALIGN-2"}};
  }
};

INFINICTS_OP_CASES(MoeAlignOp);
INFINICTS_OP_WORKSPACE_CASES(MoeAlignOp);

// Perf: the block alignment of a fused MoE layer's top-8 routing, vLLM's block of 64 rows:
// Qwen3-30B-A3B (128 experts) and DeepSeek-V3 on one of 8 expert-parallel ranks (32 of its 256
// experts, through the expert map), at the cheap operators' token counts (from 16 on for the
// rank). I32 throughout.
struct MoeAlignWorkload {
  using Op = MoeAlignOp;
  static std::vector<std::string> MathClauses() { return {"OP-MOEALIGN-3", "OP-MOEALIGN-4"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<PerfProblem> problems = IndexModelProblems(
        "moe_align_block_64", PerfWeight::kCheap,
        {{"qwen3_30b_a3b", {{"topk", 8}, {"experts", 128}, {"ranks", 1}}},
         {"deepseek_v3_ep8", {{"topk", 8}, {"experts", 32}, {"ranks", 8}}}});
    // One token's 8 slots mostly fall on other ranks: its sorted_token_ids would be the pad
    // value throughout, data the check refuses as unable to tell a constant output.
    problems.erase(std::remove_if(problems.begin(), problems.end(),
                                  [](const PerfProblem &p) { return p.Dim("ranks") > 1 && p.tokens < 16; }),
                   problems.end());
    return problems;
  }
  static MoeAlignOp::Problem At(const PerfProblem &p) {
    return MoeAlignOp::Make(p.Dim("tokens"), p.Dim("topk"), p.Dim("experts"), 64, p.Dim("ranks"));
  }
};
using MoeAlignPerf = OpPerf<MoeAlignWorkload>;
INFINICTS_OP_PERF_CASES(MoeAlignPerf);

}  // namespace
}  // namespace infinicts::op_cases
