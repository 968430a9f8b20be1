// PerTensorDequantI8: x = x_packed · x_scale[0], the product in F32 and then rounded to x's
// dtype (spec section OP-INT8).
//
// Data: every int8 value, −128 included, among the first 256 elements of every problem that
// has as many (a kernel that reads the bytes as unsigned, or clamps at −127, shows), the rest
// uniform over the int8 range; the scale has a full F32 mantissa, so the product's rounding
// to F32 and then to a half type is exercised.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "common/flop_counts.h"
#include "common/int8_quant.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct DequantProblem : Param<DequantProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // x's
  Shape shape;
  LayoutKind x_layout = LayoutKind::kContiguous, packed_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"x", x_layout}, {"packed", packed_layout}});
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("x", x_layout);
    field("packed", packed_layout);
  }
};

struct PerTensorDequantI8Op {
  using Problem = DequantProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "per_tensor_dequant_int8";
  static constexpr const char *kTensorRoles = "x[a,b]:float x_packed[a,b]:int x_scale[~one]:float x_zero";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"x", Role::kOutput, p.dtype, MakeLayout(p.x_layout, p.shape)},
        {"x_packed", Role::kInput, INFINI_DTYPE_I8, MakeLayout(p.packed_layout, p.shape)},
        {"x_scale", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({1})},
        {"x_zero", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({1})}};
    specs[3].present = false;  // the symmetric form only (OP-INT8)
    specs[3].optional = true;
    return specs;
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::PerTensorDequantI8>(); }

  static void Fill(const Problem &, std::vector<HostTensor> &t, Rng &rng) {
    HostTensor &packed = t[1];
    FillIntegers(packed, rng, -128, 128);
    if (packed.numel() >= 256) {
      std::vector<int> every(256);
      std::iota(every.begin(), every.end(), -128);
      std::shuffle(every.begin(), every.end(), rng);
      for (size_t i = 0; i < every.size(); ++i) packed.SetAt(i, every[i]);
    }
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    const int exponent = static_cast<int>(rng() % 12) - 10;
    t[2].SetAt(0, static_cast<double>(static_cast<float>(std::ldexp(mantissa(rng), exponent))));
  }

  static std::vector<HostTensor> Expected(const Problem &, const std::vector<HostTensor> &t) {
    return {oracle::PerTensorDequantI8(t[1], t[2])};
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {}; }

  static Problem Make(infiniDtype_t dtype, Shape shape) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 5}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("x_packed_u8", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_U8; });
    bad.Add("x_scale_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F16; });
    bad.Add("x_scale_2_elements", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {2}); });
    bad.Add("x_packed_5x4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {5, 4}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F16;
              Reshape(s[1], {4, 6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PERTENSORDEQUANTINT8-3", "OP-PERTENSORDEQUANTINT8-4"},
            {"OP-PERTENSORDEQUANTINT8-1"},
            {"OP-PERTENSORDEQUANTINT8-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(PerTensorDequantI8Op);
INFINICTS_OP_WORKSPACE_CASES(PerTensorDequantI8Op);

// Perf: a Llama-3-8B W8A8 layer's int8 tensors turned back into floats, [tokens, hidden] and
// [tokens, intermediate]. Every output is checked whole.
struct PerTensorDequantI8Workload {
  using Op = PerTensorDequantI8Op;
  static std::vector<std::string> MathClauses() { return {"OP-PERTENSORDEQUANTINT8-3"}; }
  static std::vector<PerfProblem> Problems() { return W8A8LayerProblems("w8a8_hidden", "w8a8_intermediate"); }
  static DequantProblem At(const PerfProblem &p) { return PerTensorDequantI8Op::Make(p.dtype, TokenRowShape(p)); }
};
using PerTensorDequantI8Perf = OpPerf<PerTensorDequantI8Workload>;
INFINICTS_OP_PERF_CASES(PerTensorDequantI8Perf);

}  // namespace
}  // namespace infinicts::op_cases
