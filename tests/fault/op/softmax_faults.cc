// The softmax faults, computed on the host line by line:
//   softmax_without_max_subtraction  Softmax and CausalSoftmax take e^x / Σ e^x as they are
//                                    (in F32 for the 16-bit dtypes and F32, in F64 for F64), so
//                                    large logits overflow and small ones underflow;
//   causal_mask_off_by_one           CausalSoftmax keeps the columns j <= total - seq + i + 1;
//   softmax_inner_axis_one_warp      Softmax over an axis with dims after it runs one warp of 32
//                                    lanes across the inner positions and never loops, so the
//                                    lines at inner position 32 and later stay unwritten.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

struct SoftmaxLayouts {
  TensorLayout y, x;
  size_t axis;
};

DescriptorRecords<SoftmaxLayouts> softmax_layouts;         // Softmax descriptors
DescriptorRecords<SoftmaxLayouts> causal_softmax_layouts;  // CausalSoftmax descriptors (axis: the last)

// How many leading elements of line `line` take part; the rest become 0. A line that keeps
// none is left as it was (unwritten).
using KeptCount = std::function<size_t(size_t line)>;

template <class Real>
std::vector<ElementWrite> SoftmaxLines(const SoftmaxLayouts &layouts, void *y, const void *x, bool subtract_max,
                                       const KeptCount &kept_count) {
  const std::vector<ptrdiff_t> y_lines = LineStarts(layouts.y, layouts.axis);
  const std::vector<ptrdiff_t> x_lines = LineStarts(layouts.x, layouts.axis);
  const size_t length = layouts.x.shape[layouts.axis];
  const ptrdiff_t y_step = layouts.y.strides[layouts.axis], x_step = layouts.x.strides[layouts.axis];
  std::vector<ElementWrite> writes;
  writes.reserve(y_lines.size() * length);
  std::vector<Real> exps(length);
  for (size_t line = 0; line < x_lines.size(); ++line) {
    const size_t kept = std::min(kept_count(line), length);
    if (kept == 0) {
      for (size_t j = 0; j < length; ++j) {
        const ptrdiff_t at = y_lines[line] + static_cast<ptrdiff_t>(j) * y_step;
        writes.push_back({y, layouts.y.dtype, at, LoadElement(layouts.y.dtype, y, at)});
      }
      continue;
    }
    Real max = -INFINITY;
    for (size_t j = 0; j < kept; ++j) {
      exps[j] = static_cast<Real>(LoadElement(layouts.x.dtype, x, x_lines[line] + static_cast<ptrdiff_t>(j) * x_step));
      max = std::max(max, exps[j]);
    }
    Real sum = 0;
    for (size_t j = 0; j < kept; ++j) {
      exps[j] = std::exp(subtract_max ? exps[j] - max : exps[j]);
      sum += exps[j];
    }
    for (size_t j = 0; j < length; ++j) {
      const double value = j < kept ? static_cast<double>(exps[j] / sum) : 0.0;
      writes.push_back({y, layouts.y.dtype, y_lines[line] + static_cast<ptrdiff_t>(j) * y_step, value});
    }
  }
  return writes;
}

std::vector<ElementWrite> HostSoftmax(const SoftmaxLayouts &layouts, void *y, const void *x, bool subtract_max,
                                      const KeptCount &kept_count) {
  if (layouts.y.dtype == INFINI_DTYPE_F64) return SoftmaxLines<double>(layouts, y, x, subtract_max, kept_count);
  return SoftmaxLines<float>(layouts, y, x, subtract_max, kept_count);
}

// Lines of a causal softmax run along the last dim, the row index i fastest among the others.
KeptCount CausalKept(const SoftmaxLayouts &layouts, size_t extra_columns) {
  const size_t ndim = layouts.x.shape.size();
  const size_t seq = layouts.x.shape[ndim - 2], total = layouts.x.shape[ndim - 1];
  return [seq, total, extra_columns](size_t line) { return total - seq + line % seq + 1 + extra_columns; };
}

infiniStatus_t CreateSoftmaxRecorded(infiniopHandle_t handle, infiniopSoftmaxDescriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc, int axis) {
  const infiniStatus_t status = TargetOp().infiniopCreateSoftmaxDescriptor(handle, desc_ptr, y_desc, x_desc, axis);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc);
  if (y && x && IsFloatDtype(x->dtype)) {
    const int ndim = static_cast<int>(x->shape.size());
    softmax_layouts.Put(*desc_ptr, {*y, *x, static_cast<size_t>(axis < 0 ? axis + ndim : axis)});
  }
  return status;
}

infiniStatus_t CreateCausalSoftmaxRecorded(infiniopHandle_t handle, infiniopCausalSoftmaxDescriptor_t *desc_ptr,
                                           infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateCausalSoftmaxDescriptor(handle, desc_ptr, y_desc, x_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc);
  if (y && x && IsFloatDtype(x->dtype)) causal_softmax_layouts.Put(*desc_ptr, {*y, *x, x->shape.size() - 1});
  return status;
}

infiniStatus_t DestroySoftmaxForgetting(infiniopSoftmaxDescriptor_t desc) {
  softmax_layouts.Erase(desc);
  return TargetOp().infiniopDestroySoftmaxDescriptor(desc);
}

infiniStatus_t DestroyCausalSoftmaxForgetting(infiniopCausalSoftmaxDescriptor_t desc) {
  causal_softmax_layouts.Erase(desc);
  return TargetOp().infiniopDestroyCausalSoftmaxDescriptor(desc);
}

infiniStatus_t SoftmaxInnerAxisOneWarp(infiniopSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *y, const void *x, void *stream) {
  auto real = [&] { return TargetOp().infiniopSoftmax(desc, workspace, workspace_size, y, x, stream); };
  const auto layouts = desc != nullptr ? softmax_layouts.Find(desc) : std::nullopt;
  if (!layouts || y == nullptr || x == nullptr) return real();
  size_t inner = 1;  // LineStarts counts lines row-major, so the inner position runs fastest
  for (size_t d = layouts->axis + 1; d < layouts->x.shape.size(); ++d) inner *= layouts->x.shape[d];
  constexpr size_t kWarp = 32;
  const KeptCount first_warp = [inner](size_t line) { return line % inner < kWarp ? SIZE_MAX : 0; };
  return ComputeOnHostInstead(stream, [&] { return HostSoftmax(*layouts, y, x, true, first_warp); }, real);
}

infiniStatus_t SoftmaxWithoutMax(infiniopSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                 const void *x, void *stream) {
  auto real = [&] { return TargetOp().infiniopSoftmax(desc, workspace, workspace_size, y, x, stream); };
  const auto layouts = desc != nullptr ? softmax_layouts.Find(desc) : std::nullopt;
  if (!layouts || y == nullptr || x == nullptr) return real();
  const KeptCount whole_line = [](size_t) { return SIZE_MAX; };
  return ComputeOnHostInstead(stream, [&] { return HostSoftmax(*layouts, y, x, false, whole_line); }, real);
}

// CausalSoftmax on the host with or without the max subtraction, keeping extra columns.
infiniStatus_t HostCausalSoftmax(infiniopCausalSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                 void *y, const void *x, void *stream, bool subtract_max, size_t extra_columns) {
  auto real = [&] { return TargetOp().infiniopCausalSoftmax(desc, workspace, workspace_size, y, x, stream); };
  const auto layouts = desc != nullptr ? causal_softmax_layouts.Find(desc) : std::nullopt;
  if (!layouts || y == nullptr || x == nullptr) return real();
  const KeptCount kept = CausalKept(*layouts, extra_columns);
  return ComputeOnHostInstead(stream, [&] { return HostSoftmax(*layouts, y, x, subtract_max, kept); }, real);
}

infiniStatus_t CausalSoftmaxWithoutMax(infiniopCausalSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *y, const void *x, void *stream) {
  return HostCausalSoftmax(desc, workspace, workspace_size, y, x, stream, false, 0);
}

infiniStatus_t CausalSoftmaxMaskOffByOne(infiniopCausalSoftmaxDescriptor_t desc, void *workspace,
                                         size_t workspace_size, void *y, const void *x, void *stream) {
  return HostCausalSoftmax(desc, workspace, workspace_size, y, x, stream, true, 1);
}

void RecordSoftmaxLayouts(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSoftmaxDescriptor = &CreateSoftmaxRecorded;
  calls.infiniopDestroySoftmaxDescriptor = &DestroySoftmaxForgetting;
}

void RecordCausalSoftmaxLayouts(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateCausalSoftmaxDescriptor = &CreateCausalSoftmaxRecorded;
  calls.infiniopDestroyCausalSoftmaxDescriptor = &DestroyCausalSoftmaxForgetting;
}

}  // namespace

void InstallSoftmaxWithoutMaxSubtraction(OpTable &calls) {
  RecordCausalSoftmaxLayouts(calls);
  RecordSoftmaxLayouts(calls);
  calls.infiniopSoftmax = &SoftmaxWithoutMax;
  calls.infiniopCausalSoftmax = &CausalSoftmaxWithoutMax;
}
INFINICTS_FAULT(OpTable, "softmax_without_max_subtraction",
                "Softmax and CausalSoftmax compute e^x / sum e^x without subtracting the max",
                InstallSoftmaxWithoutMaxSubtraction);

void InstallSoftmaxInnerAxisOneWarp(OpTable &calls) {
  RecordSoftmaxLayouts(calls);
  calls.infiniopSoftmax = &SoftmaxInnerAxisOneWarp;
}
INFINICTS_FAULT(OpTable, "softmax_inner_axis_one_warp",
                "Softmax over an axis with dims after it leaves the lines at inner position 32 and later unwritten",
                InstallSoftmaxInnerAxisOneWarp);

void InstallCausalMaskOffByOne(OpTable &calls) {
  RecordCausalSoftmaxLayouts(calls);
  calls.infiniopCausalSoftmax = &CausalSoftmaxMaskOffByOne;
}
INFINICTS_FAULT(OpTable, "causal_mask_off_by_one",
                "CausalSoftmax keeps the columns j <= total - seq + i + 1",
                InstallCausalMaskOffByOne);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// fault-detection: softmax_without_max_subtraction SUITE op TIMEOUT 30
// fault-detection:   FILTER op.softmax.* op.causal_softmax.* EXPECT op.softmax.accuracy/* op.causal_softmax.accuracy/*
// The inner axes with 32 inner positions or more; 7x31 over axis 0 has 31, 3x5x7 over axis 0 35.
// fault-detection: softmax_inner_axis_one_warp SUITE op TIMEOUT 30 FILTER op.softmax.* ONLY EXPECT
// fault-detection:   op.softmax.accuracy/matches_oracle/*/3x5x7/axis_m3/*
// fault-detection:   op.softmax.accuracy/matches_oracle/*/2x9x33/axis_1/*
// fault-detection:   op.softmax.accuracy/matches_oracle/*/3x4x1025/axis_1/*
// fault-detection:   op.softmax.accuracy/matches_oracle/*/2x3x4x11/axis_1/*
// Every shape with seq > 1 (with seq = 1 the only row keeps every column either way).
// fault-detection: causal_mask_off_by_one SUITE op TIMEOUT 30 FILTER op.causal_softmax.* EXPECT
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/*/5x5/*
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/*/7x13/*
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/*/3x7x7/*
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/*/32x7x135/*
// fault-detection:   op.causal_softmax.accuracy/matches_oracle/*/64x64/*
