// CausalSoftmax over (..., seq, total) (spec section OP-CAUSALSOFTMAX): row i keeps the
// columns j <= total - seq + i, softmaxed over them; the others are 0.
//
// Data: rows at ±750 plus a spread of ±4: beyond ±745 e^x overflows or underflows even in
// double, so a softmax without max subtraction returns Inf or NaN in any precision. Square problems start with a row of one kept element and
// the rest keep few, so a mask off by one changes whole rows; total > seq (a KV cache)
// moves the diagonal.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/flop_counts.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "common/row_lengths.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct CausalSoftmaxProblem : Param<CausalSoftmaxProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape;
  LayoutKind y_layout = LayoutKind::kContiguous, x_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"y", y_layout}, {"x", x_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("y", y_layout);
    field("x", x_layout);
  }
};

constexpr double kRowMagnitude = 750.0;

struct CausalSoftmaxOp {
  using Problem = CausalSoftmaxProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "causal_softmax";
  static constexpr const char *kTensorRoles = "y[batch,seq,total]=x x[batch,seq,total]";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    // OP-CAUSALSOFTMAX: (..., seq, total) with total >= seq (total_below_seq is a descriptor's
    // fault, made by changing the shapes).
    if (p.shape.size() < 2 || p.shape[p.shape.size() - 1] < p.shape[p.shape.size() - 2]) {
      throw std::invalid_argument("causal_softmax: the shape " + ShapeText(p.shape) +
                                  " is not (..., seq, total) with total >= seq");
    }
    return {{"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, p.shape)},
            {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.shape)}};
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::CausalSoftmax>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillLargeMagnitudeRows(t[1], rng, p.shape.size() - 1, kRowMagnitude);
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::CausalSoftmax(t[1])};
  }

  static double Flops(const Problem &p) { return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape)); }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, Shape shape, LayoutKind y = LayoutKind::kContiguous,
                      LayoutKind x = LayoutKind::kContiguous) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.y_layout = y;
    p.x_layout = x;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {2, 4, 6}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {2, 4, 6}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("x_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {6});
      Reshape(s[1], {6});
    });
    bad.Add("total_below_seq", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {2, 6, 4});
      Reshape(s[1], {2, 6, 4});
    });
    bad.Add("y_2x4x7", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {2, 4, 7}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[0].dtype = INFINI_DTYPE_F16;
              Reshape(s[0], {2, 4, 7});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    bad.Add("shape_before_strides", INFINI_STATUS_BAD_TENSOR_SHAPE,
            [](Specs &s) {
              Reshape(s[1], {2, 4, 7});
              s[0].layout.strides = {0, 6, 1};
            },
            INFINI_STATUS_BAD_TENSOR_STRIDES);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {{0, 1}}; }

  static OpClauses Clauses() {
    return {{"OP-CAUSALSOFTMAX-3"}, {"OP-CAUSALSOFTMAX-1"}, {"OP-CAUSALSOFTMAX-2"}, {}, {}};
  }
};

INFINICTS_OP_CASES(CausalSoftmaxOp);
INFINICTS_OP_WORKSPACE_CASES(CausalSoftmaxOp);

// Perf: attention scores [heads, tokens, total], row i keeping the columns
// j <= total - tokens + i: decode steps (1 and 16 tokens) over a context of kPerfContext
// tokens, prefill chunks (512, 4096 tokens) square. F32 only: long rows of probabilities in
// F16 or BF16 sit below the half types' absolute tolerance. Rows at ±750 as in the accuracy
// cases. Checked whole while the scores are small, else 256 sampled elements (each the
// oracle over its row's kept prefix).
constexpr size_t kPerfContext = 512;

struct CausalSoftmaxWorkload {
  using Op = CausalSoftmaxOp;
  static constexpr bool kWholeWhileSmall = true;
  static std::vector<std::string> MathClauses() { return {"OP-CAUSALSOFTMAX-3"}; }
  static std::vector<PerfProblem> Problems() {
    return LlmProblems(PerfWeight::kHeavy, {INFINI_DTYPE_F32}, [](const LlmModel &l, size_t tokens) {
      return PartDims{
          {"attn_scores", {{"heads", l.heads}, {"seq", tokens}, {"total", std::max(tokens, kPerfContext)}}}};
    });
  }
  static CausalSoftmaxProblem At(const PerfProblem &p) {
    return CausalSoftmaxOp::Make(p.dtype, {p.Dim("heads"), p.Dim("seq"), p.Dim("total")});
  }
  static PerfElement Element(const CausalSoftmaxProblem &p) {
    return [seq = p.shape[1], total = p.shape[2]](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t row = flat / total, column = flat % total, last_kept = total - seq + row % seq;
      if (column > last_kept) return 0.0;
      // A one-row problem over the kept prefix keeps every column: the same softmax.
      const HostTensor kept = GatherElements(t[1], {1, last_kept + 1}, row * total, 1);
      return oracle::CausalSoftmax(kept).GetAt(column);
    };
  }
};
using CausalSoftmaxPerf = OpPerf<CausalSoftmaxWorkload>;
INFINICTS_OP_PERF_CASES(CausalSoftmaxPerf);

}  // namespace
}  // namespace infinicts::op_cases
