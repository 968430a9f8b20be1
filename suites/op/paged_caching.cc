// PagedCaching: each token's keys and values scattered into a paged pool. With
// slot = slot_mapping[t], block = slot / block_size and offset = slot % block_size,
// k_cache[block, h, offset, :] = k[t, h, :] (v likewise); a negative slot (padding) writes
// nothing; the rest of both pools is unchanged (spec section OP-PAGEDCACHING). The pools are
// in-out: they start with prior values everywhere and are compared whole.
//
// Data: every pool element, k and v away from zero; slot mappings that are not the identity:
// a sequence's blocks scattered over the pool in reverse order, tokens listed backwards,
// block_size + 1 tokens whose slots reach a block's last offset and the next block's first,
// a chunk starting inside a block, the pool's first and last slots, -1 padding tokens, a
// block_size of 1, and k and v of different head dims (MLA). Several heads in every case but
// two, so the pool's head-before-slot order shows. Pool views with spare slots after each
// block, padded rows, or the memory order [block, slot, head, dim]; k/v views: the columns of
// a fused QKV tensor, padded heads, a head_dim that is not the unit stride, tokens backwards.
#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cache_layouts.h"
#include "common/cache_write_problems.h"
#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/problem_grammar.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

// How k and v [num_tokens, kv_heads, head_dim] lie in memory.
enum class TokenLayout {
  kContiguous,
  kQkvSlice,    // the k (or v) columns of a fused [num_tokens, 2·kv_heads·d + kv_heads·d + kv_heads·v_d] tensor
  kPadded,      // padded heads (kPadded: 3 unused elements after each head's row)
  kDimStrided,  // head_dim with stride kv_heads (the last two dims column-major)
  kFlipped,     // tokens walked backwards
};

const char *TokenLayoutName(TokenLayout kind) {
  switch (kind) {
    case TokenLayout::kContiguous: return "contig";
    case TokenLayout::kQkvSlice: return "qkv_slice";
    case TokenLayout::kPadded: return "pad";
    case TokenLayout::kDimStrided: return "dim_strided";
    case TokenLayout::kFlipped: return "flip";
  }
  return "layout";
}

}  // namespace

// The names TokenLayoutName gives. Outside the unnamed namespace: an explicit
// specialisation belongs to EnumNames' own namespace.
template <>
struct EnumNames<TokenLayout> {
  static std::vector<std::pair<TokenLayout, std::string>> All() {
    return {{TokenLayout::kContiguous, "contig"},
            {TokenLayout::kQkvSlice, "qkv_slice"},
            {TokenLayout::kPadded, "pad"},
            {TokenLayout::kDimStrided, "dim_strided"},
            {TokenLayout::kFlipped, "flip"}};
  }
};

namespace {

constexpr size_t kSpareSlots = 2;

// k's (second = false) or v's layout; both head dims fix the fused QKV tensor's width.
Layout MakeTokenLayout(TokenLayout kind, size_t tokens, size_t heads, size_t k_dim, size_t v_dim, bool second) {
  const Shape shape = {tokens, heads, second ? v_dim : k_dim};
  switch (kind) {
    case TokenLayout::kContiguous: return ContiguousLayout(shape);
    case TokenLayout::kQkvSlice: {
      const ptrdiff_t h = static_cast<ptrdiff_t>(heads), kd = static_cast<ptrdiff_t>(k_dim),
                      vd = static_cast<ptrdiff_t>(v_dim);
      const ptrdiff_t width = 2 * h * kd + h * kd + h * vd;  // q (2 heads per kv head), k, v
      const ptrdiff_t dim = second ? vd : kd;
      return Layout{shape, {width, dim, 1}, (second ? 3 : 2) * h * kd};
    }
    case TokenLayout::kPadded: return MakeLayout(LayoutKind::kPadded, shape);
    case TokenLayout::kDimStrided: return MakeLayout(LayoutKind::kTransposed, shape);
    case TokenLayout::kFlipped: return MakeLayout(LayoutKind::kFlipped, shape);
  }
  throw std::invalid_argument("unknown token layout");
}

struct PagedCachingProblem : Param<PagedCachingProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  std::string scenario = "default";  // what the slot mapping exercises, in the case id; never empty (it reads back)
  std::vector<int64_t> slots;        // slot_mapping, one per token
  size_t kv_heads = 1, head_dim = 1, v_head_dim = 1, num_blocks = 1, block_size = 1;
  CacheLayout pool_layout = CacheLayout::kContiguous;
  TokenLayout kv_layout = TokenLayout::kContiguous;

  size_t Tokens() const { return slots.size(); }
  Shape PoolShape(size_t dim) const { return {num_blocks, kv_heads, block_size, dim}; }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__t" + std::to_string(Tokens()) + "_h" + std::to_string(kv_heads) + "_d" +
           std::to_string(head_dim) + "_vd" + std::to_string(v_head_dim) + "_blocks" + std::to_string(num_blocks) +
           "_bs" + std::to_string(block_size) + "__slots_" + scenario + "__pool_" + CacheLayoutName(pool_layout) +
           "_kv_" + TokenLayoutName(kv_layout);
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("scenario", scenario);
    field("slots", slots);
    field("kv_heads", kv_heads);
    field("head_dim", head_dim);
    field("v_head_dim", v_head_dim);
    field("num_blocks", num_blocks);
    field("block_size", block_size);
    field("pool", pool_layout);
    field("kv", kv_layout);
  }
};

struct PagedCachingOp {
  using Problem = PagedCachingProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "paged_caching";
  static constexpr const char *kTensorRoles =
      "k_cache[blocks,heads,block_size,head_dim] v_cache[blocks,heads,block_size,v_head_dim]=k_cache "
      "k[tokens,heads,head_dim]=k_cache v[tokens,heads,v_head_dim]=k_cache slot_mapping[tokens]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const size_t tokens = p.Tokens();
    return {{"k_cache", Role::kInOut, p.dtype, MakeCacheLayout(p.pool_layout, p.PoolShape(p.head_dim), kSpareSlots)},
            {"v_cache", Role::kInOut, p.dtype, MakeCacheLayout(p.pool_layout, p.PoolShape(p.v_head_dim), kSpareSlots)},
            {"k", Role::kInput, p.dtype, MakeTokenLayout(p.kv_layout, tokens, p.kv_heads, p.head_dim, p.v_head_dim, false)},
            {"v", Role::kInput, p.dtype, MakeTokenLayout(p.kv_layout, tokens, p.kv_heads, p.head_dim, p.v_head_dim, true)},
            {"slot_mapping", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({tokens})}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::PagedCaching>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t i = 0; i < 4; ++i) FillAwayFromZero(t[i], rng, 0.25, 4.0);  // prior pools, k, v
    for (size_t i = 0; i < p.Tokens(); ++i) t[4].SetInt({i}, p.slots[i]);
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::PagedCaching(t[0], t[2], t[4]), oracle::PagedCaching(t[1], t[3], t[4])};
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.Tokens() * p.kv_heads * (p.head_dim + p.v_head_dim));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }

  static Problem Make(infiniDtype_t dtype, std::string scenario, std::vector<int64_t> slots, size_t kv_heads,
                      size_t head_dim, size_t v_head_dim, size_t num_blocks, size_t block_size) {
    Problem p;
    p.dtype = dtype;
    p.scenario = std::move(scenario);
    p.slots = std::move(slots);
    p.kv_heads = kv_heads;
    p.head_dim = head_dim;
    p.v_head_dim = v_head_dim;
    p.num_blocks = num_blocks;
    p.block_size = block_size;
    return p;
  }

  // Three tokens: block 2's second slot, block 1's first, and a padding token.
  static Problem Default(infiniDtype_t dtype) { return Make(dtype, "default", {9, 4, -1}, 2, 8, 8, 4, 4); }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Default(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Default(F32): pools [4, 2, 4, 8], k and v [3, 2, 8], slot_mapping [3].
    BadDescriptorList<Problem> bad(Default(INFINI_DTYPE_F32));
    bad.Add("all_i64", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I64;
    });
    bad.Add("slot_mapping_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[4].dtype = INFINI_DTYPE_I32; });
    bad.Add("v_f16_pools_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F16; });
    bad.Add("k_cache_bf16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_BF16; });
    bad.Add("k_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {3, 16}); });
    bad.Add("k_cache_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 2, 32}); });
    bad.Add("k_4_tokens", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4, 2, 8}); });
    bad.Add("v_3_heads", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {3, 3, 8}); });
    bad.Add("k_cache_head_dim_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 2, 4, 4}); });
    bad.Add("v_cache_head_dim_4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 2, 4, 4}); });
    bad.Add("v_cache_block_size_8", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 2, 8, 8}); });
    bad.Add("v_cache_5_blocks", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {5, 2, 4, 8}); });
    bad.Add("k_cache_3_heads", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 3, 4, 8}); });
    bad.Add("slot_mapping_of_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {2}); });
    bad.Add("slot_mapping_2d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[4], {3, 1}); });
    bad.Add("k_cache_slots_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[0].layout.strides = {64, 32, 0, 1}; });
    bad.AddRecommended("v_cache_heads_overlap", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[1].layout.strides = {64, 8, 8, 1}; });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[3].dtype = INFINI_DTYPE_F16;
              Reshape(s[4], {2});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[4], {2});
              s[0].layout.strides = {64, 32, 0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PAGEDCACHING-3", "OP-PAGEDCACHING-4"}, {"OP-PAGEDCACHING-1"}, {"OP-PAGEDCACHING-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(PagedCachingOp);
INFINICTS_OP_WORKSPACE_CASES(PagedCachingOp);

// Perf: a layer's new keys and values scattered into paged pools of 16-slot blocks (vLLM's
// default), k and v [tokens, kv_heads, 128] into pools [num_blocks, kv_heads, 16, 128], I64
// slots, at the kv heads of Llama-2-7B (32), Llama-3-8B (8) and Qwen2-7B (4): decode (1, 16
// and 64 sequences, each token at a drawn offset of its own block, the blocks drawn from the
// pool) and prefill chunks (one sequence, 16 and 512 tokens, 4096 in the full profile,
// starting at a drawn offset of its first block, its blocks drawn from the pool in no
// order); the slots are drawn from a fixed seed (a problem is the same wherever it is built).
// The pools hold at most 1 Mi elements each unless a chunk needs more blocks (the oracle
// checks them whole); prior values, k and v away from zero. Costed as memory traffic: k and
// v read, as many pool elements written, and the slots; no flops.
constexpr size_t kPerfBlockSize = 16;
constexpr size_t kPerfPoolElements = size_t{1} << 20;  // per pool, unless a chunk needs more blocks

PerfProblem PoolProblem(const LlmModel &model, infiniDtype_t dtype, const char *part, size_t tokens,
                        size_t blocks_needed) {
  const size_t room = kPerfPoolElements / (model.kv_heads * kPerfBlockSize * model.head_dim);
  PerfProblem problem;
  problem.dtype = dtype;
  problem.model = model.name;
  problem.part = part;
  problem.tokens = tokens;
  problem.dims = {{"tokens", tokens},
                  {"kv_heads", model.kv_heads},
                  {"head_dim", model.head_dim},
                  {"num_blocks", std::max(blocks_needed, room)},
                  {"block_size", kPerfBlockSize}};
  return problem;
}

struct PagedCachingWorkload {
  using Op = PagedCachingOp;
  static std::vector<std::string> MathClauses() { return {"OP-PAGEDCACHING-3"}; }
  static std::vector<PerfProblem> Problems() {
    return CacheWriteProblems([](const LlmModel &model, infiniDtype_t dtype, const char *part, size_t count) {
      // A decode step writes one token per sequence, each into a block of its own; a chunk
      // starting inside its first block spans one block more than it fills.
      const bool decode = std::string(part) == "decode";
      return PoolProblem(model, dtype, part, count, decode ? count : count / kPerfBlockSize + 1);
    });
  }
  static PagedCachingOp::Problem At(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), block_size = p.Dim("block_size");
    Rng rng(1);
    std::vector<int64_t> blocks(p.Dim("num_blocks"));
    std::iota(blocks.begin(), blocks.end(), 0);
    std::shuffle(blocks.begin(), blocks.end(), rng);
    std::uniform_int_distribution<size_t> offset(0, block_size - 1);
    const bool decode = p.part == "decode";
    const size_t start = decode ? 0 : offset(rng);  // the chunk's first position in its first block
    std::vector<int64_t> slots(tokens);
    for (size_t i = 0; i < tokens; ++i) {
      // Decode: token i alone in block i; a chunk: position start + i of one sequence.
      const size_t block = decode ? i : (start + i) / block_size;
      const size_t in_block = decode ? offset(rng) : (start + i) % block_size;
      slots[i] = blocks.at(block) * static_cast<int64_t>(block_size) + static_cast<int64_t>(in_block);
    }
    const size_t head_dim = p.Dim("head_dim");
    return PagedCachingOp::Make(p.dtype, p.part, std::move(slots), p.Dim("kv_heads"), head_dim, head_dim,
                                p.Dim("num_blocks"), block_size);
  }
  static PerfCost Cost(const PagedCachingOp::Problem &p, const std::vector<TensorSpec> &) {
    const size_t entries = p.Tokens() * p.kv_heads * (p.head_dim + p.v_head_dim);  // k and v
    return CacheWriteCost(PagedCachingOp::kSubject, entries, p.dtype, p.Tokens(), INFINI_DTYPE_I64);
  }
};
using PagedCachingPerf = OpPerf<PagedCachingWorkload>;
INFINICTS_OP_PERF_CASES(PagedCachingPerf);

}  // namespace
}  // namespace infinicts::op_cases
