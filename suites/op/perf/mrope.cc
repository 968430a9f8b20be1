// MRoPE perf: the multimodal rotary embedding of a layer's queries and keys, q and q_out
// [tokens, heads·128], k and k_out [tokens, kv_heads·128], at the heads of Llama-2-7B (32/32),
// Llama-3-8B (32/8) and Qwen2-7B (28/4; Qwen2-VL-7B's language model), rotary_dim 128: qk_mrope
// with Qwen2-VL's sections (16, 24, 24), qk_mrope_interleaved with Qwen3-VL's (24, 20, 20)
// interleaved. The tokens are one image's patches: t the image's position, h and w that plus
// the patch's row and column in a grid ceil(sqrt(tokens)) wide (I64 positions [3, tokens]);
// tables of 4096 positions with the usual angles pos·10000^(-2i/128). Checked whole; costed as
// the rotated elements and the traffic of every tensor but the tables, of which only the
// elements the positions reach count (common/perf_cost.h MRopeCost).
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/perf_case.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

constexpr size_t kTablePositions = 4096;

struct Sections {
  int t, h, w;
  bool interleaved;
};

Sections SectionsOf(const PerfProblem &p) {
  return p.part == "qk_mrope_interleaved" ? Sections{24, 20, 20, true} : Sections{16, 24, 24, false};
}

// The patch grid's width: rows of ceil(sqrt(tokens)) patches.
size_t GridWidth(size_t tokens) {
  size_t width = 1;
  while (width * width < tokens) ++width;
  return width;
}

// The position row (0 t, 1 h, 2 w) of frequency i, as OP-MROPE-6 says.
size_t AxisOf(size_t i, const Sections &s) {
  if (s.interleaved) {
    if (i % 3 == 1 && i < 3 * static_cast<size_t>(s.h)) return 1;
    if (i % 3 == 2 && i < 3 * static_cast<size_t>(s.w)) return 2;
    return 0;
  }
  if (i < static_cast<size_t>(s.t)) return 0;
  return i < static_cast<size_t>(s.t + s.h) ? 1 : 2;
}

struct MRopePerf {
  static constexpr const char *kSubject = "mrope";
  static std::vector<std::string> MathClauses() { return {"OP-MROPE-5", "OP-MROPE-6"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kCheap, HalfAndSingleDtypes(), [](const LlmModel &l, size_t tokens) {
      const std::vector<std::pair<std::string, size_t>> dims = {
          {"tokens", tokens}, {"heads", l.heads}, {"kv_heads", l.kv_heads}, {"head_dim", l.head_dim}};
      return PartDims{{"qk_mrope", dims}, {"qk_mrope_interleaved", dims}};
    }, ServingModels());
  }
  static std::vector<TensorSpec> Specs(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens"), dim = p.Dim("head_dim");
    const Layout q = ContiguousLayout({tokens, p.Dim("heads") * dim}), k = ContiguousLayout({tokens, p.Dim("kv_heads") * dim});
    const Layout table = ContiguousLayout({kTablePositions, dim / 2});
    return {{"q_out", Role::kOutput, p.dtype, q},
            {"k_out", Role::kOutput, p.dtype, k},
            {"q", Role::kInput, p.dtype, q},
            {"k", Role::kInput, p.dtype, k},
            {"cos", Role::kInput, p.dtype, table},
            {"sin", Role::kInput, p.dtype, table},
            {"positions", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({3, tokens})}};
  }
  static OpCalls Calls(const PerfProblem &p) {
    const Sections s = SectionsOf(p);
    const int dim = static_cast<int>(p.Dim("head_dim"));
    return OperatorCalls<api::MRoPE>(std::make_tuple(dim, dim, s.t, s.h, s.w, s.interleaved));
  }
  static void Fill(const PerfProblem &p, std::vector<HostTensor> &t, Rng &rng) {
    const size_t tokens = p.Dim("tokens"), dim = p.Dim("head_dim"), width = GridWidth(tokens);
    FillAwayFromZero(t[2], rng, 0.25, 2.0);
    FillAwayFromZero(t[3], rng, 0.25, 2.0);
    for (size_t position = 0; position < kTablePositions; ++position) {
      for (size_t i = 0; i < dim / 2; ++i) {
        const double angle = static_cast<double>(position) *
                             std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
        t[4].Set({position, i}, std::cos(angle));
        t[5].Set({position, i}, std::sin(angle));
      }
    }
    const size_t start = std::uniform_int_distribution<size_t>(0, kTablePositions - width)(rng);
    for (size_t token = 0; token < tokens; ++token) {
      t[6].SetInt({0, token}, static_cast<int64_t>(start));
      t[6].SetInt({1, token}, static_cast<int64_t>(start + token / width));
      t[6].SetInt({2, token}, static_cast<int64_t>(start + token % width));
    }
  }
  static PerfCost Cost(const PerfProblem &p, const std::vector<TensorSpec> &specs) {
    const size_t tokens = p.Dim("tokens"), dim = p.Dim("head_dim"), width = GridWidth(tokens);
    // Distinct positions per row: one image position (t), the grid's rows (h) and columns (w).
    const size_t distinct[3] = {1, (tokens + width - 1) / width, std::min(width, tokens)};
    const Sections s = SectionsOf(p);
    size_t table_elements = 0;
    for (size_t i = 0; i < dim / 2; ++i) table_elements += distinct[AxisOf(i, s)];
    const size_t rotated = tokens * (p.Dim("heads") + p.Dim("kv_heads")) * dim;
    return MRopeCost(rotated, table_elements, specs);
  }
  static PerfCheck Check(const PerfProblem &p) {
    PerfCheck check;
    const Sections s = SectionsOf(p);
    const size_t dim = p.Dim("head_dim");
    check.full = [s, dim](const std::vector<HostTensor> &t) {
      const auto rotate = [&](const HostTensor &x) {
        return oracle::MRoPE(x, t[4], t[5], t[6], dim, dim, static_cast<size_t>(s.t), static_cast<size_t>(s.h),
                             static_cast<size_t>(s.w), s.interleaved);
      };
      return std::vector<HostTensor>{rotate(t[2]), rotate(t[3])};
    };
    return check;
  }
};

INFINICTS_OP_PERF_CASES(MRopePerf);

}  // namespace
}  // namespace infinicts::op_cases
