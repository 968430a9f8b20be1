// DequantizeGPTQ: out [K, N] = (q − (z + 1))·scales from GPTQ's words (spec section OP-INT4),
// each row's group from g_idx: rows in parallel; a row's values share one nibble of their words,
// its zeros and scales one group row; each row through core/simd_int4.h's vector kernel where
// there is one, else element by element through core/int4_words.h.
#include <cmath>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "core/simd_int4.h"
#include "infiniop.h"
#include "ops/int4_dequant.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/int4_dequant.h"
#endif

namespace infinicts::ref::op {
namespace {

template <class T>
void RunTyped(const Int4Geometry &g, T *out, const int32_t *qweight, const T *scales, const int32_t *zeros,
              const int32_t *g_idx) {
  const bool vector = simd::Enabled();
  ParallelFor(static_cast<size_t>(g.k), kInt4RowGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const auto row = static_cast<int64_t>(k);
      T *out_row = out + row * g.n;
      const int64_t group = g_idx[k];
      if (group < 0 || group >= g.groups) {
        // No group: the row has no defined value (OP-DEQUANTIZEGPTQ-4), and NaN says so.
        for (int64_t n = 0; n < g.n; ++n) out_row[n] = Num<T>::Store(NAN);
        continue;
      }
      if (vector) {
        simd::GptqRow(qweight + (row / kValuesPerWord) * g.n, static_cast<int>(row % kValuesPerWord),
                      zeros + group * g.zero_words, reinterpret_cast<const uint16_t *>(scales + group * g.n),
                      reinterpret_cast<uint16_t *>(out_row), static_cast<size_t>(g.n), kIsBf16<T>);
        continue;
      }
      Int4Element element{};
      for (int64_t n = 0; n < g.n; ++n) {
        GptqElement(g, qweight, zeros, g_idx, row, n, &element);
        out_row[n] = ScaledElement(element, scales);
      }
    }
  });
}

class DequantizeGPTQDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kDequantizeGPTQ;

  DequantizeGPTQDescriptor(const InfiniopHandle &handle, Int4DequantPlan plan)
      : InfiniopDescriptor(kKind, handle), plan_(plan) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *qweight,
                         const void *scales, const void *zeros, const void *g_idx, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const Int4Geometry g = plan_.g;
    const auto k = static_cast<size_t>(g.k), n = static_cast<size_t>(g.n), groups = static_cast<size_t>(g.groups);
    const size_t word_rows = (k + kValuesPerWord - 1) / kValuesPerWord;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, k * n},
                                        {qweight, word_rows * n},
                                        {scales, groups * n},
                                        {zeros, groups * static_cast<size_t>(g.zero_words)},
                                        {g_idx, k}}));
    auto *q = static_cast<const int32_t *>(qweight);
    auto *z = static_cast<const int32_t *>(zeros);
    auto *groups_of_rows = static_cast<const int32_t *>(g_idx);
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::DequantizeGptq(*this, plan_.dtype, g, out, q, scales, z, groups_of_rows, stream);
    }
#endif
    const infiniDtype_t dtype = plan_.dtype;
    return Launch(*this, stream, [g, dtype, out, q, scales, z, groups_of_rows] {
      if (dtype == INFINI_DTYPE_F16) {
        RunTyped(g, static_cast<f16_t *>(out), q, static_cast<const f16_t *>(scales), z, groups_of_rows);
      } else {
        RunTyped(g, static_cast<bf16_t *>(out), q, static_cast<const bf16_t *>(scales), z, groups_of_rows);
      }
    });
  }

 private:
  Int4DequantPlan plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(DequantizeGPTQ)
#endif

// out [K, N], qweight [⌈K/8⌉, N], scales [G, N], zeros [G, ⌈N/8⌉], g_idx [K] (OP-DEQUANTIZEGPTQ-2).
infiniStatus_t MakePlan(const TensorLayout &out, const TensorLayout &qweight, const TensorLayout &scales,
                        const TensorLayout &zeros, const TensorLayout &g_idx, Int4DequantPlan *plan) {
  INFINIOP_RETURN_IF_ERROR(CheckInt4Dtypes(out, scales, {&qweight, &zeros, &g_idx}));
  if (out.ndim() != 2 || qweight.ndim() != 2 || scales.ndim() != 2 || zeros.ndim() != 2 || g_idx.ndim() != 1) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t k = out.shape[0], n = out.shape[1], groups = scales.shape[0];
  const size_t zero_words = (n + kValuesPerWord - 1) / kValuesPerWord;
  const bool fits = qweight.shape[0] == (k + kValuesPerWord - 1) / kValuesPerWord && qweight.shape[1] == n &&
                    scales.shape[1] == n && zeros.shape[0] == groups && zeros.shape[1] == zero_words &&
                    g_idx.shape[0] == k && groups > 0;
  if (!fits) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  INFINIOP_RETURN_IF_ERROR(CheckInt4Layouts({&out, &qweight, &scales, &zeros, &g_idx}));
  plan->dtype = out.dtype;
  plan->g = {static_cast<int64_t>(k), static_cast<int64_t>(n), static_cast<int64_t>(groups), 0,
             static_cast<int64_t>(zero_words)};
  return INFINI_STATUS_SUCCESS;
}

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateDequantizeGPTQDescriptor(infiniopHandle_t handle,
                                                                 infiniopDequantizeGPTQDescriptor_t *desc_ptr,
                                                                 infiniopTensorDescriptor_t out_desc,
                                                                 infiniopTensorDescriptor_t qweight_desc,
                                                                 infiniopTensorDescriptor_t scales_desc,
                                                                 infiniopTensorDescriptor_t zeros_desc,
                                                                 infiniopTensorDescriptor_t g_idx_desc) {
  return CreateDescriptor(handle, desc_ptr, {out_desc, qweight_desc, scales_desc, zeros_desc, g_idx_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            Int4DequantPlan plan{};
                            INFINIOP_RETURN_IF_ERROR(
                                MakePlan(*out_desc, *qweight_desc, *scales_desc, *zeros_desc, *g_idx_desc, &plan));
                            made->reset(new DequantizeGPTQDescriptor(h, plan));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetDequantizeGPTQWorkspaceSize(infiniopDequantizeGPTQDescriptor_t desc,
                                                                 size_t *size) {
  return GetWorkspaceSize<DequantizeGPTQDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopDequantizeGPTQ(infiniopDequantizeGPTQDescriptor_t desc, void *workspace,
                                                 size_t workspace_size, void *out, const void *qweight,
                                                 const void *scales, const void *zeros, const void *g_idx,
                                                 void *stream) {
  DequantizeGPTQDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, qweight, scales, zeros, g_idx, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyDequantizeGPTQDescriptor(infiniopDequantizeGPTQDescriptor_t desc) {
  return DestroyDescriptor<DequantizeGPTQDescriptor>(desc);
}
