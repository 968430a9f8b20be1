#include "common/axis_ops.h"

#include <nlohmann/json.hpp>

#include "common/row_lengths.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

size_t PositiveAxis(int axis, size_t ndim) { return static_cast<size_t>(axis < 0 ? axis + static_cast<int>(ndim) : axis); }

AxisProblem Make(const std::vector<std::string> &names, infiniDtype_t dtype, Shape shape, int axis,
                 LayoutKind out = LayoutKind::kContiguous, LayoutKind in = LayoutKind::kContiguous) {
  AxisProblem p;
  p.dtype = dtype;
  p.shape = std::move(shape);
  p.axis = axis;
  p.names = names;
  p.out_layout = out;
  p.in_layout = in;
  return p;
}

}  // namespace

std::string AxisProblem::Name() const {
  return std::string(DtypeName(dtype)) + "__" + ShapeName(shape) + "__axis_" + NumberName(axis) + "__" +
         LayoutsName({{names[0], out_layout}, {names[1], in_layout}});
}

std::vector<AxisProblem> AxisAccuracyProblems(const std::vector<std::string> &names) {
  struct ShapeAxis {
    Shape shape;
    int axis;
  };
  // A dim of 1, a prime, both axes of a matrix, the middle and (negatively) the first axis
  // of a 3-D tensor, rows of 1000 logits. Then inner axes (dims after the axis, whose
  // positions a kernel spreads over its lanes) with inner sizes of 1 and straddling a warp
  // (33) and a block (1025), a long axis over few inner positions, and a 4-D tensor.
  const ShapeAxis plain[] = {{{1, 6}, -1},       {{13}, -1},          {{7, 31}, 1},       {{7, 31}, 0},
                             {{3, 5, 7}, 1},     {{3, 5, 7}, -3},     {{4, 1000}, -1},    {{5, 7, 1}, 1},
                             {{2, 9, 33}, 1},    {{3, 4, 1025}, 1},   {{2, 1025, 3}, -2}, {{2, 3, 4, 11}, 1}};
  const std::pair<LayoutKind, LayoutKind> layout_sets[] = {{LayoutKind::kPadded, LayoutKind::kPadded},
                                                           {LayoutKind::kTransposed, LayoutKind::kTransposed},
                                                           {LayoutKind::kView, LayoutKind::kOffset},
                                                           {LayoutKind::kFlipped, LayoutKind::kContiguous}};
  std::vector<AxisProblem> problems;
  for (infiniDtype_t dtype : {INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64}) {
    for (const ShapeAxis &s : plain) problems.push_back(Make(names, dtype, s.shape, s.axis));
    for (const auto &[out, in] : layout_sets) {
      problems.push_back(Make(names, dtype, {7, 31}, 1, out, in));
      problems.push_back(Make(names, dtype, {3, 5, 7}, 1, out, in));
    }
    // A slice of an LLM vocabulary: 32000 logits per row. In F16 and BF16 most of a softmax of
    // that many values lies below the half types' absolute tolerance, so only the wider types.
    if (dtype == INFINI_DTYPE_F32 || dtype == INFINI_DTYPE_F64) problems.push_back(Make(names, dtype, {2, 32000}, -1));
  }
  // Rows straddling the kernels' block sizes (common/row_lengths.h), in F32: the lengths,
  // not the dtypes, are what these cases try. The longest also in F64: a softmax output there
  // averages 1/70001, of which F32's atol (1e-6) is 7%, so a few elements lost from the sum
  // show only in F64 (optional: a backend without it leaves that case unsupported).
  for (size_t length : kBlockStraddlingLengths) {
    problems.push_back(Make(names, INFINI_DTYPE_F32, {RowsOfLength(length), length}, -1));
    if (length > kLongestBlockRow) {
      problems.push_back(Make(names, INFINI_DTYPE_F64, {RowsOfLength(length), length}, -1));
    }
  }
  return problems;
}

AxisProblem AxisSmall(const std::vector<std::string> &names, infiniDtype_t dtype) {
  return Make(names, dtype, {4, 5}, -1);
}

std::vector<AxisProblem> AxisConformanceProblems(const std::vector<std::string> &names) {
  std::vector<AxisProblem> problems;
  for (infiniDtype_t dtype : {INFINI_DTYPE_F32, INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F64}) {
    problems.push_back(AxisSmall(names, dtype));
  }
  return problems;
}

std::vector<TensorSpec> AxisSpecs(const AxisProblem &p) {
  return {{p.names[0], Role::kOutput, p.dtype, MakeLayout(p.out_layout, p.shape)},
          {p.names[1], Role::kInput, p.dtype, MakeLayout(p.in_layout, p.shape)}};
}

void FillAxisInput(const AxisProblem &p, std::vector<HostTensor> &t, Rng &rng, double magnitude) {
  FillLargeMagnitudeRows(t[1], rng, PositiveAxis(p.axis, p.shape.size()), magnitude);
}

std::vector<BadDescriptorOf<AxisProblem>> AxisBadDescriptors(const std::vector<std::string> &names) {
  using Specs = std::vector<TensorSpec>;
  auto with_axis = [&names](int axis) {
    AxisProblem p = AxisSmall(names, INFINI_DTYPE_F32);
    p.axis = axis;
    return p;
  };
  BadDescriptorList<AxisProblem> bad(with_axis(-1));
  auto unchanged = [](Specs &) {};
  bad.AddFor(with_axis(2), "axis_2_of_2d", INFINI_STATUS_BAD_PARAM, unchanged);
  bad.AddFor(with_axis(-3), "axis_minus_3_of_2d", INFINI_STATUS_BAD_PARAM, unchanged);
  bad.AddFor(with_axis(0), "scalar_has_no_axis", INFINI_STATUS_BAD_PARAM, [](Specs &s) {
    Reshape(s[0], {});
    Reshape(s[1], {});
  });
  bad.Add("all_i32", INFINI_STATUS_BAD_TENSOR_DTYPE, [](Specs &s) {
    for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
  });
  bad.Add(names[0] + "_f16_" + names[1] + "_f32", INFINI_STATUS_BAD_TENSOR_DTYPE,
          [](Specs &s) { s[0].dtype = INFINI_DTYPE_F16; });
  bad.Add(names[0] + "_4x6", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 6}); });
  bad.Add(names[0] + "_3d", INFINI_STATUS_BAD_TENSOR_SHAPE, [](Specs &s) { Reshape(s[0], {4, 5, 1}); });
  bad.Add(names[0] + "_rows_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
          [](Specs &s) { s[0].layout.strides = {0, 1}; });
  bad.AddFor(with_axis(2), "param_before_dtype", INFINI_STATUS_BAD_PARAM,
             [](Specs &s) {
               for (auto &t : s) t.dtype = INFINI_DTYPE_I32;
             },
             INFINI_STATUS_BAD_TENSOR_DTYPE);
  bad.Add("dtype_before_shape", INFINI_STATUS_BAD_TENSOR_DTYPE,
          [](Specs &s) {
            s[0].dtype = INFINI_DTYPE_F16;
            Reshape(s[0], {4, 6});
          },
          INFINI_STATUS_BAD_TENSOR_SHAPE);
  return bad;
}

}  // namespace infinicts::op_cases
