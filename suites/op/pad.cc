// Pad: torch.nn.functional.pad's constant, reflect, replicate and circular modes (spec section
// OP-PAD); `pad` holds (before, after) int pairs from x's last dim backwards.
//
// Data: x's values distinct and away from zero, the constant unlike any of them, pads on both
// sides of up to three dims (0 on some sides, the widest reflection one below the dim, circular
// as wide as the dim), so a border read from the wrong edge, a mirror that repeats the edge, a
// wrap by the wrong extent or a constant not written shows; y also runs padded and as a view, x
// transposed and walked backwards.
#include <string>
#include <utility>
#include <vector>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

enum class PadMode { kConstant, kReflect, kReplicate, kCircular };

const char *PadModeText(PadMode mode) {
  switch (mode) {
    case PadMode::kConstant: return "constant";
    case PadMode::kReflect: return "reflect";
    case PadMode::kReplicate: return "replicate";
    case PadMode::kCircular: return "circular";
  }
  return "constant";
}

}  // namespace

template <>
struct EnumNames<PadMode> {
  static std::vector<std::pair<PadMode, std::string>> All() {
    return {{PadMode::kConstant, "constant"},
            {PadMode::kReflect, "reflect"},
            {PadMode::kReplicate, "replicate"},
            {PadMode::kCircular, "circular"}};
  }
};

namespace {

struct PadProblem : Param<PadProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape = {3, 5};
  std::vector<int> pads = {1, 2};
  PadMode mode = PadMode::kConstant;
  double value = 0;
  LayoutKind y_layout = LayoutKind::kContiguous, x_layout = LayoutKind::kContiguous;

  // y's shape: x's grown by the pads (negative widths, a bad descriptor's, clamped at 0).
  Shape OutputShape() const {
    Shape out = shape;
    for (size_t j = 0; j < pads.size() / 2 && j < shape.size(); ++j) {
      const size_t d = shape.size() - 1 - j;
      const int grown = static_cast<int>(shape[d]) + pads[2 * j] + pads[2 * j + 1];
      out[d] = grown < 0 ? 0 : static_cast<size_t>(grown);
    }
    return out;
  }

  std::string Name() const {
    std::string pad_text;
    for (int v : pads) pad_text += (pad_text.empty() ? "" : "_") + std::to_string(v);
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" + PadModeText(mode) + "_pads_" +
           (pad_text.empty() ? "none" : pad_text) + (mode == PadMode::kConstant ? "_value_" + NumberName(value) : "") +
           "__" + LayoutsName({{"y", y_layout}, {"x", x_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("pads", pads);
    field("mode", mode);
    field("value", value);
    field("y", y_layout);
    field("x", x_layout);
  }
};

struct PadOp {
  using Problem = PadProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "pad";
  // The probe problem's x [3, 5] padded (1, 2) along its last dim into y [3, 8].
  static constexpr const char *kTensorRoles = "y[a,~b]=x x[a,~c]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.OutputShape())},
            {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::Pad>(std::make_tuple(AttributeArray<int>(p.pads), p.pads.size() * sizeof(int),
                                                   PadModeText(p.mode), p.value));
  }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) { FillAwayFromZero(t[1], rng, 0.25, 4.0); }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::Pad(t[1], p.pads, PadModeText(p.mode), p.value)};
  }

  static double Flops(const Problem &) { return FlopsPerElement(kSubject); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, std::vector<int> pads, PadMode mode, double value = 0) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.pads = std::move(pads);
    p.mode = mode;
    p.value = value;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {3, 5}, {1, 2}, PadMode::kConstant, -1.5); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    const Problem probe = ProbeProblem(INFINI_DTYPE_F32);
    BadDescriptorList<Problem> bad(probe);
    bad.Add("y_not_grown", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {3, 5}); });
    bad.Add("y_grown_in_the_wrong_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {6, 5}); });
    bad.Add("y_of_another_rank", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {24}); });
    const auto with_pads = [&](std::vector<int> pads, PadMode mode) { return Make(INFINI_DTYPE_F32, {3, 5}, pads, mode); };
    bad.AddFor(with_pads({}, PadMode::kConstant), "no_pads", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(with_pads({1, 2, 1}, PadMode::kConstant), "odd_pad_count", INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(with_pads({1, 1, 1, 1, 1, 1}, PadMode::kConstant), "pads_for_more_dims_than_x",
               INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    bad.AddFor(with_pads({5, 0}, PadMode::kReflect), "reflect_as_wide_as_the_dim", INFINI_STATUS_BAD_PARAM,
               [](Specs &) {});
    bad.AddFor(with_pads({0, 0, 3, 0}, PadMode::kReflect), "reflect_as_wide_as_an_outer_dim",
               INFINI_STATUS_BAD_PARAM, [](Specs &) {});
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-PAD-4"}, {"OP-PAD-1"}, {"OP-PAD-2"}, {}, {"OP-PAD-3"}}; }
};

INFINICTS_OP_CASES(PadOp);
INFINICTS_OP_WORKSPACE_CASES(PadOp);

// Perf: Llama-3-8B's hidden states [tokens, 4096] padded with constant rows up to the next multiple
// of 64 tokens (a block-aligned batch), at the cheap operators' token counts. The constant is not
// 0: a short batch's output would be mostly 0, which an output never written passes.
constexpr double kPerfPadValue = -1.5;

struct PadWorkload {
  using Op = PadOp;
  static std::vector<std::string> MathClauses() { return {"OP-PAD-4"}; }
  static std::vector<PerfProblem> Problems() {
    return TokenRowProblems("rows_to_block_of_64", RowWidth::kHidden, PerfWeight::kCheap, HalfAndSingleDtypes(),
                            {kLlama3_8B});
  }
  static PadOp::Problem At(const PerfProblem &p) {
    const size_t tokens = p.Dim("tokens");
    const int rows = static_cast<int>((tokens + 63) / 64 * 64 - tokens);
    return PadOp::Make(p.dtype, TokenRowShape(p), {0, 0, 0, rows}, PadMode::kConstant, kPerfPadValue);
  }
};
using PadPerf = OpPerf<PadWorkload>;
INFINICTS_OP_PERF_CASES(PadPerf);

}  // namespace
}  // namespace infinicts::op_cases
