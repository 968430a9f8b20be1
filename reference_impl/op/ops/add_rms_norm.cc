// AddRMSNorm: residual_out = a + b, then y = residual_out · weight / sqrt(mean(residual_out²)
// + epsilon) over the last dim, in one pass over each row: the sum is stored, its squares
// accumulate in double, and the stored row is scaled. weight may be F32 (or the other half
// type) when the data is F16/BF16. Contiguous F32 and F16 rows scale through the vector
// kernel RMSNorm uses. On NVIDIA it composes the CUDA paths: the elementwise Add into
// residual_out, then RMSNorm's row kernel over residual_out (its squares from the stored
// sum, where the CPU squares the sum before it is rounded: the same up to the rounding of
// residual_out).
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/elementwise.h"
#include "rules/elementwise.h"
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct AddRMSNormPlan {
  infiniDtype_t dtype, weight_dtype;
  RowLoop<4> rows;  // operands: y, residual_out, a, b
  ptrdiff_t weight_step;
  double epsilon;
#ifdef INFINIOP_WITH_CUDA
  cuda::StridedOperands<3> add_layout;  // residual_out = a + b
  cuda_rows::RMSNormArgs norm_args;     // y = RMSNorm(residual_out, weight)
#endif
};

bool WeightDtypeFits(infiniDtype_t data, infiniDtype_t weight) {
  if (data == INFINI_DTYPE_F16 || data == INFINI_DTYPE_BF16) {
    return weight == INFINI_DTYPE_F16 || weight == INFINI_DTYPE_BF16 || weight == INFINI_DTYPE_F32;
  }
  return (data == INFINI_DTYPE_F32 || data == INFINI_DTYPE_F64) && weight == data;
}

infiniStatus_t MakePlan(const TensorLayout &y, const TensorLayout &residual_out, const TensorLayout &a,
                        const TensorLayout &b, const TensorLayout &w, float epsilon, AddRMSNormPlan *plan) {
  if (!IsFloatDtype(y.dtype) || residual_out.dtype != y.dtype || a.dtype != y.dtype || b.dtype != y.dtype ||
      !WeightDtypeFits(y.dtype, w.dtype)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (y.ndim() < 1 || !SameShape(y, residual_out) || !SameShape(y, a) || !SameShape(y, b) || w.ndim() != 1 ||
      w.shape[0] != y.shape.back()) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(y) || OverlapsItself(residual_out)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = y.dtype;
  plan->weight_dtype = w.dtype;
  plan->rows = MakeRowLoop<4>({&y, &residual_out, &a, &b}, y.ndim() - 1);
  plan->weight_step = w.strides[0];
  plan->epsilon = epsilon;
#ifdef INFINIOP_WITH_CUDA
  plan->add_layout = cuda::MergeOperands<3>(y.shape, {&residual_out.strides, &a.strides, &b.strides});
  plan->norm_args = cuda_rows::RMSNormArgsFor(y, residual_out, w, epsilon);
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class T, class W>
void RunTyped(const AddRMSNormPlan &plan, T *y, T *residual_out, const T *a, const T *b, const W *w) {
  using C = ComputeOf<T>;
  const size_t length = plan.rows.length;
  const Offsets<4> step = plan.rows.along;
  const bool contiguous = step[0] == 1 && step[1] == 1 && step[2] == 1 && step[3] == 1 && plan.weight_step == 1;
  constexpr bool kVector = std::is_same_v<T, float> || std::is_same_v<T, f16_t>;
  const bool vector = kVector && contiguous && simd::Enabled() && !std::is_same_v<W, double>;
  std::vector<float> weight_f32;
  if (vector) {
    weight_f32.resize(length);
    for (size_t j = 0; j < length; ++j) weight_f32[j] = static_cast<float>(Num<W>::Load(w[j]));
  }
  ForEachRow(plan.rows, [&](size_t, const Offsets<4> &offsets) {
    T *yr = y + offsets[0];
    T *rr = residual_out + offsets[1];
    const T *ar = a + offsets[2];
    const T *br = b + offsets[3];
    double sum_squares = 0;
    // Read a and b before the first write: residual_out may be a or b itself.
    for (size_t j = 0; j < length; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      const C sum = Num<T>::Load(ar[jj * step[2]]) + Num<T>::Load(br[jj * step[3]]);
      rr[jj * step[1]] = Num<T>::Store(sum);
      sum_squares += static_cast<double>(sum) * static_cast<double>(sum);
    }
    const double scale = 1.0 / std::sqrt(sum_squares / static_cast<double>(length) + plan.epsilon);
    if constexpr (kVector) {
      if (vector) {
        using Bits = std::conditional_t<std::is_same_v<T, float>, float, uint16_t>;
        simd::ScaleTimesInto(reinterpret_cast<const Bits *>(rr), static_cast<float>(scale), weight_f32.data(),
                             reinterpret_cast<Bits *>(yr), length, false, nullptr, 0);
        return;
      }
    }
    for (size_t j = 0; j < length; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      yr[jj * step[0]] = StoreDouble<T>(LoadDouble(rr[jj * step[1]]) * scale * LoadDouble(w[jj * plan.weight_step]));
    }
  });
}

void Run(const AddRMSNormPlan &plan, void *y, void *residual_out, const void *a, const void *b, const void *w) {
  DispatchFloat(plan.dtype, [&](auto data_tag) {
    using T = typename decltype(data_tag)::type;
    DispatchFloat(plan.weight_dtype, [&](auto weight_tag) {
      using W = typename decltype(weight_tag)::type;
      RunTyped(plan, static_cast<T *>(y), static_cast<T *>(residual_out), static_cast<const T *>(a),
               static_cast<const T *>(b), static_cast<const W *>(w));
    });
  });
}

class AddRMSNormDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kAddRMSNorm;

  AddRMSNormDescriptor(const InfiniopHandle &handle, std::shared_ptr<const AddRMSNormPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, void *residual_out, const void *a,
                         const void *b, const void *w, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t count = plan_->rows.rows.numel() * plan_->rows.length;
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{y, count}, {residual_out, count}, {a, count}, {b, count}, {w, plan_->rows.length}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const rules::Add add;
      INFINIOP_RETURN_IF_ERROR(cuda::Elementwise<2>(*this, OpKind::kAdd, plan_->dtype, plan_->add_layout, residual_out,
                                                    {a, b}, &add, stream));
      return cuda_rows::RMSNorm(*this, plan_->norm_args, y, residual_out, w, stream);
    }
#endif
    std::shared_ptr<const AddRMSNormPlan> plan = plan_;
    return Launch(*this, stream, [plan, y, residual_out, a, b, w] { Run(*plan, y, residual_out, a, b, w); });
  }

 private:
  std::shared_ptr<const AddRMSNormPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(AddRMSNorm)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateAddRMSNormDescriptor(
    infiniopHandle_t handle, infiniopAddRMSNormDescriptor_t *desc_ptr, infiniopTensorDescriptor_t y_desc,
    infiniopTensorDescriptor_t residual_out_desc, infiniopTensorDescriptor_t a_desc, infiniopTensorDescriptor_t b_desc,
    infiniopTensorDescriptor_t weight_desc, float epsilon) {
  return CreateDescriptor(handle, desc_ptr, {y_desc, residual_out_desc, a_desc, b_desc, weight_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<AddRMSNormPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*y_desc, *residual_out_desc, *a_desc, *b_desc,
                                                              *weight_desc, epsilon, plan.get()));
                            made->reset(new AddRMSNormDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetAddRMSNormWorkspaceSize(infiniopAddRMSNormDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<AddRMSNormDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopAddRMSNorm(infiniopAddRMSNormDescriptor_t desc, void *workspace,
                                             size_t workspace_size, void *y, void *residual_out, const void *a,
                                             const void *b, const void *weight, void *stream) {
  AddRMSNormDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, residual_out, a, b, weight, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyAddRMSNormDescriptor(infiniopAddRMSNormDescriptor_t desc) {
  return DestroyDescriptor<AddRMSNormDescriptor>(desc);
}
