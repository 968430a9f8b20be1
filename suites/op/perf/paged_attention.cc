// PagedAttention perf: decode steps, one query per sequence over 512 or 4096 cached keys,
// at the heads of Llama-2-7B (32 over 32 kv heads), Llama-3-8B (32 over 8) and Qwen2-7B (28
// over 4), head_size 128: 1 and 16 sequences of 512 keys and 1 of 4096 in the quick profile,
// 1, 16 and 64 sequences of each in the full one (perf/paged_attention_perf.h has the pools,
// the data and the check). Costed as 2 flops per term of q·k and p·V, and the bytes of q, out,
// the rows each sequence attends, its table entries and the lengths.
#include "perf/paged_attention_perf.h"

namespace infinicts::op_cases {
namespace {

struct PagedAttentionPerf {
  static constexpr const char *kSubject = "paged_attention";
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDATTENTION-3"}; }
  static std::vector<PerfProblem> Problems() {
    // (sequences, keys): the quick profile's three, or every pair of the full one.
    std::vector<std::pair<size_t, size_t>> steps = {{1, 512}, {16, 512}, {1, 4096}};
    if (cts::FullProfile()) {
      steps.clear();
      for (size_t keys : {512, 4096}) {
        for (size_t batch : {1, 16, 64}) steps.push_back({batch, keys});
      }
    }
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PagedPerfDtypes()) {
        for (const auto &[batch, keys] : steps) {
          problems.push_back(PagedPerfProblem(model, dtype, "decode_ctx_" + std::to_string(keys), batch, keys, 1));
        }
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return PagedPerfSpecs(p, false); }
  static OpCalls Calls(const PerfProblem &p) {
    return OperatorCalls<api::PagedAttention>(std::make_tuple(PagedPerfScale(p)));
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) { PagedPerfFill(p, false, t, rng); }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) { return PagedPerfCost(p, false); }
  static PerfCheck Check(const PerfProblem &p) { return PagedPerfCheck(p, false); }
};

INFINICTS_OP_PERF_CASES(PagedAttentionPerf);

}  // namespace
}  // namespace infinicts::op_cases
