// I8Gemm: out[m, n] = x_scale[m]·weights_scale[n]·Σ_k x[m, k]·weights[k, n] + bias[n]
// (spec section OP-I8GEMM), x row-major and weights column-major so that both run contiguous
// in K. The output is cut into tiles that run in parallel; each tile sums K in blocks that
// stay in cache, a few rows against a few columns at a time, into exact int32 sums
// (core/simd_i8_dot.h where the CPU has AVX2, a portable loop otherwise), then scales them
// in F32 (core/int8_steps.h) and rounds once to out's dtype.
#include <algorithm>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/int8_steps.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "core/simd_i8_dot.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/i8_gemm.h"
#endif

namespace infinicts::ref::op {
namespace {

// The output tiles (multiples of the dot kernel's rows and columns) and the K block: a
// tile's rows and columns of one K block stay in the core's caches while it runs.
constexpr size_t kTileRows = 3 * 16;
constexpr size_t kTileColumns = 4 * 16;
constexpr size_t kDepthBlock = 2048;
// Beyond this K an int32 sum could wrap (127·128·K ≥ 2^31).
constexpr size_t kMaxDepth = (size_t(1) << 17) - 1;

struct I8GemmPlan {
  infiniDtype_t dtype;  // out's and bias's
  size_t m = 0, n = 0, k = 0;
  ptrdiff_t x_row = 0, weights_column = 0, out_row = 0;
  ptrdiff_t x_scale_step = 0, weights_scale_step = 0, bias_step = 0;
  bool has_bias = false;
};

// The step between the elements of a scale or bias of `count` elements shaped [count],
// [count, 1] or (wide) [1, count]; false for any other shape.
bool VectorStep(const TensorLayout &t, size_t count, bool wide, ptrdiff_t *step) {
  if (t.ndim() == 1 && t.shape[0] == count) {
    *step = t.strides[0];
    return true;
  }
  if (t.ndim() == 2 && !wide && t.shape[0] == count && t.shape[1] == 1) {
    *step = t.strides[0];
    return true;
  }
  if (t.ndim() == 2 && wide && t.shape[0] == 1 && t.shape[1] == count) {
    *step = t.strides[1];
    return true;
  }
  return false;
}

// Dtypes, then shapes, then strides (OP-I8GEMM-1, -2, -3, -6).
infiniStatus_t MakePlan(const TensorLayout &out, const TensorLayout *bias, const TensorLayout &x,
                        const TensorLayout &x_scale, const TensorLayout &weights, const TensorLayout &weights_scale,
                        I8GemmPlan *plan) {
  const bool half_out = out.dtype == INFINI_DTYPE_F16 || out.dtype == INFINI_DTYPE_BF16;
  if (!half_out || (bias != nullptr && bias->dtype != out.dtype) || x.dtype != INFINI_DTYPE_I8 ||
      weights.dtype != INFINI_DTYPE_I8 || x_scale.dtype != INFINI_DTYPE_F32 ||
      weights_scale.dtype != INFINI_DTYPE_F32) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (out.ndim() != 2 || x.ndim() != 2 || weights.ndim() != 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  plan->m = out.shape[0];
  plan->n = out.shape[1];
  plan->k = x.shape[1];
  if (x.shape[0] != plan->m || weights.shape[0] != plan->k || weights.shape[1] != plan->n || plan->k > kMaxDepth) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (!VectorStep(x_scale, plan->m, false, &plan->x_scale_step) ||
      !VectorStep(weights_scale, plan->n, true, &plan->weights_scale_step) ||
      (bias != nullptr && !(bias->ndim() == 1 && bias->shape[0] == plan->n))) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  // Both operands K-contiguous, out with unit column stride; a dim of size 1 imposes nothing.
  const bool x_ok = x.strides[1] == 1 || plan->k <= 1;
  const bool weights_ok = weights.strides[0] == 1 || plan->k <= 1;
  const bool out_ok = out.strides[1] == 1 || plan->n <= 1;
  if (!x_ok || !weights_ok || !out_ok || OverlapsItself(out)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = out.dtype;
  plan->x_row = x.strides[0];
  plan->weights_column = weights.strides[1];
  plan->out_row = out.strides[0];
  plan->has_bias = bias != nullptr;
  plan->bias_step = bias != nullptr ? bias->strides[0] : 0;
  return INFINI_STATUS_SUCCESS;
}

// The portable form of simd::I8DotTile.
void PortableDotTile(const int8_t *x, ptrdiff_t x_row, size_t rows, const int8_t *w, ptrdiff_t w_column,
                     size_t columns, size_t depth, int32_t *acc, size_t acc_row) {
  for (size_t r = 0; r < rows; ++r) {
    const int8_t *x_at = x + static_cast<ptrdiff_t>(r) * x_row;
    for (size_t c = 0; c < columns; ++c) {
      const int8_t *w_at = w + static_cast<ptrdiff_t>(c) * w_column;
      int32_t sum = 0;
      for (size_t k = 0; k < depth; ++k) sum += static_cast<int32_t>(x_at[k]) * static_cast<int32_t>(w_at[k]);
      acc[r * acc_row + c] += sum;
    }
  }
}

struct I8GemmData {
  void *out;
  const void *bias;
  const int8_t *x, *weights;
  const float *x_scale, *weights_scale;
};

template <class T>
void RunTile(const I8GemmPlan &plan, const I8GemmData &d, size_t row0, size_t rows, size_t col0, size_t columns,
             int32_t *sums) {
  const auto dot = simd::Enabled() ? simd::I8DotTile : PortableDotTile;
  std::fill(sums, sums + rows * columns, 0);
  for (size_t k0 = 0; k0 < plan.k; k0 += kDepthBlock) {
    const size_t depth = std::min(kDepthBlock, plan.k - k0);
    for (size_t c = 0; c < columns; c += simd::kI8DotColumns) {
      const int8_t *w = d.weights + static_cast<ptrdiff_t>(col0 + c) * plan.weights_column + static_cast<ptrdiff_t>(k0);
      const size_t cols = std::min(simd::kI8DotColumns, columns - c);
      for (size_t r = 0; r < rows; r += simd::kI8DotRows) {
        const int8_t *x = d.x + static_cast<ptrdiff_t>(row0 + r) * plan.x_row + static_cast<ptrdiff_t>(k0);
        dot(x, plan.x_row, std::min(simd::kI8DotRows, rows - r), w, plan.weights_column, cols, depth,
            sums + r * columns + c, columns);
      }
    }
  }
  const T *bias = static_cast<const T *>(d.bias);
  for (size_t r = 0; r < rows; ++r) {
    const float row_scale = d.x_scale[static_cast<ptrdiff_t>(row0 + r) * plan.x_scale_step];
    T *out = static_cast<T *>(d.out) + static_cast<ptrdiff_t>(row0 + r) * plan.out_row;
    for (size_t c = 0; c < columns; ++c) {
      const ptrdiff_t col = static_cast<ptrdiff_t>(col0 + c);
      const float shift = plan.has_bias ? static_cast<float>(Num<T>::Load(bias[col * plan.bias_step])) : 0.0f;
      out[col] = Num<T>::Store(
          I8GemmScaled(sums[r * columns + c], row_scale, d.weights_scale[col * plan.weights_scale_step], shift));
    }
  }
}

template <class T>
void RunI8Gemm(const I8GemmPlan &plan, const I8GemmData &d) {
  if (plan.m == 0 || plan.n == 0) return;
  const size_t row_tiles = (plan.m + kTileRows - 1) / kTileRows;
  const size_t column_tiles = (plan.n + kTileColumns - 1) / kTileColumns;
  ParallelFor(row_tiles * column_tiles, 1, [&](size_t begin, size_t end) {
    std::vector<int32_t> sums(kTileRows * kTileColumns);
    for (size_t t = begin; t < end; ++t) {
      // Consecutive tiles share their columns: a worker's tiles reuse the weights (the larger
      // operand in serving) from cache while x's rows pass.
      const size_t col0 = (t / row_tiles) * kTileColumns, row0 = (t % row_tiles) * kTileRows;
      RunTile<T>(plan, d, row0, std::min(kTileRows, plan.m - row0), col0, std::min(kTileColumns, plan.n - col0),
                 sums.data());
    }
  });
}

class I8GemmDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kI8Gemm;

  I8GemmDescriptor(const InfiniopHandle &handle, std::shared_ptr<const I8GemmPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      workspace_size = cuda::I8GemmWorkspaceBytes(static_cast<int64_t>(plan_->m), static_cast<int64_t>(plan_->n));
    }
#endif
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *bias, const void *x,
                         const void *x_scale, const void *weights, const void *weights_scale, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const I8GemmPlan &p = *plan_;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, p.m * p.n},
                                        {x, p.m * p.k},
                                        {x_scale, p.m},
                                        {weights, p.k * p.n},
                                        {weights_scale, p.n}}));
    if (p.has_bias) INFINIOP_RETURN_IF_ERROR(CheckData({{bias, p.n}}));
    const I8GemmData data{out, p.has_bias ? bias : nullptr, static_cast<const int8_t *>(x),
                          static_cast<const int8_t *>(weights), static_cast<const float *>(x_scale),
                          static_cast<const float *>(weights_scale)};
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const cuda::I8GemmGeometry g{static_cast<int64_t>(p.m), static_cast<int64_t>(p.n), static_cast<int64_t>(p.k),
                                   p.x_row, p.weights_column, p.out_row, p.x_scale_step, p.weights_scale_step,
                                   p.bias_step};
      return cuda::I8Gemm(*this, p.dtype, g, data.out, data.bias, data.x, data.x_scale, data.weights,
                          data.weights_scale, workspace, stream);
    }
#endif
    std::shared_ptr<const I8GemmPlan> plan = plan_;
    return Launch(*this, stream, [plan, data] {
      if (plan->dtype == INFINI_DTYPE_F16) {
        RunI8Gemm<f16_t>(*plan, data);
      } else {
        RunI8Gemm<bf16_t>(*plan, data);
      }
    });
  }

 private:
  std::shared_ptr<const I8GemmPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(I8Gemm)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateI8GemmDescriptor(infiniopHandle_t handle, infiniopI8GemmDescriptor_t *desc_ptr,
                                                         infiniopTensorDescriptor_t out_desc,
                                                         infiniopTensorDescriptor_t bias_desc,
                                                         infiniopTensorDescriptor_t x_desc,
                                                         infiniopTensorDescriptor_t x_scale_desc,
                                                         infiniopTensorDescriptor_t weights_desc,
                                                         infiniopTensorDescriptor_t weights_scale_desc) {
  return CreateDescriptor(handle, desc_ptr, {out_desc, x_desc, x_scale_desc, weights_desc, weights_scale_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<I8GemmPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*out_desc, bias_desc, *x_desc, *x_scale_desc,
                                                              *weights_desc, *weights_scale_desc, plan.get()));
                            made->reset(new I8GemmDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetI8GemmWorkspaceSize(infiniopI8GemmDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<I8GemmDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopI8Gemm(infiniopI8GemmDescriptor_t desc, void *workspace, size_t workspace_size,
                                         void *out, const void *bias, const void *x, const void *x_scale,
                                         const void *weights, const void *weights_scale, void *stream) {
  I8GemmDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, bias, x, x_scale, weights, weights_scale, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyI8GemmDescriptor(infiniopI8GemmDescriptor_t desc) {
  return DestroyDescriptor<I8GemmDescriptor>(desc);
}
