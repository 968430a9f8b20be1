// RMSNorm over the last dim, in double: y = x * w / sqrt(mean(x^2) + epsilon).
// w may be F32 (or the other half type) when x and y are F16/BF16.
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "infiniop.h"
#include "core/simd.h"
#include "ops/rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct RMSNormPlan {
  infiniDtype_t dtype, weight_dtype;
  RowLoop<2> rows;  // operand 0: y, operand 1: x
  ptrdiff_t weight_step;
  double epsilon;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::RMSNormArgs device_args;  // the same rows, for the CUDA path
#endif
};

bool WeightDtypeFits(infiniDtype_t data, infiniDtype_t weight) {
  if (data == INFINI_DTYPE_F16 || data == INFINI_DTYPE_BF16) {
    return weight == INFINI_DTYPE_F16 || weight == INFINI_DTYPE_BF16 || weight == INFINI_DTYPE_F32;
  }
  return (data == INFINI_DTYPE_F32 || data == INFINI_DTYPE_F64) && weight == data;
}

infiniStatus_t MakePlan(const TensorLayout &y, const TensorLayout &x, const TensorLayout &w, float epsilon,
                        RMSNormPlan *plan) {
  if (!IsFloatDtype(y.dtype) || x.dtype != y.dtype || !WeightDtypeFits(y.dtype, w.dtype)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (!SameShape(y, x) || y.ndim() < 1 || w.ndim() != 1 || w.shape[0] != y.shape.back()) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = y.dtype;
  plan->weight_dtype = w.dtype;
  plan->rows = MakeRowLoop<2>({&y, &x}, y.ndim() - 1);
  plan->weight_step = w.strides[0];
  plan->epsilon = epsilon;
#ifdef INFINIOP_WITH_CUDA
  plan->device_args = cuda_rows::RMSNormArgsFor(y, x, w, epsilon);
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class T, class W>
void RunTyped(const RMSNormPlan &plan, T *y, const T *x, const W *w) {
  const size_t length = plan.rows.length;
  const ptrdiff_t ys = plan.rows.along[0], xs = plan.rows.along[1];
  ForEachRow(plan.rows, [&](size_t, const Offsets<2> &offsets) {
    const T *xr = x + offsets[1];
    T *yr = y + offsets[0];
    double sum_squares = 0;
    for (size_t j = 0; j < length; ++j) {
      const double v = LoadDouble(xr[static_cast<ptrdiff_t>(j) * xs]);
      sum_squares += v * v;
    }
    const double scale = 1.0 / std::sqrt(sum_squares / static_cast<double>(length) + plan.epsilon);
    for (size_t j = 0; j < length; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      yr[jj * ys] = StoreDouble<T>(LoadDouble(xr[jj * xs]) * scale * LoadDouble(w[jj * plan.weight_step]));
    }
  });
}

// Contiguous F32 or F16 rows through the vector kernels: the sum of squares in F64, the
// scaling in F32 (x * scale, then * w) written straight to y; F16 rows are widened in
// registers in both passes (no F32 copy of the row: less cache traffic than writing and
// reading one); w as F32 once per call.
template <class T, class W>
void RunContiguous(const RMSNormPlan &plan, T *y, const T *x, const W *w) {
  const size_t length = plan.rows.length;
  const bool streaming = plan.rows.rows.numel() * length * sizeof(T) >= simd::kStreamingOutputBytes;
  std::vector<float> weight(length);
  for (size_t j = 0; j < length; ++j) weight[j] = static_cast<float>(Num<W>::Load(w[j]));
  const size_t rows = plan.rows.rows.numel();
  ForEachRow(plan.rows, [&](size_t row_index, const Offsets<2> &offsets) {
    const T *xr = x + offsets[1];
    T *yr = y + offsets[0];
    // The next row usually follows this one (fetched during the last pass); else only a hint.
    const T *next = row_index + 1 < rows ? xr + length : nullptr;
    using Bits = std::conditional_t<std::is_same_v<T, float>, float, uint16_t>;
    const Bits *row = reinterpret_cast<const Bits *>(xr);
    double sum_squares = 0;
    if constexpr (std::is_same_v<T, f16_t>) {
      sum_squares = simd::F16ToF32SumSquares(row, nullptr, length);
    } else {
      sum_squares = simd::SumSquares(row, length);
    }
    const double mean_square = sum_squares / static_cast<double>(length);
    const float scale = static_cast<float>(1.0 / std::sqrt(mean_square + plan.epsilon));
    simd::ScaleTimesInto(row, scale, weight.data(), reinterpret_cast<Bits *>(yr), length, streaming, next,
                         next == nullptr ? 0 : length * sizeof(T));
  });
}

void Run(const RMSNormPlan &plan, void *y, const void *x, const void *w) {
  const bool contiguous = plan.rows.along[0] == 1 && plan.rows.along[1] == 1 && plan.weight_step == 1;
  if (contiguous && plan.weight_dtype != INFINI_DTYPE_F64 && simd::Enabled()) {
    if (plan.dtype == INFINI_DTYPE_F32 || plan.dtype == INFINI_DTYPE_F16) {
      DispatchFloat(plan.dtype, [&](auto data_tag) {
        using T = typename decltype(data_tag)::type;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, f16_t>) {
          DispatchFloat(plan.weight_dtype, [&](auto weight_tag) {
            using W = typename decltype(weight_tag)::type;
            if constexpr (!std::is_same_v<W, double>) {
              RunContiguous(plan, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const W *>(w));
            }
          });
        }
      });
      return;
    }
  }
  DispatchFloat(plan.dtype, [&](auto data_tag) {
    using T = typename decltype(data_tag)::type;
    DispatchFloat(plan.weight_dtype, [&](auto weight_tag) {
      using W = typename decltype(weight_tag)::type;
      RunTyped(plan, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const W *>(w));
    });
  });
}

class RMSNormDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kRMSNorm;

  RMSNormDescriptor(const InfiniopHandle &handle, std::shared_ptr<const RMSNormPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, const void *x, const void *w,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->rows.rows.numel() * plan_->rows.length;
    INFINIOP_RETURN_IF_ERROR(CheckData({{y, count}, {x, count}, {w, plan_->rows.length}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) return cuda_rows::RMSNorm(*this, plan_->device_args, y, x, w, stream);
#endif
    std::shared_ptr<const RMSNormPlan> plan = plan_;
    return Launch(*this, stream, [plan, y, x, w] { Run(*plan, y, x, w); });
  }

 private:
  std::shared_ptr<const RMSNormPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(RMSNorm)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateRMSNormDescriptor(infiniopHandle_t handle,
                                                          infiniopRMSNormDescriptor_t *desc_ptr,
                                                          infiniopTensorDescriptor_t y_desc,
                                                          infiniopTensorDescriptor_t x_desc,
                                                          infiniopTensorDescriptor_t w_desc, float epsilon) {
  return CreateDescriptor(handle, desc_ptr, {y_desc, x_desc, w_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<RMSNormPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*y_desc, *x_desc, *w_desc, epsilon, plan.get()));
                            made->reset(new RMSNormDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetRMSNormWorkspaceSize(infiniopRMSNormDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<RMSNormDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopRMSNorm(infiniopRMSNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                          void *y, const void *x, const void *w, void *stream) {
  RMSNormDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, x, w, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyRMSNormDescriptor(infiniopRMSNormDescriptor_t desc) {
  return DestroyDescriptor<RMSNormDescriptor>(desc);
}
