// The fault `gemm_f16_accumulates_in_f16`: F16 Gemm on the host with an F16 accumulator,
// every partial sum of a dot product rounded to F16 (a long sum of positive products
// stalls once the sum's spacing exceeds them). Other dtypes go to the target untouched.
#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

struct GemmLayouts {
  TensorLayout c, a, b;
};

DescriptorRecords<GemmLayouts> gemm_layouts;

// One operand's strides: a 2-D operand, or a batch of 1, serves every batch.
struct Matrix {
  ptrdiff_t batch_stride, row_stride, col_stride;

  explicit Matrix(const TensorLayout &of) {
    const size_t ndim = of.shape.size();
    row_stride = of.strides[ndim - 2];
    col_stride = of.strides[ndim - 1];
    batch_stride = ndim == 3 && of.shape[0] > 1 ? of.strides[0] : 0;
  }
  ptrdiff_t At(size_t batch, size_t row, size_t col) const {
    return static_cast<ptrdiff_t>(batch) * batch_stride + static_cast<ptrdiff_t>(row) * row_stride +
           static_cast<ptrdiff_t>(col) * col_stride;
  }
};

std::vector<ElementWrite> HalfAccumulatedGemm(const GemmLayouts &layouts, void *c, const void *a, const void *b,
                                              float alpha, float beta) {
  const Matrix cm(layouts.c), am(layouts.a), bm(layouts.b);
  const size_t ndim = layouts.c.shape.size();
  const size_t batches = ndim == 3 ? layouts.c.shape[0] : 1;
  const size_t m = layouts.c.shape[ndim - 2], n = layouts.c.shape[ndim - 1];
  const size_t k = layouts.a.shape.back();
  std::vector<ElementWrite> writes;
  writes.reserve(batches * m * n);
  for (size_t batch = 0; batch < batches; ++batch) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (size_t p = 0; p < k; ++p) {
          const float product = static_cast<float>(LoadElement(INFINI_DTYPE_F16, a, am.At(batch, i, p)) *
                                                   LoadElement(INFINI_DTYPE_F16, b, bm.At(batch, p, j)));
          sum = RoundToHalf(sum + product);
        }
        const ptrdiff_t at = cm.At(batch, i, j);
        // beta = 0 reads nothing of C (its prior content may be NaN).
        const float prior = beta == 0.0f ? 0.0f : beta * static_cast<float>(LoadElement(INFINI_DTYPE_F16, c, at));
        writes.push_back({c, INFINI_DTYPE_F16, at, RoundToHalf(alpha * sum + prior)});
      }
    }
  }
  return writes;
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopGemmDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                              infiniopTensorDescriptor_t b_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateGemmDescriptor(handle, desc_ptr, c_desc, a_desc, b_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto c = LayoutOf(c_desc), a = LayoutOf(a_desc), b = LayoutOf(b_desc);
  if (c && a && b && c->dtype == INFINI_DTYPE_F16) gemm_layouts.Put(*desc_ptr, {*c, *a, *b});
  return status;
}

infiniStatus_t HalfAccumulatingGemm(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                    const void *a, const void *b, float alpha, float beta, void *stream) {
  auto real = [&] { return TargetOp().infiniopGemm(desc, workspace, workspace_size, c, a, b, alpha, beta, stream); };
  const auto layouts = desc != nullptr ? gemm_layouts.Find(desc) : std::nullopt;
  if (!layouts || c == nullptr || a == nullptr || b == nullptr) return real();
  return ComputeOnHostInstead(
      stream, [&] { return HalfAccumulatedGemm(*layouts, c, a, b, alpha, beta); }, real);
}

infiniStatus_t DestroyForgetting(infiniopGemmDescriptor_t desc) {
  gemm_layouts.Erase(desc);
  return TargetOp().infiniopDestroyGemmDescriptor(desc);
}

}  // namespace

void InstallGemmF16AccumulatesInF16(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateGemmDescriptor = &CreateRecorded;
  calls.infiniopGemm = &HalfAccumulatingGemm;
  calls.infiniopDestroyGemmDescriptor = &DestroyForgetting;
}

}  // namespace infinicts::fault
