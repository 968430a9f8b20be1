// The fault `rearrange_extent_from_outer_stride`: a Rearrange whose two tensors are row-major
// (their size-1 dims aside, rightly) takes the fast path of one flat copy, but sizes it as
// |stride[0]| · shape[0] of src, as a backend that reads the tensor's extent off its outermost
// dim. That is right until dim 0 has size 1 and a stride no row-major layout gives it (what a
// reshape or an unsqueeze leaves): then it copies too little. Emulated by running the real
// call and putting back, after it, the destination bytes past that extent. (Too large an
// extent would write past dst; the emulation does not go there.)
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "op/descriptor_records.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

struct CopyLayouts {
  TensorLayout dst, src;
};

DescriptorRecords<CopyLayouts> copies;  // descriptors whose fast path copies too little

bool RowMajorApartFromUnitDims(const TensorLayout &layout) {
  const std::vector<ptrdiff_t> row_major = ContiguousStrides(layout.shape);
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] != 1 && layout.strides[d] != row_major[d]) return false;
  }
  return true;
}

// The elements the flat copy takes, where it takes fewer than the tensor has.
size_t ShortExtent(const CopyLayouts &layouts) {
  const TensorLayout &src = layouts.src;
  if (src.shape.empty()) return src.ElementCount();
  const size_t extent = static_cast<size_t>(std::llabs(src.strides[0])) * src.shape[0];
  return std::min(extent, src.ElementCount());
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopRearrangeDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t dst, infiniopTensorDescriptor_t src) {
  const infiniStatus_t status = TargetOp().infiniopCreateRearrangeDescriptor(handle, desc_ptr, dst, src);
  if (status != INFINI_STATUS_SUCCESS || desc_ptr == nullptr) return status;
  const auto dst_layout = LayoutOf(dst), src_layout = LayoutOf(src);
  if (dst_layout && src_layout && DtypeBytes(dst_layout->dtype) != 0 && RowMajorApartFromUnitDims(*dst_layout) &&
      RowMajorApartFromUnitDims(*src_layout) && ShortExtent({*dst_layout, *src_layout}) < src_layout->ElementCount()) {
    copies.Put(*desc_ptr, {*dst_layout, *src_layout});
  } else {
    copies.Erase(*desc_ptr);  // the address may be a destroyed descriptor's
  }
  return status;
}

infiniStatus_t RearrangeCopyingTooLittle(infiniopRearrangeDescriptor_t desc, void *dst, const void *src,
                                         void *stream) {
  const auto layouts = desc != nullptr ? copies.Find(desc) : std::nullopt;
  if (!layouts || dst == nullptr || src == nullptr || !WaitForStream(stream)) {
    return TargetOp().infiniopRearrange(desc, dst, src, stream);
  }
  const size_t bytes = DtypeBytes(layouts->dst.dtype);
  const size_t kept = ShortExtent(*layouts) * bytes, total = layouts->dst.ElementCount() * bytes;
  auto *tail = static_cast<unsigned char *>(dst) + kept;
  const std::vector<unsigned char> before(tail, tail + (total - kept));
  const infiniStatus_t status = TargetOp().infiniopRearrange(desc, dst, src, stream);
  if (status == INFINI_STATUS_SUCCESS && WaitForStream(stream)) std::memcpy(tail, before.data(), before.size());
  return status;
}

infiniStatus_t DestroyForgetting(infiniopRearrangeDescriptor_t desc) {
  copies.Erase(desc);
  return TargetOp().infiniopDestroyRearrangeDescriptor(desc);
}

}  // namespace

void InstallRearrangeExtentFromOuterStride(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateRearrangeDescriptor = &CreateRecorded;
  calls.infiniopRearrange = &RearrangeCopyingTooLittle;
  calls.infiniopDestroyRearrangeDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "rearrange_extent_from_outer_stride",
                "Rearrange of two row-major tensors copies |stride[0]| * shape[0] elements of src flat, a size-1 dim 0 included",
                InstallRearrangeExtentFromOuterStride);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The copies from a source whose dim 0 has size 1 and a stride of 0 or 1.
// fault-detection: rearrange_extent_from_outer_stride SUITE op TIMEOUT 30 FILTER op.rearrange.* ONLY EXPECT
// fault-detection:   op.rearrange.accuracy/matches_oracle/*/1x6x7/dst_contig_src_unit_odd
// fault-detection:   op.rearrange.accuracy/matches_oracle/*/1x1x33/dst_contig_src_unit_odd
// fault-detection:   op.rearrange.accuracy/matches_oracle/*/1x3x1x7x1/dst_unit_odd_src_unit_odd
