// The fault `rms_norm_epsilon_outside_sqrt`: RMSNorm on the host as
// y = x·w / (sqrt(mean(x²)) + epsilon), in F64, stored in y's dtype. Rows whose mean square
// is near epsilon come out tens of percent off; ordinary rows barely move.
#include <cmath>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

struct RmsNormRecord {
  TensorLayout y, x, w;
  float epsilon;
};

DescriptorRecords<RmsNormRecord> rms_norm_records;

std::vector<ElementWrite> EpsilonOutsideSqrt(const RmsNormRecord &record, void *y, const void *x, const void *w) {
  const size_t axis = record.x.shape.size() - 1;
  const std::vector<ptrdiff_t> y_rows = LineStarts(record.y, axis);
  const std::vector<ptrdiff_t> x_rows = LineStarts(record.x, axis);
  const size_t d = record.x.shape[axis];
  const ptrdiff_t y_step = record.y.strides[axis], x_step = record.x.strides[axis], w_step = record.w.strides[0];
  std::vector<ElementWrite> writes;
  writes.reserve(y_rows.size() * d);
  for (size_t row = 0; row < x_rows.size(); ++row) {
    double sum_of_squares = 0.0;
    for (size_t j = 0; j < d; ++j) {
      const double value = LoadElement(record.x.dtype, x, x_rows[row] + static_cast<ptrdiff_t>(j) * x_step);
      sum_of_squares += value * value;
    }
    const double divisor = std::sqrt(sum_of_squares / static_cast<double>(d)) + record.epsilon;
    for (size_t j = 0; j < d; ++j) {
      const double value = LoadElement(record.x.dtype, x, x_rows[row] + static_cast<ptrdiff_t>(j) * x_step) *
                           LoadElement(record.w.dtype, w, static_cast<ptrdiff_t>(j) * w_step);
      writes.push_back({y, record.y.dtype, y_rows[row] + static_cast<ptrdiff_t>(j) * y_step, value / divisor});
    }
  }
  return writes;
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopRMSNormDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                              infiniopTensorDescriptor_t w_desc, float epsilon) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateRMSNormDescriptor(handle, desc_ptr, y_desc, x_desc, w_desc, epsilon);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc), w = LayoutOf(w_desc);
  if (y && x && w && IsFloatDtype(x->dtype) && IsFloatDtype(w->dtype)) {
    rms_norm_records.Put(*desc_ptr, {*y, *x, *w, epsilon});
  }
  return status;
}

infiniStatus_t RmsNormEpsilonOutsideSqrt(infiniopRMSNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                         void *y, const void *x, const void *w, void *stream) {
  auto real = [&] { return TargetOp().infiniopRMSNorm(desc, workspace, workspace_size, y, x, w, stream); };
  const auto record = desc != nullptr ? rms_norm_records.Find(desc) : std::nullopt;
  if (!record || y == nullptr || x == nullptr || w == nullptr) return real();
  return ComputeOnHostInstead(stream, [&] { return EpsilonOutsideSqrt(*record, y, x, w); }, real);
}

infiniStatus_t DestroyForgetting(infiniopRMSNormDescriptor_t desc) {
  rms_norm_records.Erase(desc);
  return TargetOp().infiniopDestroyRMSNormDescriptor(desc);
}

}  // namespace

void InstallRmsNormEpsilonOutsideSqrt(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateRMSNormDescriptor = &CreateRecorded;
  calls.infiniopRMSNorm = &RmsNormEpsilonOutsideSqrt;
  calls.infiniopDestroyRMSNormDescriptor = &DestroyForgetting;
}

}  // namespace infinicts::fault
