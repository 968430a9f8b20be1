// Conv: n-d cross-correlation y[b, co, o] = bias[co] + sum over ci, k of
// w[co, ci, k] * x[b, ci, o * stride - pad + k * dilation] (zero outside x), with
// symmetric padding. Computed as im2col into the workspace and an OpenBLAS GEMM per
// block of output positions; F16/BF16 go through F32.
#include <algorithm>
#include <climits>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/blas.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/conv.h"
#endif

namespace infinicts::ref::op {
namespace {

// Largest im2col block, in elements: bounds the workspace for big inputs.
constexpr size_t kColumnBudget = size_t(1) << 22;

struct ConvPlan {
  infiniDtype_t dtype;
  size_t n = 0;  // spatial dims
  size_t batch = 0, in_channels = 0, out_channels = 0;
  std::vector<size_t> in_size, kernel, out_size, pads, dilations;
  std::vector<ptrdiff_t> steps;
  TensorLayout x, w, y;
  bool has_bias = false;
  ptrdiff_t bias_step = 0;
  size_t kernel_volume = 1, out_volume = 1, patch = 0, block = 0;  // patch = in_channels * kernel_volume

#ifdef INFINIOP_WITH_CUDA
  std::shared_ptr<const cuda::CudnnConv> cudnn;  // NVIDIA descriptors: cuDNN's plan, or null (the direct kernel)
#endif

  size_t ComputeBytes() const { return dtype == INFINI_DTYPE_F64 ? sizeof(double) : sizeof(float); }
  size_t WorkspaceBytes() const { return (out_channels * patch + patch * block + out_channels * block) * ComputeBytes(); }
};

infiniStatus_t ReadAttributes(size_t n, const void *pads, const void *strides, const void *dilations, ConvPlan *plan) {
  // n + 2 must be a tensor's ndim; checked first so that no array is read past its end.
  if (n == 0 || n + 2 > kMaxTensorDims) return INFINI_STATUS_BAD_PARAM;
  plan->n = n;
  plan->pads.assign(n, 0);
  plan->steps.assign(n, 1);
  plan->dilations.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    if (pads != nullptr) plan->pads[i] = static_cast<const size_t *>(pads)[i];
    if (strides != nullptr) plan->steps[i] = static_cast<const ptrdiff_t *>(strides)[i];
    if (dilations != nullptr) plan->dilations[i] = static_cast<const size_t *>(dilations)[i];
    if (plan->steps[i] <= 0 || plan->dilations[i] == 0) return INFINI_STATUS_BAD_PARAM;
  }
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t ReadTensors(const TensorLayout &y, const TensorLayout &x, const TensorLayout &w, const TensorLayout *b,
                           ConvPlan *plan) {
  if (!IsFloatDtype(y.dtype) || x.dtype != y.dtype || w.dtype != y.dtype || (b != nullptr && b->dtype != y.dtype)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  const size_t n = plan->n;
  if (x.ndim() != n + 2 || y.ndim() != n + 2 || w.ndim() != n + 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  plan->batch = x.shape[0];
  plan->in_channels = x.shape[1];
  plan->out_channels = w.shape[0];
  if (y.shape[0] != plan->batch || w.shape[1] != plan->in_channels || y.shape[1] != plan->out_channels) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (b != nullptr && (b->ndim() != 1 || b->shape[0] != plan->out_channels)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (size_t i = 0; i < n; ++i) {
    const size_t input = x.shape[i + 2], kernel = w.shape[i + 2];
    if (kernel == 0) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    const size_t reach = plan->dilations[i] * (kernel - 1) + 1;
    const size_t padded = input + 2 * plan->pads[i];
    if (padded < reach) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    const size_t expected = (padded - reach) / static_cast<size_t>(plan->steps[i]) + 1;
    if (y.shape[i + 2] != expected) return INFINI_STATUS_BAD_TENSOR_SHAPE;
    plan->in_size.push_back(input);
    plan->kernel.push_back(kernel);
    plan->out_size.push_back(expected);
    plan->kernel_volume *= kernel;
    plan->out_volume *= expected;
  }
  plan->patch = plan->in_channels * plan->kernel_volume;
  const size_t limit = static_cast<size_t>(INT_MAX);
  if (plan->patch > limit || plan->out_channels > limit || plan->out_volume > limit) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = y.dtype;
  plan->x = x;
  plan->w = w;
  plan->y = y;
  plan->has_bias = b != nullptr;
  plan->bias_step = b != nullptr ? b->strides[0] : 0;
  const size_t by_budget = kColumnBudget / std::max<size_t>(plan->patch, 1);
  plan->block = std::min(plan->out_volume, std::max<size_t>(by_budget, 16));
  return INFINI_STATUS_SUCCESS;
}

// Per output position of a block: where its window starts in x (one coordinate per
// spatial dim, may be negative when padded) and its offset in y (batch and channel
// excluded). Built once per block so that the inner loops need no division.
struct BlockTables {
  std::vector<ptrdiff_t> window_start;  // width x n
  std::vector<ptrdiff_t> y_offset;      // width
};

void FillBlockTables(const ConvPlan &plan, size_t p0, size_t width, BlockTables *tables) {
  const size_t n = plan.n;
  tables->window_start.resize(width * n);
  tables->y_offset.resize(width);
  for (size_t j = 0; j < width; ++j) {
    size_t rest = p0 + j;
    ptrdiff_t offset = 0;
    for (size_t d = n; d-- > 0;) {
      const size_t o = rest % plan.out_size[d];
      rest /= plan.out_size[d];
      tables->window_start[j * n + d] =
          static_cast<ptrdiff_t>(o) * plan.steps[d] - static_cast<ptrdiff_t>(plan.pads[d]);
      offset += static_cast<ptrdiff_t>(o) * plan.y.strides[d + 2];
    }
    tables->y_offset[j] = offset;
  }
}

template <class T>
void RunTyped(const ConvPlan &plan, T *y, const T *x, const T *w, const T *bias, void *workspace) {
  using C = ComputeOf<T>;
  const size_t n = plan.n, patch = plan.patch, cout = plan.out_channels;
  if (plan.batch == 0 || cout == 0 || plan.out_volume == 0) return;
  C *packed_w = static_cast<C *>(AlignWorkspace(workspace));
  C *columns = packed_w + cout * patch;
  C *products = columns + patch * plan.block;

  // w as a dense (cout, patch) matrix.
  ParallelFor(cout, 1, [&](size_t begin, size_t end) {
    for (size_t co = begin; co < end; ++co) {
      for (size_t r = 0; r < patch; ++r) {
        size_t rest = r % plan.kernel_volume;
        ptrdiff_t offset = static_cast<ptrdiff_t>(co) * plan.w.strides[0] +
                           static_cast<ptrdiff_t>(r / plan.kernel_volume) * plan.w.strides[1];
        for (size_t d = n; d-- > 0;) {
          offset += static_cast<ptrdiff_t>(rest % plan.kernel[d]) * plan.w.strides[d + 2];
          rest /= plan.kernel[d];
        }
        packed_w[co * patch + r] = Num<T>::Load(w[offset]);
      }
    }
  });

  BlockTables tables;
  for (size_t b = 0; b < plan.batch; ++b) {
    const T *xb = x + static_cast<ptrdiff_t>(b) * plan.x.strides[0];
    for (size_t p0 = 0; p0 < plan.out_volume; p0 += plan.block) {
      const size_t width = std::min(plan.block, plan.out_volume - p0);
      if (b == 0 || plan.block < plan.out_volume) FillBlockTables(plan, p0, width, &tables);
      // im2col: row r = (ci, kernel position), column = output position.
      ParallelFor(patch, std::max<size_t>(1, 4096 / width), [&](size_t begin, size_t end) {
        std::vector<ptrdiff_t> reach(n);  // the kernel position's distance from the window start
        for (size_t r = begin; r < end; ++r) {
          size_t rest = r % plan.kernel_volume;
          for (size_t d = n; d-- > 0;) {
            reach[d] = static_cast<ptrdiff_t>((rest % plan.kernel[d]) * plan.dilations[d]);
            rest /= plan.kernel[d];
          }
          const T *channel = xb + static_cast<ptrdiff_t>(r / plan.kernel_volume) * plan.x.strides[1];
          C *row = columns + r * width;
          for (size_t j = 0; j < width; ++j) {
            const ptrdiff_t *start = &tables.window_start[j * n];
            ptrdiff_t offset = 0;
            bool inside = true;
            for (size_t d = 0; d < n; ++d) {
              const ptrdiff_t at = start[d] + reach[d];
              inside = inside && at >= 0 && at < static_cast<ptrdiff_t>(plan.in_size[d]);
              offset += at * plan.x.strides[d + 2];
            }
            row[j] = inside ? Num<T>::Load(channel[offset]) : C(0);
          }
        }
      });
      if (patch > 0) {
        BlasGemm(false, false, static_cast<int>(cout), static_cast<int>(width), static_cast<int>(patch), C(1),
                 packed_w, static_cast<int>(patch), columns, static_cast<int>(width), C(0), products,
                 static_cast<int>(width));
      } else {
        std::fill(products, products + cout * width, C(0));
      }
      ParallelFor(cout, 1, [&](size_t begin, size_t end) {
        for (size_t co = begin; co < end; ++co) {
          const C shift = plan.has_bias ? Num<T>::Load(bias[static_cast<ptrdiff_t>(co) * plan.bias_step]) : C(0);
          T *yc = y + static_cast<ptrdiff_t>(b) * plan.y.strides[0] + static_cast<ptrdiff_t>(co) * plan.y.strides[1];
          const C *product = products + co * width;
          for (size_t j = 0; j < width; ++j) yc[tables.y_offset[j]] = Num<T>::Store(product[j] + shift);
        }
      });
    }
  }
}

#ifdef INFINIOP_WITH_CUDA
cuda::ConvProblem CudaProblem(const ConvPlan &p) {
  return {p.dtype,     p.batch, p.in_channels, p.out_channels, p.in_size,   p.kernel,   p.out_size, p.pads,
          p.dilations, p.steps, p.x.strides,   p.w.strides,    p.y.strides, p.has_bias, p.bias_step};
}
#endif

class ConvDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kConv;

  ConvDescriptor(const InfiniopHandle &handle, std::shared_ptr<const ConvPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      workspace_size = cuda::ConvWorkspaceBytes(plan_->cudnn.get());
      return;
    }
#endif
    workspace_size = WorkspaceWithSlack(plan_->WorkspaceBytes());
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, const void *x, const void *w,
                         const void *bias, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const ConvPlan &p = *plan_;
    INFINIOP_RETURN_IF_ERROR(CheckData({{y, p.batch * p.out_channels * p.out_volume},
                                        {x, Numel(p.x)},
                                        {w, Numel(p.w)}}));
    if (p.has_bias) INFINIOP_RETURN_IF_ERROR(CheckData({{bias, p.out_channels}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::Conv(*this, CudaProblem(p), p.cudnn.get(), y, x, w, p.has_bias ? bias : nullptr, workspace,
                        stream);
    }
#endif
    std::shared_ptr<const ConvPlan> plan = plan_;
    return Launch(*this, stream, [=] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        RunTyped(*plan, static_cast<T *>(y), static_cast<const T *>(x), static_cast<const T *>(w),
                 static_cast<const T *>(bias), workspace);
      });
    });
  }

 private:
  std::shared_ptr<const ConvPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Conv)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateConvDescriptor(infiniopHandle_t handle, infiniopConvDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t y_desc,
                                                       infiniopTensorDescriptor_t x_desc,
                                                       infiniopTensorDescriptor_t w_desc,
                                                       infiniopTensorDescriptor_t b_desc, void *pads, void *strides,
                                                       void *dilations, size_t n) {
  return CreateDescriptor(handle, desc_ptr, {y_desc, x_desc, w_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<ConvPlan>();
                            INFINIOP_RETURN_IF_ERROR(ReadAttributes(n, pads, strides, dilations, plan.get()));
                            INFINIOP_RETURN_IF_ERROR(ReadTensors(*y_desc, *x_desc, *w_desc, b_desc, plan.get()));
#ifdef INFINIOP_WITH_CUDA
                            if (h.device_type == INFINI_DEVICE_NVIDIA) {
                              plan->cudnn = cuda::PlanConv(h.device_id, CudaProblem(*plan));
                            }
#endif
                            made->reset(new ConvDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetConvWorkspaceSize(infiniopConvDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<ConvDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopConv(infiniopConvDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                       const void *x, const void *w, const void *bias, void *stream) {
  ConvDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, x, w, bias, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyConvDescriptor(infiniopConvDescriptor_t desc) {
  return DestroyDescriptor<ConvDescriptor>(desc);
}
