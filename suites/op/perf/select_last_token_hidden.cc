// SelectLastTokenHidden perf: before the LM head of a packed prefill batch, the last token's
// hidden state of each of 4 requests of equal length (one request per token below 4
// tokens) out of [1, tokens, hidden], at each serving model's hidden size. Costed as what
// must move: the offsets, and each request's row read once and written once. The whole
// output is checked (bit for bit).
#include "common/flop_counts.h"
#include "common/perf_case.h"
#include "oracle/oracles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kPrefillRequests = 4;

size_t RequestsOf(size_t tokens) { return tokens < kPrefillRequests ? tokens : kPrefillRequests; }

struct SelectLastTokenHiddenPerf {
  static constexpr const char *kSubject = "select_last_token_hidden";
  static std::vector<std::string> MathClauses() { return {"OP-SELECTLASTTOKENHIDDEN-3"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("lm_head_input", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            ServingModels());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), hidden = p.Dim("width"), requests = RequestsOf(tokens);
    return {{"output", Role::kOutput, p.dtype, ContiguousLayout({1, requests, hidden})},
            {"hidden_states", Role::kInput, p.dtype, ContiguousLayout({1, tokens, hidden})},
            {"input_offsets", Role::kInput, INFINI_DTYPE_I32, ContiguousLayout({requests + 1})}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::SelectLastTokenHidden>(); }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillUniform(t[1], rng, -2.0, 2.0);
    const size_t tokens = p.Dim("tokens"), requests = RequestsOf(tokens);
    for (size_t r = 0; r <= requests; ++r) t[2].SetAt(r, static_cast<double>(r * (tokens / requests)));
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) {
    const size_t requests = RequestsOf(p.Dim("tokens"));
    PerfCost cost;
    cost.flops = FlopsPerElement(kSubject);
    cost.bytes = static_cast<double>((requests + 1) * DtypeSize(INFINI_DTYPE_I32) +
                                     2 * requests * p.Dim("width") * DtypeSize(p.dtype));
    return cost;
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{oracle::SelectLastTokenHidden(t[1], t[2])};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(SelectLastTokenHiddenPerf);

}  // namespace
}  // namespace infinicts::op_cases
