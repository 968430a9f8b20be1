// A fault of Take (spec section OP-TAKE), applied on the host once the real call has run (it
// checks the arguments and answers the status) and its work is done:
// - take_indexes_input_storage: input's element number k is read as the k-th stored element,
//   as InfiniCore's kernels read it, whatever input's strides (right only for a row-major
//   input from its storage's start).
#include <cstdint>
#include <optional>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

struct TakeLayouts {
  TensorLayout output, input, indices;
};
DescriptorRecords<TakeLayouts> take_layouts;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopTakeDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t input,
                              infiniopTensorDescriptor_t indices) {
  const infiniStatus_t status = TargetOp().infiniopCreateTakeDescriptor(handle, desc_ptr, output, input, indices);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(output), in = LayoutOf(input), ix = LayoutOf(indices);
  // Float data (element_values.h) and I32 or I64 indices.
  if (o && in && ix && o->shape == ix->shape && IsFloatDtype(in->dtype) &&
      (ix->dtype == INFINI_DTYPE_I32 || ix->dtype == INFINI_DTYPE_I64)) {
    take_layouts.Put(*desc_ptr, {*o, *in, *ix});
  } else {
    take_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopTakeDescriptor_t desc) {
  take_layouts.Erase(desc);
  return TargetOp().infiniopDestroyTakeDescriptor(desc);
}

// The storage offset of element number `i` of `layout` in row-major order.
ptrdiff_t RowMajorElement(const TensorLayout &layout, size_t i) {
  ptrdiff_t offset = 0;
  for (size_t d = layout.shape.size(); d-- > 0;) {
    offset += static_cast<ptrdiff_t>(i % layout.shape[d]) * layout.strides[d];
    i /= layout.shape[d];
  }
  return offset;
}

infiniStatus_t TakeIndexingStorage(infiniopTakeDescriptor_t desc, void *workspace, size_t workspace_size,
                                   void *output, const void *input, const void *indices, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopTake(desc, workspace, workspace_size, output, input, indices, stream);
  };
  const auto l = desc != nullptr ? take_layouts.Find(desc) : std::nullopt;
  if (!l || output == nullptr || input == nullptr || indices == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    size_t count = 1, taken = 1;
    for (size_t extent : l->input.shape) count *= extent;
    for (size_t extent : l->indices.shape) taken *= extent;
    for (size_t i = 0; i < taken; ++i) {
      const ptrdiff_t at = RowMajorElement(l->indices, i);
      const int64_t index = l->indices.dtype == INFINI_DTYPE_I32 ? static_cast<const int32_t *>(indices)[at]
                                                                 : static_cast<const int64_t *>(indices)[at];
      if (index < 0 || static_cast<size_t>(index) >= count) continue;
      const double value = LoadElement(l->input.dtype, input, static_cast<ptrdiff_t>(index));  // the k-th stored
      StoreElement(l->output.dtype, output, RowMajorElement(l->output, i), value);
    }
  });
}

}  // namespace

void InstallTakeIndexingStorage(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateTakeDescriptor = &CreateRecorded;
  calls.infiniopTake = &TakeIndexingStorage;
  calls.infiniopDestroyTakeDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "take_indexes_input_storage",
                "Take reads input's element number k as the k-th stored element, whatever input's strides",
                InstallTakeIndexingStorage);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every input whose row-major order is not its storage order: transposed, padded, a view,
// walked backwards (OP-TAKE-3); the row-major inputs pass, an offset one too (its data
// pointer is its first element).
// fault-detection: take_indexes_input_storage SUITE op TIMEOUT 60 FILTER op.take.* ONLY EXPECT
// fault-detection:   op.take.accuracy/matches_oracle/*input_trans*
// fault-detection:   op.take.accuracy/matches_oracle/*input_pad*
// fault-detection:   op.take.accuracy/matches_oracle/*input_view*
// fault-detection:   op.take.accuracy/matches_oracle/*input_flip*
