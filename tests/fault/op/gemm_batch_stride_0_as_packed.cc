// The fault `gemm_batch_stride_0_as_packed`: a Gemm that recognizes a broadcast operand by a
// batch of 1 alone and otherwise steps its batches as packed (batch stride = one matrix's
// extent), as if a stride of 0 meant "the default". A or B of batch > 1 with batch stride 0
// then reads, for every batch but the first, storage past the one matrix it has. What lies
// there is not the operand's: the emulation takes it as zeros (it must not read past the
// allocation itself), so those batches of C come out as beta·C.
#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<TensorLayout> c_layouts;  // of the descriptors with a stride-0 batch of A or B

bool BatchBroadcastByStride(const TensorLayout &operand) {
  return operand.shape.size() == 3 && operand.shape[0] > 1 && operand.strides[0] == 0;
}

// C's batches after the first as beta·C (0 where beta is 0: C is not read then).
std::vector<ElementWrite> LaterBatchesScaled(const TensorLayout &c_layout, void *c, float beta) {
  const size_t batches = c_layout.shape[0], m = c_layout.shape[1], n = c_layout.shape[2];
  std::vector<ElementWrite> writes;
  writes.reserve((batches - 1) * m * n);
  for (size_t batch = 1; batch < batches; ++batch) {
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        const ptrdiff_t at = static_cast<ptrdiff_t>(batch) * c_layout.strides[0] +
                             static_cast<ptrdiff_t>(i) * c_layout.strides[1] +
                             static_cast<ptrdiff_t>(j) * c_layout.strides[2];
        const double prior = beta == 0.0f ? 0.0 : beta * LoadElement(c_layout.dtype, c, at);
        writes.push_back({c, c_layout.dtype, at, prior});
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
  if (c && a && b && IsFloatDtype(c->dtype) && c->shape.size() == 3 &&
      (BatchBroadcastByStride(*a) || BatchBroadcastByStride(*b))) {
    c_layouts.Put(*desc_ptr, *c);
  }
  return status;
}

infiniStatus_t GemmSteppingPackedBatches(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                         const void *a, const void *b, float alpha, float beta, void *stream) {
  auto real = [&] { return TargetOp().infiniopGemm(desc, workspace, workspace_size, c, a, b, alpha, beta, stream); };
  const auto c_layout = desc != nullptr ? c_layouts.Find(desc) : std::nullopt;
  if (!c_layout || c == nullptr || a == nullptr || b == nullptr) return real();
  return ComputeOnHostInstead(stream, [&] { return LaterBatchesScaled(*c_layout, c, beta); }, real);
}

infiniStatus_t DestroyForgetting(infiniopGemmDescriptor_t desc) {
  c_layouts.Erase(desc);
  return TargetOp().infiniopDestroyGemmDescriptor(desc);
}

}  // namespace

void InstallGemmBatchStride0AsPacked(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateGemmDescriptor = &CreateRecorded;
  calls.infiniopGemm = &GemmSteppingPackedBatches;
  calls.infiniopDestroyGemmDescriptor = &DestroyForgetting;
}

}  // namespace infinicts::fault
