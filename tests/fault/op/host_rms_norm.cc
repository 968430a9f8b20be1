#include "op/host_rms_norm.h"

#include "op/element_values.h"
#include "op/layout_tracking.h"

namespace infinicts::fault {

std::optional<RmsNormRecord> RmsNormRecordOf(infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                                             infiniopTensorDescriptor_t w_desc, float epsilon) {
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc), w = LayoutOf(w_desc);
  if (!y || !x || !w || x->shape.empty() || !IsFloatDtype(x->dtype) || !IsFloatDtype(w->dtype)) return std::nullopt;
  return RmsNormRecord{*y, *x, *w, epsilon};
}

std::vector<ElementWrite> HostRmsNorm(const RmsNormRecord &record, void *y, const void *x, const void *w,
                                      size_t reduced, const RmsDivisor &divisor) {
  const size_t axis = record.x.shape.size() - 1;
  const std::vector<ptrdiff_t> y_rows = LineStarts(record.y, axis);
  const std::vector<ptrdiff_t> x_rows = LineStarts(record.x, axis);
  const size_t d = record.x.shape[axis];
  const ptrdiff_t y_step = record.y.strides[axis], x_step = record.x.strides[axis], w_step = record.w.strides[0];
  std::vector<ElementWrite> writes;
  writes.reserve(y_rows.size() * d);
  for (size_t row = 0; row < x_rows.size(); ++row) {
    auto x_at = [&](size_t j) {
      return LoadElement(record.x.dtype, x, x_rows[row] + static_cast<ptrdiff_t>(j) * x_step);
    };
    double sum_of_squares = 0.0;
    for (size_t j = 0; j < reduced && j < d; ++j) sum_of_squares += x_at(j) * x_at(j);
    const double row_divisor = divisor(sum_of_squares, d, record.epsilon);
    for (size_t j = 0; j < d; ++j) {
      const double value = x_at(j) * LoadElement(record.w.dtype, w, static_cast<ptrdiff_t>(j) * w_step);
      writes.push_back({y, record.y.dtype, y_rows[row] + static_cast<ptrdiff_t>(j) * y_step, value / row_divisor});
    }
  }
  return writes;
}

}  // namespace infinicts::fault
