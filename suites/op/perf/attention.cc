// Attention perf: one layer's self-attention of one sequence over its KV cache at the heads of
// Llama-2-7B (32 over 32 kv heads), Llama-3-8B (32 over 8) and Qwen2-7B (28 over 4), head_dim
// 128: decode_ctx_512, one new token after 511 cached (the full profile adds decode_ctx_4096,
// after 4095), and prefill, a prompt of 16 tokens from position 0 (full: also 512). The caches
// hold exactly pos + seq_len rows; q, k, v and the caches' prior rows lie away from zero. The
// whole output and both caches are checked. Costed as the terms of q·k and p·V and the traffic
// of q, k, v, out and the caches' rows (common/perf_cost.h AttentionCost).
#include <string>
#include <vector>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

PerfProblem AttentionProblemOf(const LlmModel &model, infiniDtype_t dtype, const std::string &part, size_t seq,
                               size_t pos) {
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = part;
  problem.tokens = seq;
  problem.dims = {{"heads", model.heads},
                  {"kv_heads", model.kv_heads},
                  {"seq_len", seq},
                  {"pos", pos},
                  {"head_dim", model.head_dim}};
  return problem;
}

struct AttentionPerf {
  static constexpr const char *kSubject = "attention";
  static std::vector<std::string> MathClauses() { return {"OP-ATTENTION-4", "OP-ATTENTION-5"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<size_t> contexts = {512}, prompts = {16};
    if (cts::FullProfile()) {
      contexts.push_back(4096);
      prompts.push_back(512);
    }
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        for (size_t context : contexts) {
          problems.push_back(AttentionProblemOf(model, dtype, "decode_ctx_" + std::to_string(context), 1, context - 1));
        }
        for (size_t prompt : prompts) problems.push_back(AttentionProblemOf(model, dtype, "prefill", prompt, 0));
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t heads = p.Dim("heads"), kv_heads = p.Dim("kv_heads"), seq = p.Dim("seq_len"), dim = p.Dim("head_dim");
    const Layout cache = ContiguousLayout({kv_heads, p.Dim("pos") + seq, dim});
    const Layout entries = ContiguousLayout({kv_heads, seq, dim});
    return {{"out", Role::kOutput, p.dtype, ContiguousLayout({seq, heads, dim})},
            {"q", Role::kInput, p.dtype, ContiguousLayout({heads, seq, dim})},
            {"k", Role::kInput, p.dtype, entries},
            {"v", Role::kInput, p.dtype, entries},
            {"k_cache", Role::kInOut, p.dtype, cache},
            {"v_cache", Role::kInOut, p.dtype, cache}};
  }
  static OpCalls Calls(const PerfProblem &p) { return OperatorCalls<api::Attention>(std::make_tuple(p.Dim("pos"))); }
  static void Fill(const PerfProblem &, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 1; i < 6; ++i) FillAwayFromZero(t[i], rng, 0.25, 2.0);
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) {
    return AttentionCost(p.Dim("heads"), p.Dim("kv_heads"), p.Dim("seq_len"), p.Dim("pos"), p.Dim("head_dim"), p.dtype);
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    check.full = [pos = p.Dim("pos")](const std::vector<HostTensor> &t) {
      oracle::AttentionResult result = oracle::Attention(t[1], t[2], t[3], t[4], t[5], pos);
      return std::vector<HostTensor>{std::move(result.out), std::move(result.k_cache), std::move(result.v_cache)};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(AttentionPerf);

}  // namespace
}  // namespace infinicts::op_cases
