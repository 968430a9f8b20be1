#include "op/host_gemm.h"

#include "op/descriptor_records.h"
#include "op/layout_tracking.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<GemmLayouts> selected;
GemmSelect select_fn = nullptr;
GemmHostWrites writes_fn = nullptr;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopGemmDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                              infiniopTensorDescriptor_t b_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateGemmDescriptor(handle, desc_ptr, c_desc, a_desc, b_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto c = LayoutOf(c_desc), a = LayoutOf(a_desc), b = LayoutOf(b_desc);
  if (c && a && b) {
    const GemmLayouts layouts{*c, *a, *b};
    if (select_fn(layouts)) selected.Put(*desc_ptr, layouts);
  }
  return status;
}

infiniStatus_t GemmOnHost(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size, void *c, const void *a,
                          const void *b, float alpha, float beta, void *stream) {
  auto real = [&] { return TargetOp().infiniopGemm(desc, workspace, workspace_size, c, a, b, alpha, beta, stream); };
  const auto layouts = desc != nullptr ? selected.Find(desc) : std::nullopt;
  if (!layouts || c == nullptr || a == nullptr || b == nullptr) return real();
  return ComputeOnHostInstead(stream, [&] { return writes_fn(*layouts, c, a, b, alpha, beta); }, real);
}

infiniStatus_t DestroyForgetting(infiniopGemmDescriptor_t desc) {
  selected.Erase(desc);
  return TargetOp().infiniopDestroyGemmDescriptor(desc);
}

}  // namespace

GemmMatrix::GemmMatrix(const TensorLayout &of) {
  const size_t ndim = of.shape.size();
  row_stride = of.strides[ndim - 2];
  col_stride = of.strides[ndim - 1];
  batch_stride = ndim == 3 && of.shape[0] > 1 ? of.strides[0] : 0;
}

void InstallHostGemm(OpTable &calls, GemmSelect select, GemmHostWrites writes) {
  select_fn = select;
  writes_fn = writes;
  TrackTensorLayouts(calls);
  calls.infiniopCreateGemmDescriptor = &CreateRecorded;
  calls.infiniopGemm = &GemmOnHost;
  calls.infiniopDestroyGemmDescriptor = &DestroyForgetting;
}

}  // namespace infinicts::fault
