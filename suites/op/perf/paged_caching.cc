// PagedCaching perf: a layer's new keys and values scattered into paged pools of 16-slot
// blocks (vLLM's default), k and v [tokens, kv_heads, 128] into pools [num_blocks, kv_heads,
// 16, 128], I64 slots, at the kv heads of Llama-2-7B (32), Llama-3-8B (8) and Qwen2-7B (4):
// decode (1, 16 and 64 sequences, each token at a drawn offset of its own block, the blocks
// drawn from the pool) and prefill chunks (one sequence, 16 and 512 tokens, 4096 in the
// full profile, starting at a drawn offset of its first block, its blocks drawn from the pool
// in no order). The pools hold at most 1 Mi elements each unless a chunk needs more blocks
// (the oracle checks them whole); prior values, k and v away from zero. Costed as memory
// traffic: k and v read, as many pool elements written, and the slots; no flops.
#include <algorithm>
#include <numeric>
#include <random>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kBlockSize = 16;
constexpr size_t kPoolElements = size_t{1} << 20;  // per pool, unless a chunk needs more blocks

PerfProblem PoolProblem(const LlmModel &model, infiniDtype_t dtype, const char *part, size_t tokens,
                        size_t blocks_needed) {
  const size_t room = kPoolElements / (model.kv_heads * kBlockSize * model.head_dim);
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = part;
  problem.tokens = tokens;
  problem.dims = {{"tokens", tokens},
                  {"kv_heads", model.kv_heads},
                  {"head_dim", model.head_dim},
                  {"num_blocks", std::max(blocks_needed, room)},
                  {"block_size", kBlockSize}};
  return problem;
}

struct PagedCachingPerf {
  static constexpr const char *kSubject = "paged_caching";
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDCACHING-3"}; }
  static std::vector<PerfProblem> Problems() {
    std::vector<size_t> chunks = {16, 512};
    if (cts::FullProfile()) chunks.push_back(4096);
    std::vector<PerfProblem> problems;
    for (const LlmModel &model : ServingModels()) {
      for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
        for (size_t batch : {1, 16, 64}) problems.push_back(PoolProblem(model, dtype, "decode", batch, batch));
        // A chunk starting inside its first block spans one block more than it fills.
        for (size_t chunk : chunks) {
          problems.push_back(PoolProblem(model, dtype, "prefill_chunk", chunk, chunk / kBlockSize + 1));
        }
      }
    }
    return problems;
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), heads = p.Dim("kv_heads"), head_dim = p.Dim("head_dim");
    const Layout pool = ContiguousLayout({p.Dim("num_blocks"), heads, p.Dim("block_size"), head_dim});
    const Layout entries = ContiguousLayout({tokens, heads, head_dim});
    return {{"k_cache", Role::kInOut, p.dtype, pool},
            {"v_cache", Role::kInOut, p.dtype, pool},
            {"k", Role::kInput, p.dtype, entries},
            {"v", Role::kInput, p.dtype, entries},
            {"slot_mapping", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({tokens})}};
  }
  static OpCalls Calls(const PerfProblem &) { return OperatorCalls<api::PagedCaching>(); }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 0; i < 4; ++i) FillAwayFromZero(t[i], rng, 0.25, 4.0);
    const size_t tokens = p.Dim("tokens"), block_size = p.Dim("block_size");
    std::vector<int64_t> blocks(p.Dim("num_blocks"));
    std::iota(blocks.begin(), blocks.end(), 0);
    std::shuffle(blocks.begin(), blocks.end(), rng);
    std::uniform_int_distribution<size_t> offset(0, block_size - 1);
    const bool decode = p.part == "decode";
    const size_t start = decode ? 0 : offset(rng);  // the chunk's first position in its first block
    for (size_t i = 0; i < tokens; ++i) {
      // Decode: token i alone in block i; a chunk: position start + i of one sequence.
      const size_t block = decode ? i : (start + i) / block_size;
      const size_t in_block = decode ? offset(rng) : (start + i) % block_size;
      t[4].SetInt({i}, blocks.at(block) * static_cast<int64_t>(block_size) + static_cast<int64_t>(in_block));
    }
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &) {
    const size_t entries = 2 * p.Dim("tokens") * p.Dim("kv_heads") * p.Dim("head_dim");  // k and v
    return CacheWriteCost(kSubject, entries, p.dtype, p.Dim("tokens"), INFINI_DTYPE_I64);
  }
  static PerfCheck Check(const PerfProblem &) {
    PerfCheck check;
    check.full = [](const std::vector<HostTensor> &t) {
      return std::vector<HostTensor>{oracle::PagedCaching(t[0], t[2], t[4]), oracle::PagedCaching(t[1], t[3], t[4])};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(PagedCachingPerf);

}  // namespace
}  // namespace infinicts::op_cases
