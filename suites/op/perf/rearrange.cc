// Rearrange perf: writing a layer's new keys into a head-major KV cache, [tokens, kv_heads,
// head_dim] from a contiguous src into a dst whose memory is ordered [kv_heads, tokens,
// head_dim]. Values away from zero; the whole of dst is checked (bit for bit).
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct RearrangePerf {
  static constexpr const char *kSubject = "rearrange";
  static std::vector<std::string> MathClauses() { return {"OP-REARRANGE-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"kv_cache_write", {{"tokens", tokens}, {"kv_heads", l.kv_heads}, {"head_dim", l.head_dim}}}};
    });
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), heads = p.Dim("kv_heads"), head_dim = p.Dim("head_dim");
    const Shape shape = {tokens, heads, head_dim};
    const Layout head_major{shape, {static_cast<ptrdiff_t>(head_dim), static_cast<ptrdiff_t>(tokens * head_dim), 1}, 0};
    return {{"dst", Role::kOutput, p.dtype, head_major}, {"src", Role::kInput, p.dtype, ContiguousLayout(shape)}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::Rearrange>(); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[1], rng, 0.25, 4.0);
  }
  static PerfCost Cost(const PerfProblem &, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), NumElements(specs[0].layout.shape), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{oracle::Rearrange(t[1])}; };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(RearrangePerf);

}  // namespace
}  // namespace infinicts::op_cases
