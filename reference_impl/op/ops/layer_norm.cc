// LayerNorm over the last dim, in double, with InfiniCore's three outputs. Per row:
// mean, biased variance var, std = sqrt(var + eps); input_std_deviation = std,
// input_standardization = (input - mean) / std, output = that * weight + bias.
#include <cmath>
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

struct LayerNormPlan {
  infiniDtype_t dtype;
  RowLoop<4> rows;  // operands: output, input_standardization, input, input_std_deviation
  ptrdiff_t weight_step = 0;
  ptrdiff_t bias_step = 0;
  bool has_bias = false;
  double eps = 0;
#ifdef INFINIOP_WITH_CUDA
  cuda_rows::LayerNormArgs device_args;  // the same rows, for the CUDA path
#endif
};

enum Operand { kOutput, kStandardization, kInput, kStdDeviation };

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &standardization,
                        const TensorLayout &std_deviation, const TensorLayout &input, const TensorLayout &weight,
                        const TensorLayout *bias, float eps, LayerNormPlan *plan) {
  const infiniDtype_t dtype = input.dtype;
  if (!IsFloatDtype(dtype) || output.dtype != dtype || standardization.dtype != dtype ||
      std_deviation.dtype != dtype || weight.dtype != dtype || (bias != nullptr && bias->dtype != dtype)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  const size_t ndim = input.ndim();
  if (ndim < 1 || !SameShape(output, input) || !SameShape(standardization, input)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const TensorLayout rows_of_input = WithoutDim(input, ndim - 1);
  const size_t length = input.shape[ndim - 1];
  if (!SameShape(std_deviation, rows_of_input) || weight.ndim() != 1 || weight.shape[0] != length ||
      (bias != nullptr && (bias->ndim() != 1 || bias->shape[0] != length))) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(output) || OverlapsItself(standardization) || OverlapsItself(std_deviation)) {
    return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  const std::vector<ptrdiff_t> out_strides = WithoutDim(output, ndim - 1).strides;
  const std::vector<ptrdiff_t> std_strides = WithoutDim(standardization, ndim - 1).strides;
  plan->dtype = dtype;
  plan->rows.rows = StridedLoop<4>(rows_of_input.shape,
                                   {&out_strides, &std_strides, &rows_of_input.strides, &std_deviation.strides});
  plan->rows.length = length;
  plan->rows.along = {output.strides[ndim - 1], standardization.strides[ndim - 1], input.strides[ndim - 1], 0};
  plan->weight_step = weight.strides[0];
  plan->has_bias = bias != nullptr;
  plan->bias_step = bias != nullptr ? bias->strides[0] : 0;
  plan->eps = eps;
#ifdef INFINIOP_WITH_CUDA
  plan->device_args =
      cuda_rows::LayerNormArgsFor(output, standardization, std_deviation, input, weight, bias, eps);
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class T>
void RunTyped(const LayerNormPlan &plan, T *output, T *standardization, T *std_deviation, const T *input,
              const T *weight, const T *bias) {
  const size_t length = plan.rows.length;
  const Offsets<4> &along = plan.rows.along;
  ForEachRow(plan.rows, [&](size_t, const Offsets<4> &offsets) {
    const T *in = input + offsets[kInput];
    double mean = 0;
    for (size_t j = 0; j < length; ++j) mean += LoadDouble(in[static_cast<ptrdiff_t>(j) * along[kInput]]);
    mean /= static_cast<double>(length);
    double variance = 0;
    for (size_t j = 0; j < length; ++j) {
      const double centred = LoadDouble(in[static_cast<ptrdiff_t>(j) * along[kInput]]) - mean;
      variance += centred * centred;
    }
    variance /= static_cast<double>(length);
    const double deviation = std::sqrt(variance + plan.eps);
    std_deviation[offsets[kStdDeviation]] = StoreDouble<T>(deviation);
    for (size_t j = 0; j < length; ++j) {
      const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
      const double standardized = (LoadDouble(in[jj * along[kInput]]) - mean) / deviation;
      standardization[offsets[kStandardization] + jj * along[kStandardization]] = StoreDouble<T>(standardized);
      const double shift = plan.has_bias ? LoadDouble(bias[jj * plan.bias_step]) : 0.0;
      output[offsets[kOutput] + jj * along[kOutput]] =
          StoreDouble<T>(standardized * LoadDouble(weight[jj * plan.weight_step]) + shift);
    }
  });
}

class LayerNormDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kLayerNorm;

  LayerNormDescriptor(const InfiniopHandle &handle, std::shared_ptr<const LayerNormPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *output, void *standardization,
                         void *std_deviation, const void *input, const void *weight, const void *bias,
                         void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t rows = plan_->rows.rows.numel(), count = rows * plan_->rows.length;
    INFINIOP_RETURN_IF_ERROR(CheckData({{output, count}, {standardization, count}, {std_deviation, rows},
                                        {input, count}, {weight, plan_->rows.length}}));
    if (plan_->has_bias) INFINIOP_RETURN_IF_ERROR(CheckData({{bias, plan_->rows.length}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda_rows::LayerNorm(*this, plan_->device_args, output, standardization, std_deviation, input, weight,
                                  bias, stream);
    }
#endif
    std::shared_ptr<const LayerNormPlan> plan = plan_;
    return Launch(*this, stream, [=] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, static_cast<T *>(output), static_cast<T *>(standardization), static_cast<T *>(std_deviation),
                 static_cast<const T *>(input), static_cast<const T *>(weight), static_cast<const T *>(bias));
      });
    });
  }

 private:
  std::shared_ptr<const LayerNormPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(LayerNorm)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateLayerNormDescriptor(
    infiniopHandle_t handle, infiniopLayerNormDescriptor_t *desc_ptr, infiniopTensorDescriptor_t output_desc,
    infiniopTensorDescriptor_t input_standardization_desc, infiniopTensorDescriptor_t input_std_deviation_desc,
    infiniopTensorDescriptor_t input_desc, infiniopTensorDescriptor_t weight_desc,
    infiniopTensorDescriptor_t bias_desc, float eps) {
  return CreateDescriptor(
      handle, desc_ptr,
      {output_desc, input_standardization_desc, input_std_deviation_desc, input_desc, weight_desc},
      [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
        auto plan = std::make_shared<LayerNormPlan>();
        INFINIOP_RETURN_IF_ERROR(MakePlan(*output_desc, *input_standardization_desc, *input_std_deviation_desc,
                                          *input_desc, *weight_desc, bias_desc, eps, plan.get()));
        made->reset(new LayerNormDescriptor(h, std::move(plan)));
        return INFINI_STATUS_SUCCESS;
      });
}

__INFINI_C infiniStatus_t infiniopGetLayerNormWorkspaceSize(infiniopLayerNormDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<LayerNormDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopLayerNorm(infiniopLayerNormDescriptor_t desc, void *workspace,
                                            size_t workspace_size, void *output, void *input_standardization,
                                            void *input_std_deviation, const void *input, const void *weight,
                                            const void *bias, void *stream) {
  LayerNormDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, output, input_standardization, input_std_deviation, input, weight,
                       bias, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyLayerNormDescriptor(infiniopLayerNormDescriptor_t desc) {
  return DestroyDescriptor<LayerNormDescriptor>(desc);
}
