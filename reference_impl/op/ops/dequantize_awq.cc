// DequantizeAWQ: out [K, N] = (q − z)·scales from AWQ's words (spec section OP-INT4): rows in
// parallel, each row through core/simd_int4.h's vector kernel where there is one, else element
// by element through core/int4_words.h.
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
void RunTyped(const Int4Geometry &g, T *out, const int32_t *qweight, const T *scales, const int32_t *zeros) {
  const bool vector = simd::Enabled();
  ParallelFor(static_cast<size_t>(g.k), kInt4RowGrain, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const auto row = static_cast<int64_t>(k);
      T *out_row = out + row * g.n;
      if (vector) {
        const int64_t group = row / g.group_size;
        simd::AwqRow(qweight + row * g.zero_words, zeros + group * g.zero_words,
                     reinterpret_cast<const uint16_t *>(scales + group * g.n), reinterpret_cast<uint16_t *>(out_row),
                     static_cast<size_t>(g.zero_words), kIsBf16<T>);
        continue;
      }
      for (int64_t n = 0; n < g.n; ++n) out_row[n] = ScaledElement(AwqElement(g, qweight, zeros, row, n), scales);
    }
  });
}

class DequantizeAWQDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kDequantizeAWQ;

  DequantizeAWQDescriptor(const InfiniopHandle &handle, Int4DequantPlan plan)
      : InfiniopDescriptor(kKind, handle), plan_(plan) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *qweight,
                         const void *scales, const void *zeros, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const Int4Geometry g = plan_.g;
    const auto k = static_cast<size_t>(g.k), n = static_cast<size_t>(g.n), groups = static_cast<size_t>(g.groups);
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, k * n},
                                        {qweight, k * n / kValuesPerWord},
                                        {scales, groups * n},
                                        {zeros, groups * n / kValuesPerWord}}));
    auto *q = static_cast<const int32_t *>(qweight);
    auto *z = static_cast<const int32_t *>(zeros);
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) return cuda::DequantizeAwq(*this, plan_.dtype, g, out, q, scales, z, stream);
#endif
    const infiniDtype_t dtype = plan_.dtype;
    return Launch(*this, stream, [g, dtype, out, q, scales, z] {
      if (dtype == INFINI_DTYPE_F16) {
        RunTyped(g, static_cast<f16_t *>(out), q, static_cast<const f16_t *>(scales), z);
      } else {
        RunTyped(g, static_cast<bf16_t *>(out), q, static_cast<const bf16_t *>(scales), z);
      }
    });
  }

 private:
  Int4DequantPlan plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(DequantizeAWQ)
#endif

// out [K, N], qweight [K, N/8], scales [G, N], zeros [G, N/8], G dividing K (OP-DEQUANTIZEAWQ-2).
infiniStatus_t MakePlan(const TensorLayout &out, const TensorLayout &qweight, const TensorLayout &scales,
                        const TensorLayout &zeros, Int4DequantPlan *plan) {
  INFINIOP_RETURN_IF_ERROR(CheckInt4Dtypes(out, scales, {&qweight, &zeros}));
  if (out.ndim() != 2 || qweight.ndim() != 2 || scales.ndim() != 2 || zeros.ndim() != 2) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t k = out.shape[0], n = out.shape[1], groups = scales.shape[0];
  const size_t words = n / kValuesPerWord;
  const bool fits = n % kValuesPerWord == 0 && qweight.shape[0] == k && qweight.shape[1] == words &&
                    scales.shape[1] == n && zeros.shape[0] == groups && zeros.shape[1] == words && groups > 0 &&
                    k % groups == 0;
  if (!fits) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  INFINIOP_RETURN_IF_ERROR(CheckInt4Layouts({&out, &qweight, &scales, &zeros}));
  plan->dtype = out.dtype;
  plan->g = {static_cast<int64_t>(k), static_cast<int64_t>(n), static_cast<int64_t>(groups),
             static_cast<int64_t>(k / groups), static_cast<int64_t>(words)};
  return INFINI_STATUS_SUCCESS;
}

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateDequantizeAWQDescriptor(infiniopHandle_t handle,
                                                                infiniopDequantizeAWQDescriptor_t *desc_ptr,
                                                                infiniopTensorDescriptor_t out_desc,
                                                                infiniopTensorDescriptor_t qweight_desc,
                                                                infiniopTensorDescriptor_t scales_desc,
                                                                infiniopTensorDescriptor_t zeros_desc) {
  return CreateDescriptor(handle, desc_ptr, {out_desc, qweight_desc, scales_desc, zeros_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            Int4DequantPlan plan{};
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*out_desc, *qweight_desc, *scales_desc, *zeros_desc, &plan));
                            made->reset(new DequantizeAWQDescriptor(h, plan));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetDequantizeAWQWorkspaceSize(infiniopDequantizeAWQDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<DequantizeAWQDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopDequantizeAWQ(infiniopDequantizeAWQDescriptor_t desc, void *workspace,
                                                size_t workspace_size, void *out, const void *qweight,
                                                const void *scales, const void *zeros, void *stream) {
  DequantizeAWQDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, qweight, scales, zeros, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyDequantizeAWQDescriptor(infiniopDequantizeAWQDescriptor_t desc) {
  return DestroyDescriptor<DequantizeAWQDescriptor>(desc);
}
