// PagedAttentionPrefill perf: a prefill chunk of one sequence, its new queries the last of
// 512 cached keys plus its own (cum_seq_lens_q [0, n]), at the heads of Llama-2-7B, Llama-3-8B
// and Qwen2-7B, head_size 128: chunks of 16 and 128 queries in the quick profile, 16, 512
// and 4096 in the full one (perf/paged_attention_perf.h has the pools, the data and the
// check). Costed as 2 flops per term of q·k and p·V over the causal keys, and the bytes of q,
// out, the sequence's rows, its table entries, seq_lens and cum_seq_lens_q.
#include "perf/paged_attention_perf.h"

namespace infinicts::op_cases {
namespace {

struct PagedAttentionPrefillPerf {
  static constexpr const char *kSubject = "paged_attention_prefill";
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDATTENTIONPREFILL-3"}; }
  static std::vector<PerfProblem> Problems() {
    const std::vector<size_t> chunks =
        cts::FullProfile() ? std::vector<size_t>{16, 512, 4096} : std::vector<size_t>{16, 128};
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PagedPerfDtypes()) {
        for (size_t chunk : chunks) {
          problems.push_back(PagedPerfProblem(model, dtype, "prefill_chunk", 1, kPrefillHistory + chunk, chunk));
        }
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) { return PagedPerfSpecs(p, true); }
  static OpCalls Calls(const PerfProblem &p) {
    return OperatorCalls<api::PagedAttentionPrefill>(std::make_tuple(PagedPerfScale(p)));
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) { PagedPerfFill(p, true, t, rng); }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) { return PagedPerfCost(p, true); }
  static PerfCheck Check(const PerfProblem &p) { return PagedPerfCheck(p, true); }
};

INFINICTS_OP_PERF_CASES(PagedAttentionPrefillPerf);

}  // namespace
}  // namespace infinicts::op_cases
