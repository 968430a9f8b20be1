// RoPE perf: the rotary embedding of a layer's queries, x and y [tokens, heads, head_dim],
// GPT-NeoX pairing (Llama's rotate-half), I32 positions tokens in a row from a random start,
// sin/cos tables of Llama-2's 4096 positions with the usual angles pos·10000^(-2i/head_dim).
// Checked whole.
#include <cmath>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kTablePositions = 4096;

struct RopePerf {
  static constexpr const char *kSubject = "rope";
  static std::vector<std::string> MathClauses() { return {"OP-ROPE-4", "OP-ROPE-5"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"q_rope", {{"tokens", tokens}, {"heads", l.heads}, {"head_dim", l.head_dim}}}};
    });
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const Layout x = ContiguousLayout({p.Dim("tokens"), p.Dim("heads"), p.Dim("head_dim")});
    const Layout table = ContiguousLayout({kTablePositions, p.Dim("head_dim") / 2});
    return {{"y", Role::kOutput, p.dtype, x},
            {"x", Role::kInput, p.dtype, x},
            {"pos_ids", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({p.Dim("tokens")})},
            {"sin_table", Role::kInput, p.dtype, table},
            {"cos_table", Role::kInput, p.dtype, table}};
  }
  static OpCalls Calls(const PerfProblem &) {
    return OperatorCalls<api::RoPE>(std::make_tuple(INFINIOP_ROPE_ALGO_GPT_NEOX));
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    const size_t tokens = p.Dim("tokens"), head_dim = p.Dim("head_dim");
    FillAwayFromZero(t[1], rng, 0.25, 2.0);
    const size_t start = std::uniform_int_distribution<size_t>(0, kTablePositions - tokens)(rng);
    FillArange(t[2], static_cast<int64_t>(start));
    for (size_t pos = 0; pos < kTablePositions; ++pos) {
      for (size_t i = 0; i < head_dim / 2; ++i) {
        const double angle = static_cast<double>(pos) *
                             std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
        t[3].Set({pos, i}, std::sin(angle));
        t[4].Set({pos, i}, std::cos(angle));
      }
    }
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return RopeCost(NumElements(specs[0].layout.shape), p.Dim("tokens"), p.Dim("head_dim") / 2, specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{oracle::RoPE(t[1], t[2], t[3], t[4], oracle::RopePairing::kGptNeox)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(RopePerf);

}  // namespace
}  // namespace infinicts::op_cases
