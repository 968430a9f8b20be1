// Conv: n-d cross-correlation of x (N, Cin, d...) with w (Cout, Cin, k...) plus an optional
// bias, with pads, strides and dilations (spec section OP-CONV).
//
// Data: dyadic values (k/4) whose products and sums are exact in fp64 and in an F32
// accumulator. Problems cover 1-D, 2-D and 3-D, asymmetric kernels, pads that reach past
// the input, strides and dilations above 1 (per dim), 1x1 and patch-embedding kernels, NULL
// attribute arrays (meaning 0, 1, 1), with and without bias, and x and w in other layouts.
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/layouts.h"
#include "common/op_cases.h"
#include "common/op_perf.h"
#include "oracle/oracles.h"

namespace infinicts::op_cases {
namespace {

template <class T>
std::string ListName(const std::vector<T> &values) {
  std::string name;
  for (size_t i = 0; i < values.size(); ++i) name += (i ? "x" : "") + std::to_string(values[i]);
  return name;
}

struct ConvProblem : Param<ConvProblem> {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  size_t batch = 1, in_channels = 1, out_channels = 1;
  std::vector<size_t> input, kernel;  // spatial dims
  std::vector<size_t> pads;           // empty: pass NULL (all 0)
  std::vector<ptrdiff_t> strides;     // empty: pass NULL (all 1)
  std::vector<size_t> dilations;      // empty: pass NULL (all 1)
  bool has_bias = true;
  LayoutKind x_layout = LayoutKind::kContiguous, w_layout = LayoutKind::kContiguous,
             y_layout = LayoutKind::kContiguous;
  size_t n_override = 0;  // 0: n is the number of spatial dims; else the n passed (a bad one)

  size_t n() const { return n_override ? n_override : input.size(); }
  size_t Pad(size_t i) const { return pads.empty() ? 0 : pads[i]; }
  // Shapes of a problem with a bad stride or dilation (refused anyway) are those of 1.
  size_t Stride(size_t i) const { return strides.empty() || strides[i] < 1 ? 1 : static_cast<size_t>(strides[i]); }
  size_t Dilation(size_t i) const { return dilations.empty() || dilations[i] == 0 ? 1 : dilations[i]; }
  // Throws for a problem with no output shape: lists of other ranks than the input's, or a
  // dilated kernel wider than the padded input (the extent would wrap below zero).
  std::vector<size_t> Output() const {
    auto check_rank = [&](const char *what, size_t rank, bool may_be_null) {
      if (rank != input.size() && !(may_be_null && rank == 0)) {
        throw std::invalid_argument(std::string("conv: ") + what + " has " + std::to_string(rank) +
                                    " entries, the input " + std::to_string(input.size()) + " spatial dims");
      }
    };
    check_rank("kernel", kernel.size(), false);
    check_rank("pads", pads.size(), true);
    check_rank("strides", strides.size(), true);
    check_rank("dilations", dilations.size(), true);
    std::vector<size_t> out;
    for (size_t i = 0; i < input.size(); ++i) {
      const size_t reach = Dilation(i) * (kernel[i] == 0 ? 0 : kernel[i] - 1) + 1;
      if (kernel[i] == 0 || input[i] + 2 * Pad(i) < reach) {
        throw std::invalid_argument("conv: the kernel reaches past the padded input in spatial dim " +
                                    std::to_string(i));
      }
      out.push_back((input[i] + 2 * Pad(i) - reach) / Stride(i) + 1);
    }
    return out;
  }

  std::string Name() const {
    std::string name = std::string(DtypeName(dtype)) + "__" + std::to_string(input.size()) + "d_n" +
                       std::to_string(batch) + "_cin" + std::to_string(in_channels) + "_cout" +
                       std::to_string(out_channels) + "_in" + ListName(input) + "_k" + ListName(kernel) + "__";
    name += pads.empty() ? "pads_null" : "pads_" + ListName(pads);
    name += strides.empty() ? "_strides_null" : "_strides_" + ListName(strides);
    name += dilations.empty() ? "_dilations_null" : "_dilations_" + ListName(dilations);
    name += std::string(has_bias ? "__bias" : "__no_bias") + "__" +
            LayoutsName({{"y", y_layout}, {"x", x_layout}, {"w", w_layout}});
    return name;
  }
  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field("batch", batch);
    field("cin", in_channels);
    field("cout", out_channels);
    field("input", input);
    field("kernel", kernel);
    // Empty lists (NULL arrays) read and write as "none".
    field("pads", pads);
    field("strides", strides);
    field("dilations", dilations);
    field("bias", has_bias);
    field("y", y_layout);
    field("x", x_layout);
    field("w", w_layout);
    field("n", n_override);
  }
};

Shape Joined(std::vector<size_t> front, const std::vector<size_t> &back) {
  front.insert(front.end(), back.begin(), back.end());
  return front;
}

struct ConvOp {
  using Problem = ConvProblem;
  using BadDescriptor = BadDescriptorOf<Problem>;
  static constexpr const char *kSubject = "conv";
  static constexpr const char *kTensorRoles =
      "y[batch,out_channels,~height,~width]=x x[batch,in_channels,_,_] "
      "w[out_channels,in_channels,_,_]=x b[out_channels]=x";

  static std::vector<TensorSpec> Specs(const Problem &p) {
    std::vector<TensorSpec> specs = {
        {"y", Role::kOutput, p.dtype, MakeLayout(p.y_layout, Joined({p.batch, p.out_channels}, p.Output()))},
        {"x", Role::kInput, p.dtype, MakeLayout(p.x_layout, Joined({p.batch, p.in_channels}, p.input))},
        {"w", Role::kInput, p.dtype, MakeLayout(p.w_layout, Joined({p.out_channels, p.in_channels}, p.kernel))},
        {"b", Role::kInput, p.dtype, ContiguousLayout({p.out_channels})}};
    specs[3].present = p.has_bias;
    specs[3].optional = true;
    return specs;
  }

  static OpCalls Calls(const Problem &p) {
    // The create call takes the attribute arrays as void *; these copies live in the calls.
    return OperatorCalls<api::Conv>(std::make_tuple(AttributeArray(p.pads), AttributeArray(p.strides),
                                                    AttributeArray(p.dilations), p.n()));
  }

  static void Fill(const Problem &p, std::vector<HostTensor> &t, Rng &rng) {
    FillDyadic(t[1], rng, -8, 8, 2);
    FillDyadic(t[2], rng, -8, 8, 2);
    if (p.has_bias) FillDyadic(t[3], rng, -16, 16, 2);
  }

  static std::vector<HostTensor> Expected(const Problem &p, const std::vector<HostTensor> &t) {
    return {oracle::Conv(t[1], t[2], p.has_bias ? &t[3] : nullptr, p.pads, p.strides, p.dilations)};
  }

  static double Flops(const Problem &p) {
    const std::vector<size_t> output = p.Output();
    const size_t outputs = std::accumulate(output.begin(), output.end(), size_t{1}, std::multiplies<>());
    const size_t taps = std::accumulate(p.kernel.begin(), p.kernel.end(), size_t{1}, std::multiplies<>());
    return 2.0 * static_cast<double>(p.batch * p.out_channels * outputs * p.in_channels * taps);
  }

  static std::vector<infiniDtype_t> AdmittedDtypes() {
    return {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
  }

  static Problem Make(infiniDtype_t dtype, size_t batch, size_t cin, size_t cout, std::vector<size_t> input,
                      std::vector<size_t> kernel, std::vector<size_t> pads, std::vector<ptrdiff_t> strides,
                      std::vector<size_t> dilations, bool has_bias) {
    Problem p;
    p.dtype = dtype;
    p.batch = batch;
    p.in_channels = cin;
    p.out_channels = cout;
    p.input = std::move(input);
    p.kernel = std::move(kernel);
    p.pads = std::move(pads);
    p.strides = std::move(strides);
    p.dilations = std::move(dilations);
    p.has_bias = has_bias;
    return p;
  }

  static Problem Small(infiniDtype_t dtype) { return Make(dtype, 2, 3, 4, {6, 5}, {3, 2}, {1, 0}, {2, 1}, {1, 1}, true); }

  static Problem ProbeProblem(infiniDtype_t dtype) { return Small(dtype); }

  static std::vector<BadDescriptor> BadDescriptors() {
    using Specs = std::vector<TensorSpec>;
    BadDescriptorList<Problem> bad(Small(INFINI_DTYPE_F32));
    auto unchanged = [](Specs &) {};
    Problem n_zero = Small(INFINI_DTYPE_F32);
    n_zero.n_override = 0;
    n_zero.input.clear();  // n = 0 spatial dims
    n_zero.kernel.clear();
    n_zero.pads.clear();
    n_zero.strides.clear();
    n_zero.dilations.clear();
    Problem n_31 = Small(INFINI_DTYPE_F32);  // NULL arrays: nothing to read past
    n_31.n_override = 31;
    n_31.pads.clear();
    n_31.strides.clear();
    n_31.dilations.clear();
    Problem stride_0 = Small(INFINI_DTYPE_F32);
    stride_0.strides = {0, 1};
    Problem stride_negative = Small(INFINI_DTYPE_F32);
    stride_negative.strides = {1, -1};
    Problem dilation_0 = Small(INFINI_DTYPE_F32);
    dilation_0.dilations = {1, 0};
    bad.AddFor(n_zero, "n_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(n_31, "n_31", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(stride_0, "stride_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(stride_negative, "stride_negative", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.AddFor(dilation_0, "dilation_0", INFINI_STATUS_BAD_PARAM, unchanged);
    bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
      for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
    });
    bad.Add("b_f64_x_f32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) { s[3].dtype = INFINI_DTYPE_F64; });
    bad.Add("y_spatial_wrong", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {2, 4, 3, 5}); });
    bad.Add("w_in_channels_wrong", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4, 2, 3, 2}); });
    bad.Add("y_out_channels_wrong", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {2, 5, 3, 4}); });
    bad.Add("bias_length_wrong", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[3], {5}); });
    bad.Add("x_missing_a_dim", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[1], {2, 3, 6}); });
    bad.Add("kernel_past_padded_input", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[2], {4, 3, 9, 2}); });
    bad.Add("y_channels_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
            [](Specs &s) { s[0].layout.strides = {48, 0, 4, 1}; });
    bad.AddFor(stride_0, "param_before_dtype", INFINI_STATUS_BAD_PARAM, [](Specs &s) { s[2].dtype = INFINI_DTYPE_F16; },
               INFINI_STATUS_BAD_TENSOR_DTYPE);
    bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
            [](Specs &s) {
              s[2].dtype = INFINI_DTYPE_F16;
              Reshape(s[3], {5});
            },
            INFINI_STATUS_BAD_TENSOR_SHAPE);
    return bad;
  }

  static std::vector<AliasPair> InPlacePairs() { return {}; }

  static OpClauses Clauses() { return {{"OP-CONV-4", "OP-CONV-5"}, {"OP-CONV-2"}, {"OP-CONV-3"}, {}, {"OP-CONV-1"}}; }
};

INFINICTS_OP_CASES(ConvOp);
INFINICTS_OP_WORKSPACE_CASES(ConvOp);

// Perf: ResNet-50's conv2_x 3×3 convolution, 64 → 64 channels on 56×56, batch 1, pad 1,
// stride 1, with bias (y and x [1, 64, 56, 56], w [64, 64, 3, 3]). The accuracy cases' dyadic
// data; 256 sampled elements, each the oracle over its zero-padded receptive field.
struct ConvWorkload {
  using Op = ConvOp;
  static std::vector<std::string> MathClauses() { return {"OP-CONV-4", "OP-CONV-5"}; }

  static std::vector<PerfProblem> Problems() {
    constexpr size_t kChannels = 64, kSide = 56, kKernel = 3, kPad = 1;
    std::vector<PerfProblem> problems;
    for (infiniDtype_t dtype : PerfDtypes(HalfAndSingleDtypes())) {
      PerfProblem p;
      p.dtype = dtype;
      p.model = "resnet50";
      p.part = "conv2_3x3";
      p.dims = {{"batch", 1}, {"c_in", kChannels}, {"c_out", kChannels}, {"h", kSide}, {"w", kSide},
                {"kernel", kKernel}, {"pad", kPad}};
      problems.push_back(p);
    }
    return problems;
  }

  static ConvProblem At(const PerfProblem &p) {
    const size_t kernel = p.Dim("kernel"), pad = p.Dim("pad");
    return ConvOp::Make(p.dtype, p.Dim("batch"), p.Dim("c_in"), p.Dim("c_out"), {p.Dim("h"), p.Dim("w")},
                        {kernel, kernel}, {pad, pad}, {1, 1}, {1, 1}, true);
  }

  // y[n, o, r, c] of a 2-D problem: the oracle over x's receptive field of it, gathered into a
  // [1, C_in, k_h, k_w] patch with zeros where the padding is, and w's filter o.
  static PerfElement Element(const ConvProblem &p) {
    if (p.input.size() != 2) throw std::logic_error("conv: the sampled perf check takes 2-D problems");
    return [p, output = p.Output()](const std::vector<HostTensor> &t, size_t, size_t flat) {
      const size_t column = flat % output[1], row = flat / output[1] % output[0];
      const size_t out_channel = flat / (output[0] * output[1]) % p.out_channels;
      const size_t n = flat / (output[0] * output[1] * p.out_channels);
      // Where tap k of output index o reads x along spatial dim d (outside it: the padding).
      auto source = [&p](size_t o, size_t k, size_t d) {
        return static_cast<ptrdiff_t>(o * p.Stride(d) + k * p.Dilation(d)) - static_cast<ptrdiff_t>(p.Pad(d));
      };
      HostTensor patch(t[1].dtype(), Shape{1, p.in_channels, p.kernel[0], p.kernel[1]});
      HostTensor filter(t[2].dtype(), Shape{1, p.in_channels, p.kernel[0], p.kernel[1]});
      for (size_t c = 0; c < p.in_channels; ++c) {
        for (size_t i = 0; i < p.kernel[0]; ++i) {
          for (size_t j = 0; j < p.kernel[1]; ++j) {
            const ptrdiff_t r = source(row, i, 0), s = source(column, j, 1);
            const bool inside = r >= 0 && s >= 0 && r < static_cast<ptrdiff_t>(p.input[0]) &&
                                s < static_cast<ptrdiff_t>(p.input[1]);
            patch.Set({0, c, i, j}, inside ? t[1].Get({n, c, static_cast<size_t>(r), static_cast<size_t>(s)}) : 0.0);
            filter.Set({0, c, i, j}, t[2].Get({out_channel, c, i, j}));
          }
        }
      }
      HostTensor bias(t[3].dtype(), Shape{1});
      if (p.has_bias) bias.Set({0}, t[3].Get({out_channel}));
      return oracle::Conv(patch, filter, p.has_bias ? &bias : nullptr, {}, {}, {}).GetAt(0);
    };
  }
};
using ConvPerf = OpPerf<ConvWorkload>;
INFINICTS_OP_PERF_CASES(ConvPerf);

}  // namespace
}  // namespace infinicts::op_cases
