// MRoPE, Qwen2-VL's multimodal rotary embedding of q and k (spec section OP-MROPE): each rotary
// frequency i < rotary_dim / 2 takes its position from row t, h or w of positions (contiguous
// sections, or Qwen3-VL's interleaved cycle), and rotates the GPT-NeoX pair (i, i + rotary_dim/2)
// of every head by the table angle of that position; elements from rotary_dim on pass through.
//
// Data: q and k away from zero; cos and sin tables of unrelated angles per (position,
// frequency), and three different positions per token drawn from the table, so a frequency that
// takes another row's position (a t/h/w mix-up, the interleaved flag ignored, the sections
// miscounted) or a position read by token index rotates its pair by another angle. Qwen2-VL's
// sections (16, 24, 24) and Qwen3-VL's interleaved (24, 20, 20) on heads of 128; rotary_dim
// below head_size (the rest must pass through, and a pairing by head_size / 2 shows); uneven
// small sections; 1-D (text) positions; more k heads than q heads; one token; I32 and I64
// positions. Views: q and k as the columns of a fused QKV row, q_out with padded rows, tables
// with padded rows, positions column-major.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr double kTwoPi = 6.283185307179586;

struct MRoPEProblem : Param<MRoPEProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  infiniDtype_t pos_dtype = INFINI_DTYPE_I64;
  size_t tokens = 1, q_heads = 1, k_heads = 1, head_size = 2, table_len = 1;
  int rotary_dim = 2, section_t = 1, section_h = 0, section_w = 0;  // attributes as the create call takes them
  bool interleaved = false;
  bool per_axis = true;  // positions [3, tokens]; false: [tokens]
  bool views = false;    // fused-QKV q and k, padded q_out and tables, column-major positions

  size_t Half() const { return static_cast<size_t>(rotary_dim > 0 ? rotary_dim / 2 : 0); }
  Shape QShape() const { return {tokens, q_heads * head_size}; }
  Shape KShape() const { return {tokens, k_heads * head_size}; }
  Shape TableShape() const { return {table_len, Half()}; }
  Shape PositionsShape() const { return per_axis ? Shape{3, tokens} : Shape{tokens}; }

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "_pos_" + DtypeName(pos_dtype) + "__t" + std::to_string(tokens) + "_q" +
           std::to_string(q_heads) + "_k" + std::to_string(k_heads) + "_head" + std::to_string(head_size) + "_rot" +
           std::to_string(rotary_dim) + "_table" + std::to_string(table_len) + "__sections_" +
           std::to_string(section_t) + "_" + std::to_string(section_h) + "_" + std::to_string(section_w) +
           (interleaved ? "_interleaved" : "_contiguous") + (per_axis ? "__thw_rows" : "__one_row") +
           (views ? "__views" : "__contig");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("pos", pos_dtype);
    field("tokens", tokens);
    field("q_heads", q_heads);
    field("k_heads", k_heads);
    field("head_size", head_size);
    field("table_len", table_len);
    field("rotary_dim", rotary_dim);
    field("section_t", section_t);
    field("section_h", section_h);
    field("section_w", section_w);
    field("interleaved", interleaved);
    field("per_axis", per_axis);
    field("views", views);
  }
};

struct MRoPEOp {
  using Problem = MRoPEProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "mrope";
  static constexpr const char *kTensorRoles =
      "q_out[tokens,q_width]=q k_out[tokens,k_width]=q q[tokens,q_width] k[tokens,k_width]=q "
      "cos[length,half]=q sin[length,half]=q positions[~axes,tokens]:int";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    // Fill gives each token three different table rows.
    if (p.per_axis && p.table_len < 3)
      throw std::invalid_argument("MRoPE: per-axis positions need table_len of at least 3");
    Layout q = ContiguousLayout(p.QShape()), k = ContiguousLayout(p.KShape()), q_out = q;
    Layout table = ContiguousLayout(p.TableShape()), positions = ContiguousLayout(p.PositionsShape());
    if (p.views) {
      // One fused row per token: q's heads, then k's, then v's (as many as k's).
      const ptrdiff_t width = static_cast<ptrdiff_t>((p.q_heads + 2 * p.k_heads) * p.head_size);
      q = Layout{p.QShape(), {width, 1}, 0};
      k = Layout{p.KShape(), {width, 1}, static_cast<ptrdiff_t>(p.q_heads * p.head_size)};
      q_out = PaddedLayout(p.QShape(), 3);
      table = PaddedLayout(p.TableShape(), 3);
      if (p.per_axis) positions = Layout{p.PositionsShape(), {1, 3}, 0};  // memory [tokens, 3]
    }
    return {{"q_out", Role::kOutput, p.dtype, q_out},
            {"k_out", Role::kOutput, p.dtype, ContiguousLayout(p.KShape())},
            {"q", Role::kInput, p.dtype, q},
            {"k", Role::kInput, p.dtype, k},
            {"cos", Role::kInput, p.dtype, table},
            {"sin", Role::kInput, p.dtype, table},
            {"positions", Role::kInput, p.pos_dtype, positions}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::MRoPE>(std::make_tuple(static_cast<int>(p.head_size), p.rotary_dim, p.section_t,
                                                     p.section_h, p.section_w, p.interleaved));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillAwayFromZero(t[2], rng, 0.25, 2.0);
    FillAwayFromZero(t[3], rng, 0.25, 2.0);
    std::uniform_real_distribution<double> angle(0.0, kTwoPi);
    for (size_t position = 0; position < p.table_len; ++position) {
      for (size_t i = 0; i < p.Half(); ++i) {
        const double a = angle(rng);
        t[4].Set({position, i}, std::cos(a));
        t[5].Set({position, i}, std::sin(a));
      }
    }
    if (!p.per_axis) {
      FillIntegers(t[6], rng, 0, static_cast<int64_t>(p.table_len));
      return;
    }
    // Three different positions per token, so that a frequency reading another row always moves.
    std::uniform_int_distribution<int64_t> draw(0, static_cast<int64_t>(p.table_len) - 1);
    for (size_t token = 0; token < p.tokens; ++token) {
      const int64_t t_row = draw(rng);
      int64_t h_row = draw(rng), w_row = draw(rng);
      while (h_row == t_row) h_row = draw(rng);
      while (w_row == t_row || w_row == h_row) w_row = draw(rng);
      t[6].SetInt({0, token}, t_row);
      t[6].SetInt({1, token}, h_row);
      t[6].SetInt({2, token}, w_row);
    }
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    const auto rotate = [&](const HostTensor &x) {
      return oracle::MRoPE(x, t[4], t[5], t[6], p.head_size, static_cast<size_t>(p.rotary_dim),
                           static_cast<size_t>(p.section_t), static_cast<size_t>(p.section_h),
                           static_cast<size_t>(p.section_w), p.interleaved);
    };
    return {rotate(t[2]), rotate(t[3])};
  }

  // The rotated elements of q_out and k_out (the passed-through ones cost no arithmetic).
  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(p.tokens * (p.q_heads + p.k_heads)) *
           static_cast<double>(p.rotary_dim);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, infiniDtype_t pos_dtype, size_t tokens, size_t q_heads, size_t k_heads,
                      size_t head_size, int rotary_dim, std::array<int, 3> sections, bool interleaved) {
    Problem p;
    p.dtype = dtype;
    p.pos_dtype = pos_dtype;
    p.tokens = tokens;
    p.q_heads = q_heads;
    p.k_heads = k_heads;
    p.head_size = head_size;
    p.table_len = 29;
    p.rotary_dim = rotary_dim;
    p.section_t = sections[0];
    p.section_h = sections[1];
    p.section_w = sections[2];
    p.interleaved = interleaved;
    return p;
  }

  // 5 tokens, 2 q heads and 1 k head of 16, rotary_dim 12 (4 elements pass through), sections (1, 2, 3).
  static Problem Small(infiniDtype_t dtype, bool interleaved = false) {
    return Make(dtype, INFINI_DTYPE_I64, 5, 2, 1, 16, 12, {1, 2, 3}, interleaved);
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Small(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    // Small(F32): q and q_out [5, 32], k and k_out [5, 16], tables [29, 6], positions [3, 5].
    BadDescriptorList<Problem> bad(Small(INFINI_DTYPE_F32));
    auto unchanged = [](Specs &) {};
    // Attribute faults; the tensors stay those of Small (tables [29, 6]).
    auto with = [](std::function<void(Problem &)> change) {
      Problem p = Small(INFINI_DTYPE_F32);
      change(p);
      return p;
    };
    const Problem rotary_dim_odd = with([](Problem &p) { p.rotary_dim = 13; });
    const Problem rotary_dim_past_head_size = with([](Problem &p) {
      p.rotary_dim = 18;
      p.section_w = 6;  // the sections still add up to rotary_dim / 2
    });
    const Problem section_h_0 = with([](Problem &p) {
      p.section_h = 0;
      p.section_w = 5;
    });
    bad.AddFor(rotary_dim_odd, "rotary_dim_odd", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(rotary_dim_past_head_size, "rotary_dim_past_head_size", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(with([](Problem &p) { p.rotary_dim = 0; }), "rotary_dim_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(with([](Problem &p) { p.section_w = 2; }), "sections_sum_5_of_6", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(section_h_0, "section_h_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(with([](Problem &p) { p.head_size = 0; }), "head_size_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("k_out_bf16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_BF16; });
    bad.Add("positions_i16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[6].dtype = INFINI_DTYPE_I16; });
    bad.Add("q_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {5, 2, 16});
      Reshape(s[2], {5, 2, 16});
    });
    bad.Add("q_width_not_whole_heads", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {5, 24});
      Reshape(s[2], {5, 24});
    });
    bad.Add("q_out_one_head", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {5, 16}); });
    bad.Add("k_4_tokens", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[1], {4, 16});
      Reshape(s[3], {4, 16});
    });
    bad.Add("table_width_rotary_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[4], {29, 12});
      Reshape(s[5], {29, 12});
    });
    bad.Add("sin_rows_differ", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[5], {30, 6}); });
    bad.Add("positions_2_rows", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[6], {2, 5}); });
    bad.Add("positions_tokens_by_3", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[6], {5, 3}); });
    bad.Add("positions_of_6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[6], {6}); });
    bad.Add("q_out_rows_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES, [](Specs &s) { s[0].layout.strides = {0, 1}; });
    bad.AddFor(rotary_dim_odd, "param_before_dtype", INFINI_STATUS_BAD_PARAM,
               [](Specs &s) { s[6].dtype = INFINI_DTYPE_F32; }, INFINI_STATUS_BAD_TENSOR_DTYPE);
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[4].dtype = INFINI_DTYPE_F16;
              Reshape(s[6], {6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[6], {6});
              s[0].layout.strides = {0, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 2}, {1, 3}}; }

  static OpClauses Clauses() {
    return {{"OP-MROPE-4", "OP-MROPE-5", "OP-MROPE-6"}, {"OP-MROPE-2"}, {"OP-MROPE-3"}, {}, {"OP-MROPE-1"}};
  }
};

INFINICTS_OP_CASES(MRoPEOp);
INFINICTS_OP_WORKSPACE_CASES(MRoPEOp);

// Perf: the multimodal rotary embedding of a layer's queries and keys, q and q_out
// [tokens, heads·128], k and k_out [tokens, kv_heads·128], at the heads of Llama-2-7B (32/32),
// Llama-3-8B (32/8) and Qwen2-7B (28/4; Qwen2-VL-7B's language model), rotary_dim 128: qk_mrope
// with Qwen2-VL's sections (16, 24, 24), qk_mrope_interleaved with Qwen3-VL's (24, 20, 20)
// interleaved; I64 positions [3, tokens], tables of 4096 positions. The accuracy cases' data
// (unrelated table angles, three different positions per token drawn from the table), checked
// whole. Costed as the tokens of one image's patches (t the image's position, h and w that
// plus the patch's row and column in a grid ceil(sqrt(tokens)) wide) would be: the rotated
// elements and the traffic of every tensor but the tables, of which only the elements those
// positions reach count (common/perf_cost.h MRopeCost).
constexpr size_t kPerfTablePositions = 4096;

// The patch grid's width: rows of ceil(sqrt(tokens)) patches.
size_t GridWidth(size_t tokens) {
  size_t width = 1;
  while (width * width < tokens) ++width;
  return width;
}

// The position row (0 t, 1 h, 2 w) of frequency i, as OP-MROPE-6 says.
size_t AxisOf(size_t i, const MRoPEOp::Problem &p) {
  if (p.interleaved) {
    if (i % 3 == 1 && i < 3 * static_cast<size_t>(p.section_h)) return 1;
    if (i % 3 == 2 && i < 3 * static_cast<size_t>(p.section_w)) return 2;
    return 0;
  }
  if (i < static_cast<size_t>(p.section_t)) return 0;
  return i < static_cast<size_t>(p.section_t + p.section_h) ? 1 : 2;
}

struct MRoPEWorkload {
  using Op = MRoPEOp;
  static std::vector<std::string> MathClauses() { return {"OP-MROPE-5", "OP-MROPE-6"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      const std::vector<std::pair<std::string, size_t>> dims = {
          {"tokens", tokens}, {"heads", l.heads}, {"kv_heads", l.kv_heads}, {"head_dim", l.head_dim}};
      return PartDims{{"qk_mrope", dims}, {"qk_mrope_interleaved", dims}};
    }, ServingModels());
  }
  static MRoPEOp::Problem At(const PerfProblem &p) {
    const bool interleaved = p.part == "qk_mrope_interleaved";
    const std::array<int, 3> sections = interleaved ? std::array<int, 3>{24, 20, 20} : std::array<int, 3>{16, 24, 24};
    const size_t dim = p.Dim("head_dim");
    MRoPEOp::Problem problem = MRoPEOp::Make(p.dtype, INFINI_DTYPE_I64, p.Dim("tokens"), p.Dim("heads"),
                                             p.Dim("kv_heads"), dim, static_cast<int>(dim), sections, interleaved);
    problem.table_len = kPerfTablePositions;
    return problem;
  }
  static PerfCost Cost(const MRoPEOp::Problem &p, const std::vector<TensorSpec> &specs) {
    const size_t width = GridWidth(p.tokens);
    // Distinct positions per row: one image position (t), the grid's rows (h) and columns (w).
    const size_t distinct[3] = {1, (p.tokens + width - 1) / width, std::min(width, p.tokens)};
    size_t table_elements = 0;
    for (size_t i = 0; i < p.Half(); ++i) table_elements += distinct[AxisOf(i, p)];
    const size_t rotated = p.tokens * (p.q_heads + p.k_heads) * p.head_size;
    return MRopeCost(rotated, table_elements, specs);
  }
};
using MRopePerf = OpPerf<MRoPEWorkload>;
INFINICTS_OP_PERF_CASES(MRopePerf);

}  // namespace
}  // namespace infinicts::op_cases
