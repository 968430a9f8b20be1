// KVCaching perf: a layer's new keys and values appended to its caches, k and v [batch,
// kv_heads, new_len, 128] into caches [batch, kv_heads, max_seq_len, 128], I64 past lengths,
// at the kv heads of Llama-2-7B (32), Llama-3-8B (8) and Qwen2-7B (4): decode (1 new token
// for each of 1, 16 and 64 sequences, past lengths drawn per sequence) and prefill chunks
// (one sequence, 16 and 512 new tokens, 4096 in the full profile, after a drawn past).
// The caches hold at most 4096 positions and 1 Mi elements each (the oracle checks them
// whole); their prior values and k and v lie away from zero. Costed as memory traffic: k and
// v read, as many cache elements written, and the lengths; no flops.
#include <algorithm>
#include <random>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kCacheElements = size_t{1} << 20;  // per cache, unless a prefill chunk needs more
constexpr size_t kMaxContext = 4096;

size_t MaxSeqLen(size_t batch, size_t kv_heads, size_t head_dim, size_t new_len) {
  const size_t room = kCacheElements / (batch * kv_heads * head_dim);
  return std::max(new_len, std::min(kMaxContext, room));
}

PerfProblem CacheProblem(const LlmModel &model, infiniDtype_t dtype, const char *part, size_t batch, size_t new_len) {
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = part;
  problem.tokens = batch * new_len;
  problem.dims = {{"batch", batch},
                  {"kv_heads", model.kv_heads},
                  {"max_seq_len", MaxSeqLen(batch, model.kv_heads, model.head_dim, new_len)},
                  {"new_len", new_len},
                  {"head_dim", model.head_dim}};
  return problem;
}

struct KVCachingPerf {
  static constexpr const char *kSubject = "kv_caching";
  static std::vector<std::string> MathClauses() { return {"OP-KVCACHING-3"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<size_t> chunks = {16, 512};
    if (cts::FullProfile()) chunks.push_back(4096);
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        for (size_t batch : {1, 16, 64}) problems.push_back(CacheProblem(model, dtype, "decode", batch, 1));
        for (size_t chunk : chunks) problems.push_back(CacheProblem(model, dtype, "prefill_chunk", 1, chunk));
      }
    }
    return problems;
  }
  static Shape CacheShape(const PerfProblem &p) {
    return {p.Dim("batch"), p.Dim("kv_heads"), p.Dim("max_seq_len"), p.Dim("head_dim")};
  }
  static Shape EntryShape(const PerfProblem &p) {
    return {p.Dim("batch"), p.Dim("kv_heads"), p.Dim("new_len"), p.Dim("head_dim")};
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const Layout cache = ContiguousLayout(CacheShape(p)), entries = ContiguousLayout(EntryShape(p));
    return {{"k_cache", Role::kInOut, p.dtype, cache},
            {"v_cache", Role::kInOut, p.dtype, cache},
            {"k", Role::kInput, p.dtype, entries},
            {"v", Role::kInput, p.dtype, entries},
            {"past_kv_lengths", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({p.Dim("batch")})}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::KVCaching>(); }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 0; i < 4; ++i) FillAwayFromZero(t[i], rng, 0.25, 4.0);
    std::uniform_int_distribution<int64_t> past(0, static_cast<int64_t>(p.Dim("max_seq_len") - p.Dim("new_len")));
    for (size_t b = 0; b < p.Dim("batch"); ++b) t[4].SetInt({b}, past(rng));
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) {
    return CacheWriteCost(kSubject, 2 * NumElements(EntryShape(p)), p.dtype, p.Dim("batch"), INFINI_DTYPE_I64);  // k and v
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{oracle::KVCaching(t[0], t[2], t[4]), oracle::KVCaching(t[1], t[3], t[4])};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(KVCachingPerf);

}  // namespace
}  // namespace infinicts::op_cases
