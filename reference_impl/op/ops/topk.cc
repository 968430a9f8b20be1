// TopK: torch.topk along one dim (spec section OP-TOPK): each line's k largest (or smallest)
// elements and their positions, ranked by value and, among equal values, by lower position; the
// result is written in that order whether or not `sorted` asks for it. values in input's dtype,
// indices I32 or I64. k, dim, largest and sorted given again at compute are those of create (the
// suite passes the same): not read.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

struct TopKPlan {
  infiniDtype_t dtype, index_dtype;
  size_t k = 0, extent = 0;
  bool largest = true;
  // The lines: every index of the other dims, in row-major order, with each tensor's offset.
  std::vector<size_t> other_shape;
  std::vector<ptrdiff_t> other_in, other_values, other_indices;
  ptrdiff_t in_step = 0, values_step = 0, indices_step = 0;  // along dim
  size_t lines = 0, input_count = 0, output_count = 0;
};

infiniStatus_t MakePlan(const TensorLayout &values, const TensorLayout &indices, const TensorLayout &input, size_t k,
                        size_t dim, bool largest, TopKPlan *plan) {
  if (!IsFloatDtype(input.dtype) || values.dtype != input.dtype ||
      (indices.dtype != INFINI_DTYPE_I32 && indices.dtype != INFINI_DTYPE_I64)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  const size_t ndim = input.ndim();
  if (dim >= ndim || k == 0 || k > input.shape[dim]) return INFINI_STATUS_BAD_PARAM;
  if (values.ndim() != ndim || indices.ndim() != ndim) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (size_t d = 0; d < ndim; ++d) {
    const size_t expected = d == dim ? k : input.shape[d];
    if (values.shape[d] != expected || indices.shape[d] != expected) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(values) || OverlapsItself(indices)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = input.dtype;
  plan->index_dtype = indices.dtype;
  plan->k = k;
  plan->extent = input.shape[dim];
  plan->largest = largest;
  plan->lines = 1;
  for (size_t d = 0; d < ndim; ++d) {
    if (d == dim) continue;
    plan->other_shape.push_back(input.shape[d]);
    plan->other_in.push_back(input.strides[d]);
    plan->other_values.push_back(values.strides[d]);
    plan->other_indices.push_back(indices.strides[d]);
    plan->lines *= input.shape[d];
  }
  plan->in_step = input.strides[dim];
  plan->values_step = values.strides[dim];
  plan->indices_step = indices.strides[dim];
  plan->input_count = Numel(input);
  plan->output_count = Numel(values);
  return INFINI_STATUS_SUCCESS;
}

template <class T, class I>
void RunTyped(const TopKPlan &plan, void *values_data, void *indices_data, const void *input_data) {
  const T *in = static_cast<const T *>(input_data);
  T *values = static_cast<T *>(values_data);
  I *indices = static_cast<I *>(indices_data);
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(1, plan.extent));
  ParallelFor(plan.lines, grain, [&](size_t begin, size_t end) {
    std::vector<std::pair<double, size_t>> line(plan.extent);
    for (size_t l = begin; l < end; ++l) {
      ptrdiff_t in_at = 0, values_at = 0, indices_at = 0;
      size_t rest = l;
      for (size_t d = plan.other_shape.size(); d-- > 0;) {
        const ptrdiff_t i = static_cast<ptrdiff_t>(rest % plan.other_shape[d]);
        rest /= plan.other_shape[d];
        in_at += i * plan.other_in[d];
        values_at += i * plan.other_values[d];
        indices_at += i * plan.other_indices[d];
      }
      for (size_t j = 0; j < plan.extent; ++j) {
        const double v = Num<T>::Load(in[in_at + static_cast<ptrdiff_t>(j) * plan.in_step]);
        line[j] = {plan.largest ? -v : v, j};  // ascending order of this key ranks the line
      }
      std::partial_sort(line.begin(), line.begin() + static_cast<ptrdiff_t>(plan.k), line.end());
      for (size_t j = 0; j < plan.k; ++j) {
        const ptrdiff_t at = static_cast<ptrdiff_t>(j);
        const size_t position = line[j].second;
        values[values_at + at * plan.values_step] = in[in_at + static_cast<ptrdiff_t>(position) * plan.in_step];
        indices[indices_at + at * plan.indices_step] = static_cast<I>(position);
      }
    }
  });
}

void Run(const TopKPlan &plan, void *values, void *indices, const void *input) {
  DispatchFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (plan.index_dtype == INFINI_DTYPE_I32) {
      RunTyped<T, int32_t>(plan, values, indices, input);
    } else {
      RunTyped<T, int64_t>(plan, values, indices, input);
    }
  });
}

class TopKDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kTopK;

  TopKDescriptor(const InfiniopHandle &handle, std::shared_ptr<const TopKPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *values, void *indices, const void *input,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t outputs = plan_->output_count;
    INFINIOP_RETURN_IF_ERROR(
        CheckData({{values, outputs}, {indices, outputs}, {input, outputs > 0 ? plan_->input_count : 0}}));
    std::shared_ptr<const TopKPlan> plan = plan_;
    return Launch(*this, stream, [plan, values, indices, input] { Run(*plan, values, indices, input); });
  }

 private:
  std::shared_ptr<const TopKPlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateTopKDescriptor(infiniopHandle_t handle, infiniopTopKDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t values_output_desc,
                                                       infiniopTensorDescriptor_t indices_output_desc,
                                                       infiniopTensorDescriptor_t input_desc, size_t k, size_t dim,
                                                       bool largest, bool sorted) {
  (void)sorted;  // always sorted: an order the unsorted call allows too
  return CreateDescriptor(handle, desc_ptr, {values_output_desc, indices_output_desc, input_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<TopKPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*values_output_desc, *indices_output_desc, *input_desc, k,
                                                              dim, largest, plan.get()));
                            made->reset(new TopKDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetTopKWorkspaceSize(infiniopTopKDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<TopKDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopTopK(infiniopTopKDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *values_output, void *indices_output, const void *input, size_t, size_t,
                                       bool, bool, void *stream) {
  TopKDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, values_output, indices_output, input, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyTopKDescriptor(infiniopTopKDescriptor_t desc) {
  return DestroyDescriptor<TopKDescriptor>(desc);
}
