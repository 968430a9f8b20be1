// SiluAndMul perf: the FFN's gated activation on the fused gate-and-up projection, input
// [tokens, 2·intermediate], output [tokens, intermediate], at each serving model's FFN
// width. The gates reach ±200 as in the accuracy cases; the whole output is checked.
#include <random>

#include "common/flop_counts.h"
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct SiluAndMulPerf {
  static constexpr const char *kSubject = "silu_and_mul";
  static std::vector<std::string> MathClauses() { return {"OP-SILUANDMUL-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("ffn_silu_and_mul", RowWidth::kIntermediate, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), width = p.Dim("width");
    return {{"output", Role::kOutput, p.dtype, ContiguousLayout({tokens, width})},
            {"input", Role::kInput, p.dtype, ContiguousLayout({tokens, 2 * width})}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::SiluAndMul>(); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    const size_t width = t[1].shape().back(), half = width / 2;
    std::uniform_real_distribution<double> gate(-10.0, 10.0), up(-2.0, 2.0);
    for (size_t i = 0; i < t[1].numel(); ++i) t[1].SetAt(i, i % width < half ? gate(rng) : up(rng));
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return PerElementCost(FlopsPerElement(kSubject), p.Dim("tokens") * p.Dim("width"), specs);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) { return std::vector<HostTensor>{oracle::SiluAndMul(t[1])}; };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(SiluAndMulPerf);

}  // namespace
}  // namespace infinicts::op_cases
