// Gemm perf: the projections of a Llama-2 layer, C (tokens × n) = A (tokens × k) · B (k × n),
// alpha 1, beta 0 (C is not read): qkv_proj (n = (heads + 2·kv_heads)·head_dim, k = hidden),
// o_proj (n = hidden, k = heads·head_dim), gate_up_proj (n = intermediate, k = hidden: the
// gate and the up projection each have this shape) and down_proj (n = hidden,
// k = intermediate). Dyadic data as in the accuracy cases (exact products
// and sums), and 256 sampled elements checked against fp64 dot products.
#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct GemmPerf {
  static constexpr const char *kSubject = "gemm";
  static std::vector<std::string> MathClauses() { return {"OP-GEMM-4", "OP-GEMM-5", "OP-GEMM-6"}; }

  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      auto mnk = [tokens](size_t n, size_t k) {
        return std::vector<std::pair<std::string, size_t>>{{"m", tokens}, {"n", n}, {"k", k}};
      };
      return PartDims{{"qkv_proj", mnk((l.heads + 2 * l.kv_heads) * l.head_dim, l.hidden)},
                      {"o_proj", mnk(l.hidden, l.heads * l.head_dim)},
                      {"gate_up_proj", mnk(l.intermediate, l.hidden)},
                      {"down_proj", mnk(l.hidden, l.intermediate)}};
    });
  }

  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t m = p.Dim("m"), n = p.Dim("n"), k = p.Dim("k");
    return {{"c", Role::kInOut, p.dtype, ContiguousLayout({m, n})},
            {"a", Role::kInput, p.dtype, ContiguousLayout({m, k})},
            {"b", Role::kInput, p.dtype, ContiguousLayout({k, n})}};
  }

  static OpCalls Calls(const PerfProblem &) {
    return OperatorCalls<api::Gemm>(std::tuple<>(), std::make_tuple(1.0f, 0.0f));
  }

  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    FillDyadic(t[1], rng, -8, 8, 2);
    FillDyadic(t[2], rng, -8, 8, 2);
  }

  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    return GemmCost(p.Dim("m"), p.Dim("n"), p.Dim("k"), specs);
  }

  static PerfCheck Check(const PerfProblem &p) {
    const size_t n = p.Dim("n"), k = p.Dim("k");
    PerfCheck check;
    check.element = [n, k](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t row = flat / n, column = flat % n;
      const HostTensor a_row = GatherElements(t[1], {1, k}, row * k, 1);
      const HostTensor b_column = GatherElements(t[2], {k, 1}, column, n);
      const HostTensor unread_c(t[0].dtype(), Shape{1, 1});
      return oracle::Gemm(unread_c, a_row, b_column, 1.0, 0.0).GetAt(0);
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(GemmPerf);

}  // namespace
}  // namespace infinicts::op_cases
