// PerTensorQuantI8: x quantised to int8 with one scale, given (is_static) or found as
// max|x| / 127 (dynamic), in the F32 steps of spec section OP-INT8.
//
// Data, in two kinds (the problem's `ties`):
//   - ties (the default): the scale a power of two (given, or found from a maximum of 127·2^e),
//     about a third of the elements exactly on half-integers of it, both signs (round-half-to-
//     even, ⌊v + 0.5⌋ and truncation each miss half of them); static problems add elements
//     from 127.5 to 1000 scales out, which must saturate at 127 and −127 (a clamp at −128, or
//     an int8 conversion that wraps, shows);
//   - any scale: a scale with a full mantissa and ordinary values, where x·(1/s) is rarely
//     exact (near a half the spec accepts either neighbour: SettleTies).
// The dynamic form's x_scale starts at 0, as the spec says the caller passes it.
#include <cmath>
#include <random>

#include "common/flop_counts.h"
#include "common/int8_quant.h"
#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

struct PerTensorProblem : Param<PerTensorProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // x's
  Shape shape;
  bool is_static = true;
  bool ties = true;
  LayoutKind x_layout = LayoutKind::kContiguous, packed_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"x", x_layout}, {"packed", packed_layout}}) + (is_static ? "__static" : "__dynamic") +
           (ties ? "__ties" : "__any_scale");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("static", is_static);
    field("ties", ties);
    field("x", x_layout);
    field("packed", packed_layout);
  }
};

// x's elements (row-major) for `scale`: ties, saturating values (static only) and ordinary ones.
void FillAgainstScale(HostTensor &x, const PerTensorProblem &p, double scale, Rng &rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto sign = [&] { return rng() % 2 ? 1.0 : -1.0; };
  for (size_t i = 0; i < x.numel(); ++i) {
    const uint64_t kind = p.ties ? rng() % 6 : 5;
    double v;
    if (kind < 2) {
      v = (static_cast<double>(rng() % 253) - 126.0 + 0.5 * sign()) * scale;  // a tie
    } else if (kind == 2 && p.is_static) {
      v = sign() * (127.5 + 872.5 * unit(rng)) * scale;  // saturates
    } else {
      v = sign() * (0.5 + 126.0 * unit(rng)) * scale;
    }
    x.SetAt(i, v);
  }
}

struct PerTensorQuantI8Op {
  using Problem = PerTensorProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "per_tensor_quant_int8";
  static constexpr const char *kTensorRoles = "x_packed[a,b]:int x_scale[~one]:float x_zero x[a,b]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"x_packed", Role::kOutput, INFINI_DTYPE_I8, MakeLayout(p.packed_layout, p.shape)},
        {"x_scale", p.is_static ? Role::kInput : Role::kInOut, INFINI_DTYPE_F32, ContiguousLayout({1})},
        {"x_zero", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({1})},
        {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.shape)}};
    specs[2].present = false;  // the symmetric form only (OP-INT8)
    specs[2].optional = true;
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    return OperatorCalls<api::PerTensorQuantI8>(std::tuple<>(), std::make_tuple(p.is_static));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    const int exponent = static_cast<int>(rng() % 9) - 6;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double scale = p.ties ? std::ldexp(1.0, exponent)
                                : static_cast<double>(static_cast<float>(std::ldexp(1.0 + unit(rng), exponent)));
    FillAgainstScale(t[3], p, scale, rng);
    if (p.is_static) {
      t[1].SetAt(0, scale);
    } else {
      t[3].SetAt(rng() % t[3].numel(), (rng() % 2 ? 127.0 : -127.0) * scale);  // max|x| = 127·scale
      t[1].SetAt(0, 0.0);
    }
  }

  static oracle::Int8QuantResult Oracle(const Problem &p, const std::vector<HostTensor> &t) {
    return oracle::PerTensorQuantI8(t[3], {1}, p.is_static ? &t[1] : nullptr);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::Int8QuantResult r = Oracle(p, t);
    std::vector<HostTensor> outputs = {std::move(r.packed)};
    if (!p.is_static) outputs.push_back(std::move(r.scale));
    return outputs;
  }

  // Near a half the spec accepts the other neighbour too (OP-INT8).
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected,
                                            const std::vector<HostTensor> &got) {
    std::vector<HostTensor> settled = expected;
    settled[0] = SettleNearHalves(expected[0], got[0], Oracle(p, t).also_accepted);
    return settled;
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {}; }

  static Problem Make(infiniDtype_t dtype, Shape shape, bool is_static = true, bool ties = true) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.is_static = is_static;
    p.ties = ties;
    return p;
  }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Make(dtype, {4, 5}); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Make(INFINI_DTYPE_F32, {4, 5}));
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("x_packed_u8", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[0].dtype = INFINI_DTYPE_U8; });
    bad.Add("x_scale_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[1].dtype = INFINI_DTYPE_F16; });
    bad.Add("x_scale_2_elements", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {2}); });
    bad.Add("x_packed_5x4", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {5, 4}); });
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[1].dtype = INFINI_DTYPE_F16;
              Reshape(s[0], {4, 6});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() {
    return {{"OP-PERTENSORQUANTINT8-3", "OP-PERTENSORQUANTINT8-4", "OP-PERTENSORQUANTINT8-5"},
            {"OP-PERTENSORQUANTINT8-1"},
            {"OP-PERTENSORQUANTINT8-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(PerTensorQuantI8Op);
INFINICTS_OP_WORKSPACE_CASES(PerTensorQuantI8Op);

// Perf: Llama-3-8B's W8A8 activations quantised with one scale found over the tensor
// (dynamic), the attention and gate-up input [tokens, hidden] and the down projection's
// [tokens, intermediate]. Every output is checked whole.
struct PerTensorQuantI8Workload {
  using Op = PerTensorQuantI8Op;
  static std::vector<std::string> MathClauses() { return {"OP-PERTENSORQUANTINT8-4"}; }
  static std::vector<PerfProblem> Problems() { return W8A8LayerProblems("w8a8_hidden_act", "w8a8_down_act"); }
  static PerTensorProblem At(const PerfProblem &p) {
    return PerTensorQuantI8Op::Make(p.dtype, TokenRowShape(p), false, false);
  }
};
using PerTensorQuantI8Perf = OpPerf<PerTensorQuantI8Workload>;
INFINICTS_OP_PERF_CASES(PerTensorQuantI8Perf);

}  // namespace
}  // namespace infinicts::op_cases
