// PerChannelQuantI8: each row of x [M, K] quantised to int8 with its own scale (and, with
// x_zero, its own zero point), in the F32 steps of spec section OP-INT8.
//
// Data: the rows take turns among six kinds, each aimed at a way to get it wrong:
//   - ordinary rows of differing magnitudes (a scale taken from another row shows);
//   - tie rows: the scale a power of two and every element exactly on a half-integer of it,
//     both signs (round-half-to-even, ⌊v + 0.5⌋ and truncation each miss half of them);
//   - tiny rows, whose maximum lies below 127·1e-8 (the scale floor);
//   - a row of zeros (0/0 without the floor);
//   - rows far from zero, all positive (the asymmetric zero point far below −128);
//   - rows with one outlier fifty times the rest (most values round to small integers).
// Where the exact value lies near a half, the spec accepts either neighbour (SettleTies).
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

struct PerChannelProblem : Param<PerChannelProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;  // x's
  Shape shape;                             // [M, K]
  bool asymmetric = false;                 // x_zero given
  LayoutKind x_layout = LayoutKind::kContiguous, packed_layout = LayoutKind::kContiguous;

  std::string Name() const {
    return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__" +
           LayoutsName({{"x", x_layout}, {"packed", packed_layout}}) + (asymmetric ? "__asymmetric" : "");
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("zero", asymmetric);
    field("x", x_layout);
    field("packed", packed_layout);
  }
};

enum class RowKind { kOrdinary, kTies, kTiny, kZeros, kFarFromZero, kOutlier };
constexpr int kRowKinds = 6;

// Row m of x (K elements at row-major positions m·K …), of the kind m takes in turn.
void FillRow(HostTensor &x, size_t m, bool asymmetric, Rng &rng) {
  const size_t cols = x.shape()[1];
  auto set = [&](size_t k, double v) { x.SetAt(m * cols + k, v); };
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto sign = [&] { return rng() % 2 ? 1.0 : -1.0; };
  switch (static_cast<RowKind>(m % kRowKinds)) {
    case RowKind::kOrdinary: {
      const double magnitude = std::ldexp(1.0, static_cast<int>(rng() % 7) - 3);
      for (size_t k = 0; k < cols; ++k) set(k, sign() * magnitude * (0.25 + 1.75 * unit(rng)));
      break;
    }
    case RowKind::kTies: {
      // Symmetric: max |x| = 127·2^e, so s = 2^e and x·(1/s) = j + 0.5 exactly. Asymmetric:
      // min = low·2^e, max = min + 255·2^e, so s = 2^e, z = −low − 128 and x·(1/s) + z = j + 0.5.
      const double step = std::ldexp(1.0, static_cast<int>(rng() % 9) - 6);
      const size_t ends = std::min<size_t>(cols, 2);
      if (!asymmetric) {
        for (size_t k = 0; k < cols; ++k) set(k, (static_cast<double>(rng() % 253) - 126.0 + 0.5 * sign()) * step);
        set(rng() % cols, sign() * 127.0 * step);
      } else {
        const double low = -static_cast<double>(rng() % 128);
        for (size_t k = 0; k < cols; ++k) set(k, (low + static_cast<double>(rng() % 255) + 0.5) * step);
        set(0, low * step);
        if (ends == 2) set(1, (low + 255.0) * step);
      }
      break;
    }
    case RowKind::kTiny: {
      const double top = 127e-8 * (0.1 + 0.8 * unit(rng));
      for (size_t k = 0; k < cols; ++k) set(k, sign() * top * (0.1 + 0.9 * unit(rng)));
      set(rng() % cols, sign() * top);
      break;
    }
    case RowKind::kZeros:
      for (size_t k = 0; k < cols; ++k) set(k, 0.0);
      break;
    case RowKind::kFarFromZero: {
      const double base = 1.0 + 3.0 * unit(rng), width = 0.1 + 0.9 * unit(rng);
      for (size_t k = 0; k < cols; ++k) set(k, base + width * unit(rng));
      break;
    }
    case RowKind::kOutlier: {
      for (size_t k = 0; k < cols; ++k) set(k, sign() * (0.25 + 0.75 * unit(rng)));
      set(rng() % cols, sign() * 50.0);
      break;
    }
  }
}

struct PerChannelQuantI8Op {
  using Problem = PerChannelProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "per_channel_quant_int8";
  static constexpr const char *kTensorRoles = "x_packed[m,k]:int x_scale[m,~one]:float x_zero x[m,k]:float";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    const Shape per_row = {p.shape[0], 1};
    std::vector<TensorSpec> specs = {
        {"x_packed", Role::kOutput, INFINI_DTYPE_I8, MakeLayout(p.packed_layout, p.shape)},
        {"x_scale", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout(per_row)},
        {"x_zero", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout(per_row)},
        {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, p.shape)}};
    specs[2].present = p.asymmetric;
    specs[2].optional = true;
    return specs;
  }

  static OpCalls Calls(const Problem &) { return OperatorCalls<api::PerChannelQuantI8>(); }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    for (size_t m = 0; m < p.shape[0]; ++m) FillRow(t[3], m, p.asymmetric, rng);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    oracle::Int8QuantResult r = oracle::PerChannelQuantI8(t[3], p.asymmetric);
    std::vector<HostTensor> outputs = {std::move(r.packed), std::move(r.scale)};
    if (p.asymmetric) outputs.push_back(std::move(r.zero));
    return outputs;
  }

  // Near a half the spec accepts the other neighbour too (OP-INT8).
  static std::vector<HostTensor> SettleTies(const Problem &p, const std::vector<HostTensor> &t,
                                            const std::vector<HostTensor> &expected,
                                            const std::vector<HostTensor> &got) {
    std::vector<HostTensor> settled = expected;
    settled[0] = SettleNearHalves(expected[0], got[0], oracle::PerChannelQuantI8(t[3], p.asymmetric).also_accepted);
    return settled;
  }

  static double Flops(const Problem &p) {
    return FlopsPerElement(kSubject) * static_cast<double>(NumElements(p.shape));
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() { return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32}; }
  static std::vector<infiniDtype_t> OptionalDtypes() { return {}; }

  static Problem Make(infiniDtype_t dtype, Shape shape, bool asymmetric = false) {
    Problem p;
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.asymmetric = asymmetric;
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
    // x_scale is [M, 1]: not [M], not [M, 2], not [1, M].
    bad.Add("x_scale_1d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4}); });
    bad.Add("x_scale_m_by_2", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {4, 2}); });
    bad.Add("x_scale_1_by_m", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {1, 4}); });
    bad.Add("x_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) {
      Reshape(s[0], {1, 4, 5});
      Reshape(s[3], {1, 4, 5});
    });
    const Problem asymmetric = Make(INFINI_DTYPE_F32, {4, 5}, true);
    bad.AddFor(asymmetric, "x_zero_f16", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F16; });
    bad.AddFor(asymmetric, "x_zero_m_3", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {3, 1}); });
    bad.AddFor(asymmetric, "x_zero_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
               [](Specs &s) { s[2].layout.strides = {0, 1}; });
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
    return {{"OP-PERCHANNELQUANTINT8-3", "OP-PERCHANNELQUANTINT8-4", "OP-PERCHANNELQUANTINT8-5"},
            {"OP-PERCHANNELQUANTINT8-1"},
            {"OP-PERCHANNELQUANTINT8-2"},
            {},
            {}};
  }
};

INFINICTS_OP_CASES(PerChannelQuantI8Op);
INFINICTS_OP_WORKSPACE_CASES(PerChannelQuantI8Op);

// Perf: Llama-3-8B's W8A8 activations quantised per token before each int8 Gemm: the
// attention and gate-up input [tokens, hidden] and the down projection's [tokens,
// intermediate], symmetric. Every output is checked whole.
struct PerChannelQuantI8Workload {
  using Op = PerChannelQuantI8Op;
  static std::vector<std::string> MathClauses() { return {"OP-PERCHANNELQUANTINT8-3"}; }
  static std::vector<PerfProblem> Problems() { return W8A8LayerProblems("w8a8_hidden_act", "w8a8_down_act"); }
  static PerChannelProblem At(const PerfProblem &p) { return PerChannelQuantI8Op::Make(p.dtype, TokenRowShape(p)); }
};
using PerChannelQuantI8Perf = OpPerf<PerChannelQuantI8Workload>;
INFINICTS_OP_PERF_CASES(PerChannelQuantI8Perf);

}  // namespace
}  // namespace infinicts::op_cases
