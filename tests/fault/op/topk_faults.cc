// A fault of TopK (spec section OP-TOPK), applied on the host once the real call has run (it
// checks the arguments and answers the status) and its work is done:
// - topk_indices_through_values_strides: the positions are written through values_output's
//   strides instead of indices_output's own, as InfiniCore's CPU kernel writes them (right only
//   where both outputs share a layout).
#include <cstdint>
#include <optional>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

struct TopKLayouts {
  TensorLayout values, indices;
};
DescriptorRecords<TopKLayouts> topk_layouts;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopTopKDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t values, infiniopTensorDescriptor_t indices,
                              infiniopTensorDescriptor_t input, size_t k, size_t dim, bool largest, bool sorted) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateTopKDescriptor(handle, desc_ptr, values, indices, input, k, dim, largest, sorted);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto v = LayoutOf(values), ix = LayoutOf(indices);
  if (v && ix && v->shape == ix->shape && (ix->dtype == INFINI_DTYPE_I32 || ix->dtype == INFINI_DTYPE_I64)) {
    topk_layouts.Put(*desc_ptr, {*v, *ix});
  } else {
    topk_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopTopKDescriptor_t desc) {
  topk_layouts.Erase(desc);
  return TargetOp().infiniopDestroyTopKDescriptor(desc);
}

infiniStatus_t IndicesThroughValuesStrides(infiniopTopKDescriptor_t desc, void *workspace, size_t workspace_size,
                                           void *values, void *indices, const void *input, size_t k, size_t dim,
                                           bool largest, bool sorted, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopTopK(desc, workspace, workspace_size, values, indices, input, k, dim, largest, sorted,
                                   stream);
  };
  const auto l = desc != nullptr ? topk_layouts.Find(desc) : std::nullopt;
  if (!l || values == nullptr || indices == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    // Read every position where it belongs, then write each where values' layout puts it.
    std::vector<int64_t> positions;
    ForEachElement(
        [&](ptrdiff_t at) {
          positions.push_back(l->indices.dtype == INFINI_DTYPE_I32 ? static_cast<const int32_t *>(indices)[at]
                                                                   : static_cast<const int64_t *>(indices)[at]);
        },
        l->indices);
    TensorLayout misplaced = l->indices;
    misplaced.strides = l->values.strides;
    if (misplaced.HighestOffset() > l->indices.HighestOffset()) return;  // would leave indices' storage
    size_t i = 0;
    ForEachElement(
        [&](ptrdiff_t at) {
          if (at < 0) return;
          if (l->indices.dtype == INFINI_DTYPE_I32) {
            static_cast<int32_t *>(indices)[at] = static_cast<int32_t>(positions[i++]);
          } else {
            static_cast<int64_t *>(indices)[at] = positions[i++];
          }
        },
        misplaced);
  });
}

}  // namespace

void InstallTopKIndicesThroughValuesStrides(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateTopKDescriptor = &CreateRecorded;
  calls.infiniopTopK = &IndicesThroughValuesStrides;
  calls.infiniopDestroyTopKDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "topk_indices_through_values_strides",
                "TopK writes indices_output through values_output's strides instead of its own",
                InstallTopKIndicesThroughValuesStrides);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every case whose indices_output's layout is not values_output's (OP-TOPK-3), where the
// misplaced writes stay inside indices' storage (a padded values_output's do not: left alone).
// fault-detection: topk_indices_through_values_strides SUITE op TIMEOUT 60 FILTER op.topk.* ONLY EXPECT
// fault-detection:   op.topk.accuracy/matches_oracle/*/values_contig_indices_pad_*
// fault-detection:   op.topk.accuracy/matches_oracle/*/values_trans_indices_contig_*
