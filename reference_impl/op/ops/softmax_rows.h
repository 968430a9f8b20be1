// The softmax family, shared by Softmax, LogSoftmax and CausalSoftmax: one row at a
// time in double, with the row's maximum subtracted before exponentiating.
#ifndef INFINICTS_REF_OP_OPS_SOFTMAX_ROWS_H
#define INFINICTS_REF_OP_OPS_SOFTMAX_ROWS_H

#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "ops/rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {

// Softmax (or log-softmax) of x[0 .. valid) into y[0 .. valid); y[valid .. length) = 0.
template <class T>
void SoftmaxRow(const T *x, ptrdiff_t x_step, T *y, ptrdiff_t y_step, size_t valid, size_t length, bool log) {
  double *scratch = RowScratch(valid);
  double max = -INFINITY;
  for (size_t j = 0; j < valid; ++j) {
    scratch[j] = LoadDouble(x[static_cast<ptrdiff_t>(j) * x_step]);
    max = std::fmax(max, scratch[j]);
  }
  // scratch holds x - max for the log form and exp(x - max) otherwise: one exp per element.
  double sum = 0;
  for (size_t j = 0; j < valid; ++j) {
    scratch[j] -= max;
    const double e = std::exp(scratch[j]);
    sum += e;
    if (!log) scratch[j] = e;
  }
  const double log_sum = std::log(sum), inverse = 1.0 / sum;
  for (size_t j = 0; j < valid; ++j) {
    y[static_cast<ptrdiff_t>(j) * y_step] = StoreDouble<T>(log ? scratch[j] - log_sum : scratch[j] * inverse);
  }
  for (size_t j = valid; j < length; ++j) y[static_cast<ptrdiff_t>(j) * y_step] = StoreDouble<T>(0.0);
}

// The vector form of SoftmaxRow for contiguous F32 rows (x may be y): F32 arithmetic
// with the sum in F64; NaN and -Inf rows behave as in SoftmaxRow. `next` (the next row's
// input, or null) and its size in bytes: fetched into the cache during the exponentials,
// so that the next row's first pass does not wait on memory.
inline void SoftmaxRowVector(const float *x, float *y, size_t valid, bool log, const void *next, size_t next_bytes) {
  const float max = simd::RowMax(x, valid);
  if (log) {
    const double sum = simd::ExpShiftedSum(x, max, nullptr, valid, next, next_bytes);
    simd::SubtractTwiceInto(x, max, static_cast<float>(std::log(sum)), y, valid, /*streaming=*/false);
  } else {
    const double sum = simd::ExpShiftedSum(x, max, y, valid, next, next_bytes);
    simd::ScaleInto(y, static_cast<float>(1.0 / sum), y, valid, /*streaming=*/false);
  }
}

// Per-thread F32 scratch of at least n floats, reused across rows and calls.
inline float *RowScratchF32(size_t n) {
  thread_local std::vector<float> scratch;
  if (scratch.size() < n) scratch.resize(n);
  return scratch.data();
}

// A contiguous F32 or F16 row through the vector kernels. F32 rows go through
// SoftmaxRowVector in y itself. F16 rows take three passes: the row's maximum (converting
// it into F32 scratch on the way), the exponentials into scratch with their sum, and the
// last step written straight to y (F16 rounding). Plain stores throughout, whatever the
// size: streaming stores stall these exp-bound rows, as they do the exp-based elementwise
// kernels (measured: bench/README.md, "Kernel choices").
template <class T>
void SoftmaxRowContiguous(const T *x, T *y, size_t valid, size_t length, bool log, const T *next) {
  const size_t next_bytes = next == nullptr ? 0 : length * sizeof(T);
  if constexpr (std::is_same_v<T, float>) {
    SoftmaxRowVector(x, y, valid, log, next, next_bytes);
    for (size_t j = valid; j < length; ++j) y[j] = 0.0f;
  } else {
    float *row = RowScratchF32(length);
    const float max = simd::F16ToF32RowMax(reinterpret_cast<const uint16_t *>(x), row, valid);
    uint16_t *out = reinterpret_cast<uint16_t *>(y);
    // F16 outputs: an F16-grade exp will do.
    if (log) {
      const double sum = simd::ExpShiftedSum(row, max, nullptr, valid, next, next_bytes, /*for_half=*/true);
      simd::SubtractTwiceInto(row, max, static_cast<float>(std::log(sum)), out, valid, /*streaming=*/false);
      for (size_t j = valid; j < length; ++j) y[j] = StoreDouble<T>(0.0);
      return;
    }
    const double sum = simd::ExpShiftedSum(row, max, row, valid, next, next_bytes, /*for_half=*/true);
    for (size_t j = valid; j < length; ++j) row[j] = 0.0f;
    simd::ScaleInto(row, static_cast<float>(1.0 / sum), out, length, /*streaming=*/false);
  }
}

// y and x: one floating dtype, one shape (for the causal form at least 2-D with
// total >= seq); y does not overlap itself.
inline infiniStatus_t CheckSoftmaxPair(const TensorLayout &y, const TensorLayout &x, bool causal) {
  if (!IsFloatDtype(y.dtype) || x.dtype != y.dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (!SameShape(y, x)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (causal && (y.ndim() < 2 || y.shape[y.ndim() - 1] < y.shape[y.ndim() - 2])) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  return INFINI_STATUS_SUCCESS;
}

struct SoftmaxPlan {
  infiniDtype_t dtype;
  RowLoop<2> rows;             // operand 0: y, operand 1: x
  size_t causal_seq_len = 0;   // > 0 for CausalSoftmax: rows are (..., seq, total)
  bool log = false;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::SoftmaxArgs device_args;  // the same rows, for the CUDA path
#endif
};

inline void RunSoftmax(const SoftmaxPlan &plan, void *y, const void *x) {
  DispatchFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const size_t total = plan.rows.length;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, f16_t>) {
      if (plan.rows.along[0] == 1 && plan.rows.along[1] == 1 && simd::Enabled()) {
        const size_t rows = plan.rows.rows.numel();
        ForEachRow(plan.rows, [&](size_t row, const Offsets<2> &offsets) {
          size_t valid = total;
          if (plan.causal_seq_len > 0) valid = total - plan.causal_seq_len + row % plan.causal_seq_len + 1;
          const T *input = static_cast<const T *>(x) + offsets[1];
          // The next row usually follows this one; where it does not, a prefetch is only a hint.
          const T *next = row + 1 < rows ? input + total : nullptr;
          SoftmaxRowContiguous(input, static_cast<T *>(y) + offsets[0], valid, total, plan.log, next);
        });
        return;
      }
    }
    ForEachRow(plan.rows, [&](size_t row, const Offsets<2> &offsets) {
      size_t valid = total;
      if (plan.causal_seq_len > 0) valid = total - plan.causal_seq_len + row % plan.causal_seq_len + 1;
      SoftmaxRow(static_cast<const T *>(x) + offsets[1], plan.rows.along[1], static_cast<T *>(y) + offsets[0],
                 plan.rows.along[0], valid, total, plan.log);
    });
  });
}

template <OpKind Kind>
class SoftmaxDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = Kind;

  SoftmaxDescriptor(const InfiniopHandle &handle, std::shared_ptr<const SoftmaxPlan> plan)
      : InfiniopDescriptor(Kind, handle), plan_(std::move(plan)) {}

  static infiniStatus_t Compute(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *y,
                                const void *x, void *stream) {
    SoftmaxDescriptor *self = nullptr;
    INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*self, workspace, workspace_size));
    std::shared_ptr<const SoftmaxPlan> plan = self->plan_;
    const size_t count = plan->rows.rows.numel() * plan->rows.length;
    INFINIOP_RETURN_IF_ERROR(CheckData({{y, count}, {x, count}}));
#ifdef INFINIOP_WITH_CUDA
    if (self->device_type == INFINI_DEVICE_NVIDIA) return cuda_rows::Softmax(*self, plan->device_args, y, x, stream);
#endif
    return Launch(*self, stream, [plan, y, x] { RunSoftmax(*plan, y, x); });
  }

 private:
  std::shared_ptr<const SoftmaxPlan> plan_;
};

// Softmax and LogSoftmax: axis in [-ndim, ndim) (negative counts from the end), else BAD_PARAM.
template <OpKind Kind>
infiniStatus_t CreateAxisSoftmax(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr, const TensorLayout *y,
                                 const TensorLayout *x, int axis, bool log) {
  return CreateDescriptor(handle, desc_ptr, {y, x},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            const int ndim = static_cast<int>(x->ndim());
                            if (axis < -ndim || axis >= ndim) return INFINI_STATUS_BAD_PARAM;
                            INFINIOP_RETURN_IF_ERROR(CheckSoftmaxPair(*y, *x, /*causal=*/false));
                            auto plan = std::make_shared<SoftmaxPlan>();
                            plan->dtype = y->dtype;
                            plan->rows = MakeRowLoop<2>({y, x}, static_cast<size_t>(axis < 0 ? axis + ndim : axis));
                            plan->log = log;
#ifdef INFINIOP_WITH_CUDA
                            plan->device_args = cuda_rows::SoftmaxArgsFor(
                                *y, *x, static_cast<size_t>(axis < 0 ? axis + ndim : axis), log);
#endif
                            made->reset(new SoftmaxDescriptor<Kind>(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_OPS_SOFTMAX_ROWS_H
