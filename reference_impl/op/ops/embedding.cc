// Embedding: output[i..., :] = weight[input[i...], :]. input holds I32 or I64 indices
// (any shape, 0-D included), weight is (vocab, dim), output is input's shape + (dim).
// An index outside [0, vocab) leaves its output row unwritten.
#include <algorithm>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/strided_loop.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rows/rows_args.h"
#include "cuda/rows/rows_ops.h"
#endif

namespace infinicts::ref::op {
namespace {

struct EmbeddingPlan {
  infiniDtype_t index_dtype, dtype;
  StridedLoop<2> loop;  // over input's shape; operand 0: output, operand 1: input
  size_t vocab = 0, dim = 0;
  ptrdiff_t output_step = 0;  // along output's last dim
  ptrdiff_t weight_row = 0, weight_step = 0;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::EmbeddingArgs device_args;  // the same rows, for the CUDA path
#endif
};

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &input, const TensorLayout &weight,
                        EmbeddingPlan *plan) {
  if ((input.dtype != INFINI_DTYPE_I32 && input.dtype != INFINI_DTYPE_I64) || !IsFloatDtype(weight.dtype) ||
      output.dtype != weight.dtype) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (weight.ndim() != 2 || output.ndim() != input.ndim() + 1) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (size_t d = 0; d < input.ndim(); ++d) {
    if (output.shape[d] != input.shape[d]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (output.shape.back() != weight.shape[1]) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  const TensorLayout rows = WithoutDim(output, output.ndim() - 1);
  plan->index_dtype = input.dtype;
  plan->dtype = weight.dtype;
  plan->loop = StridedLoop<2>(input.shape, {&rows.strides, &input.strides});
  plan->vocab = weight.shape[0];
  plan->dim = weight.shape[1];
  plan->output_step = output.strides.back();
  plan->weight_row = weight.strides[0];
  plan->weight_step = weight.strides[1];
#ifdef INFINIOP_WITH_CUDA
  plan->device_args = cuda_rows::EmbeddingArgsFor(output, input, weight);
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class T, class I>
void RunTyped(const EmbeddingPlan &plan, T *output, const I *input, const T *weight) {
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(plan.dim, 1));
  plan.loop.ParallelForEach(grain, [&](size_t, const Offsets<2> &offsets, const Offsets<2> &steps, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const ptrdiff_t at = static_cast<ptrdiff_t>(i);
      const int64_t index = IndexValue(input[offsets[1] + at * steps[1]]);
      if (index < 0 || static_cast<uint64_t>(index) >= plan.vocab) continue;
      T *out = output + offsets[0] + at * steps[0];
      const T *row = weight + index * plan.weight_row;
      for (size_t j = 0; j < plan.dim; ++j) {
        out[static_cast<ptrdiff_t>(j) * plan.output_step] = row[static_cast<ptrdiff_t>(j) * plan.weight_step];
      }
    }
  });
}

void Run(const EmbeddingPlan &plan, void *output, const void *input, const void *weight) {
  DispatchFloat(plan.dtype, [&](auto data_tag) {
    using T = typename decltype(data_tag)::type;
    DispatchInteger(plan.index_dtype, [&](auto index_tag) {
      using I = typename decltype(index_tag)::type;
      RunTyped(plan, static_cast<T *>(output), static_cast<const I *>(input), static_cast<const T *>(weight));
    });
  });
}

class EmbeddingDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kEmbedding;

  EmbeddingDescriptor(const InfiniopHandle &handle, std::shared_ptr<const EmbeddingPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *output, const void *input, const void *weight, void *stream) const {
    const size_t indices = plan_->loop.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData(
        {{output, indices * plan_->dim}, {input, indices}, {weight, plan_->vocab * plan_->dim}}));
    std::shared_ptr<const EmbeddingPlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda_rows::Embedding(*this, plan->device_args, output, input, weight, stream);
    }
#endif
    return Launch(*this, stream, [=] { Run(*plan, output, input, weight); });
  }

 private:
  std::shared_ptr<const EmbeddingPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Embedding)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateEmbeddingDescriptor(infiniopHandle_t handle,
                                                            infiniopEmbeddingDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t output_desc,
                                                            infiniopTensorDescriptor_t input_desc,
                                                            infiniopTensorDescriptor_t weight_desc) {
  return CreateDescriptor(handle, desc_ptr, {output_desc, input_desc, weight_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<EmbeddingPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*output_desc, *input_desc, *weight_desc, plan.get()));
                            made->reset(new EmbeddingDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopEmbedding(infiniopEmbeddingDescriptor_t desc, void *output, const void *input,
                                            const void *weight, void *stream) {
  EmbeddingDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(output, input, weight, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyEmbeddingDescriptor(infiniopEmbeddingDescriptor_t desc) {
  return DestroyDescriptor<EmbeddingDescriptor>(desc);
}
