// RoPE, in double. x and y are (seq, nhead, dhead) or (batch, seq, nhead, dhead);
// pos_ids is (seq) or (batch, seq) of any integer dtype; sin_table and cos_table are
// (table_len, dhead / 2). For i < dhead / 2 and the pair (p0, p1) of the algorithm
// (GPT_J: (2i, 2i+1), GPT_NEOX: (i, i + dhead/2)), with s = sin[pos][i], c = cos[pos][i]:
//   y[p0] = x[p0] * c - x[p1] * s,   y[p1] = x[p0] * s + x[p1] * c.
// A position outside [0, table_len) leaves its rows of y unwritten.
#include <cstring>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "infiniop.h"
#include "ops/rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct RoPEPlan {
  infiniDtype_t dtype, pos_dtype;
  infiniopRoPEAlgo_t algo;
  RowLoop<3> rows;  // one row per (batch, token, head); operands: y, x, pos_ids
  size_t table_len = 0;
  Offsets<2> sin_strides{}, cos_strides{};
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::RoPEArgs device_args;  // the same rows, for the CUDA path
#endif
};

infiniStatus_t MakePlan(const TensorLayout &y, const TensorLayout &x, const TensorLayout &pos,
                        const TensorLayout &sin_table, const TensorLayout &cos_table, RoPEPlan *plan) {
  if (!IsFloatDtype(y.dtype) || x.dtype != y.dtype || sin_table.dtype != y.dtype || cos_table.dtype != y.dtype ||
      !IsIntegerDtype(pos.dtype)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  const size_t ndim = y.ndim();
  if ((ndim != 3 && ndim != 4) || !SameShape(x, y)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const size_t batch = ndim == 4 ? y.shape[0] : 1;
  const size_t seq = y.shape[ndim - 3];
  const size_t dhead = y.shape[ndim - 1];
  if (dhead % 2 != 0) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const bool pos_batched = pos.ndim() == 2;
  if (pos.ndim() == 1) {
    if (pos.shape[0] != seq) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  } else if (pos_batched) {
    if (pos.shape[0] != batch || pos.shape[1] != seq) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  } else {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (sin_table.ndim() != 2 || !SameShape(sin_table, cos_table) || sin_table.shape[1] != dhead / 2) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;

  // pos_ids seen with y's leading dims: it varies along batch (when batched) and token only.
  const TensorLayout rows = WithoutDim(y, ndim - 1);
  const std::vector<ptrdiff_t> x_rows = WithoutDim(x, ndim - 1).strides;
  std::vector<ptrdiff_t> pos_rows(rows.ndim(), 0);
  pos_rows[rows.ndim() - 2] = pos.strides[pos.ndim() - 1];
  if (ndim == 4 && pos_batched) pos_rows[0] = pos.strides[0];
  plan->dtype = y.dtype;
  plan->pos_dtype = pos.dtype;
  plan->rows.rows = StridedLoop<3>(rows.shape, {&rows.strides, &x_rows, &pos_rows});
  plan->rows.length = dhead;
  plan->rows.along = {y.strides[ndim - 1], x.strides[ndim - 1], 0};
  plan->table_len = sin_table.shape[0];
  plan->sin_strides = {sin_table.strides[0], sin_table.strides[1]};
  plan->cos_strides = {cos_table.strides[0], cos_table.strides[1]};
  return INFINI_STATUS_SUCCESS;
}

template <class T, class P>
void RunTyped(const RoPEPlan &plan, T *y, const T *x, const P *pos_ids, const T *sin_table, const T *cos_table) {
  const size_t half = plan.rows.length / 2;
  const ptrdiff_t ys = plan.rows.along[0], xs = plan.rows.along[1];
  const bool gpt_j = plan.algo == INFINIOP_ROPE_ALGO_GPT_J;
  ForEachRow(plan.rows, [&](size_t, const Offsets<3> &offsets) {
    const int64_t position = IndexValue(pos_ids[offsets[2]]);
    if (position < 0 || static_cast<uint64_t>(position) >= plan.table_len) return;
    const T *sin_row = sin_table + position * plan.sin_strides[0];
    const T *cos_row = cos_table + position * plan.cos_strides[0];
    const T *xr = x + offsets[1];
    T *yr = y + offsets[0];
    for (size_t i = 0; i < half; ++i) {
      const ptrdiff_t p0 = static_cast<ptrdiff_t>(gpt_j ? 2 * i : i);
      const ptrdiff_t p1 = static_cast<ptrdiff_t>(gpt_j ? 2 * i + 1 : i + half);
      const double s = LoadDouble(sin_row[static_cast<ptrdiff_t>(i) * plan.sin_strides[1]]);
      const double c = LoadDouble(cos_row[static_cast<ptrdiff_t>(i) * plan.cos_strides[1]]);
      const double x0 = LoadDouble(xr[p0 * xs]), x1 = LoadDouble(xr[p1 * xs]);
      yr[p0 * ys] = StoreDouble<T>(x0 * c - x1 * s);
      yr[p1 * ys] = StoreDouble<T>(x0 * s + x1 * c);
    }
  });
}

void Run(const RoPEPlan &plan, void *y, const void *x, const void *pos_ids, const void *sin_table,
         const void *cos_table) {
  DispatchFloat(plan.dtype, [&](auto data_tag) {
    using T = typename decltype(data_tag)::type;
    DispatchInteger(plan.pos_dtype, [&](auto pos_tag) {
      using P = typename decltype(pos_tag)::type;
      RunTyped(plan, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const P *>(pos_ids),
               static_cast<const T *>(sin_table), static_cast<const T *>(cos_table));
    });
  });
}

class RoPEDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kRoPE;

  RoPEDescriptor(const InfiniopHandle &handle, std::shared_ptr<const RoPEPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, const void *x, const void *pos_ids,
                         const void *sin_table, const void *cos_table, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t rows = plan_->rows.rows.numel(), count = rows * plan_->rows.length;
    const size_t table = plan_->table_len * (plan_->rows.length / 2);
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{y, count}, {x, count}, {pos_ids, rows}, {sin_table, table}, {cos_table, table}}));
    std::shared_ptr<const RoPEPlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda_rows::RoPE(*this, plan->device_args, y, x, pos_ids, sin_table, cos_table, stream);
    }
#endif
    return Launch(*this, stream, [=] { Run(*plan, y, x, pos_ids, sin_table, cos_table); });
  }

 private:
  std::shared_ptr<const RoPEPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(RoPE)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateRoPEDescriptor(infiniopHandle_t handle, infiniopRoPEDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x,
                                                       infiniopTensorDescriptor_t pos_ids,
                                                       infiniopTensorDescriptor_t sin_table,
                                                       infiniopTensorDescriptor_t cos_table, infiniopRoPEAlgo_t algo) {
  // Checked as the integer it arrives as: a value outside the enum must not be loaded as one.
  int algo_value = 0;
  static_assert(sizeof algo_value == sizeof algo, "the enum travels as an int");
  std::memcpy(&algo_value, &algo, sizeof algo_value);
  return CreateDescriptor(handle, desc_ptr, {y, x, pos_ids, sin_table, cos_table},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            if (algo_value != INFINIOP_ROPE_ALGO_GPT_J && algo_value != INFINIOP_ROPE_ALGO_GPT_NEOX) {
                              return INFINI_STATUS_BAD_PARAM;
                            }
                            auto plan = std::make_shared<RoPEPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*y, *x, *pos_ids, *sin_table, *cos_table, plan.get()));
                            plan->algo = static_cast<infiniopRoPEAlgo_t>(algo_value);
#ifdef INFINIOP_WITH_CUDA
                            plan->device_args = cuda_rows::RoPEArgsFor(*y, *x, *pos_ids, *sin_table, *cos_table,
                                                                       algo_value);
#endif
                            made->reset(new RoPEDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetRoPEWorkspaceSize(infiniopRoPEDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<RoPEDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopRoPE(infiniopRoPEDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                       const void *x, const void *pos_ids, const void *sin_table,
                                       const void *cos_table, void *stream) {
  RoPEDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, x, pos_ids, sin_table, cos_table, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyRoPEDescriptor(infiniopRoPEDescriptor_t desc) {
  return DestroyDescriptor<RoPEDescriptor>(desc);
}
