// Embedding perf: the token embedding, output [tokens, hidden] = weight[input] with I64
// indices drawn across the vocabulary and weight [32000, hidden]. Only the rows the indices
// name hold values (away from zero); every other row keeps the NaN sentinel, so a gather of
// a wrong row shows. The whole output is checked (bit for bit).
#include <cstring>
#include <map>
#include <set>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct EmbeddingPerf {
  static constexpr const char *kSubject = "embedding";
  static std::vector<std::string> MathClauses() { return {"OP-EMBEDDING-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      return PartDims{{"token_embedding", {{"tokens", tokens}, {"vocab", l.vocab}, {"hidden", l.hidden}}}};
    });
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), hidden = p.Dim("hidden");
    return {{"output", Role::kOutput, p.dtype, ContiguousLayout({tokens, hidden})},
            {"input", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({tokens})},
            {"weight", Role::kInput, p.dtype, ContiguousLayout({p.Dim("vocab"), hidden})}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::Embedding>(); }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    const size_t hidden = p.Dim("hidden");
    FillIntegers(t[1], rng, 0, static_cast<int64_t>(p.Dim("vocab")));
    HostTensor row(p.dtype, Shape{hidden});
    const size_t row_bytes = row.storage_bytes();
    std::set<int64_t> filled;
    for (size_t i = 0; i < t[1].numel(); ++i) {
      const int64_t index = t[1].GetInt({i});
      if (!filled.insert(index).second) continue;
      FillAwayFromZero(row, rng, 0.25, 4.0);
      std::memcpy(t[2].storage() + static_cast<size_t>(index) * row_bytes, row.storage(), row_bytes);
    }
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) {
    return EmbeddingCost(p.Dim("tokens"), p.Dim("hidden"), p.dtype, INFINI_DTYPE_I64);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    // The oracle gathers from the rows the indices name, packed into a small table (its
    // whole-table conversion to fp64 would cost more than the case).
    check.full = [](const std::vector<HostTensor> &t) {
      const HostTensor &indices = t[1], &weight = t[2];
      const size_t row_bytes = weight.storage_bytes() / weight.shape()[0];
      std::map<int64_t, size_t> slot_of;
      for (size_t i = 0; i < indices.numel(); ++i) slot_of.emplace(indices.GetInt({i}), slot_of.size());
      HostTensor slots(INFINI_DTYPE_I64, indices.shape());
      HostTensor rows(weight.dtype(), Shape{slot_of.size(), weight.shape()[1]});
      for (size_t i = 0; i < indices.numel(); ++i) slots.SetInt({i}, static_cast<int64_t>(slot_of.at(indices.GetInt({i}))));
      for (const auto &[index, slot] : slot_of) {
        std::memcpy(rows.storage() + slot * row_bytes, weight.storage() + static_cast<size_t>(index) * row_bytes, row_bytes);
      }
      return std::vector<HostTensor>{oracle::Embedding(slots, rows)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(EmbeddingPerf);

}  // namespace
}  // namespace infinicts::op_cases
