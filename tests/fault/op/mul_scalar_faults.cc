// A fault of MulScalar (spec section OP-MULSCALAR), applied on the host once the real call has
// run (it checks the arguments and answers the status) and its work is done:
// - mul_scalar_reads_input_contiguously: input's element number i in row-major order is read as
//   the i-th stored element, whatever input's strides, as a kernel that decides on its
//   contiguous path from the output's layout alone would read it.
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

struct MulScalarLayouts {
  TensorLayout output, input;
};
DescriptorRecords<MulScalarLayouts> mul_scalar_layouts;

// A broadcast input holds fewer elements than it has: reading them all in a row would leave it.
bool Broadcast(const TensorLayout &layout) {
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] > 1 && layout.strides[d] == 0) return true;
  }
  return false;
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopMulScalarDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t input) {
  const infiniStatus_t status = TargetOp().infiniopCreateMulScalarDescriptor(handle, desc_ptr, output, input);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(output), in = LayoutOf(input);
  if (o && in && o->shape == in->shape && IsFloatDtype(in->dtype) && !Broadcast(*in)) {
    mul_scalar_layouts.Put(*desc_ptr, {*o, *in});
  } else {
    mul_scalar_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopMulScalarDescriptor_t desc) {
  mul_scalar_layouts.Erase(desc);
  return TargetOp().infiniopDestroyMulScalarDescriptor(desc);
}

infiniStatus_t ReadingInputContiguously(infiniopMulScalarDescriptor_t desc, void *workspace, size_t workspace_size,
                                        void *output, const void *input, double alpha, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopMulScalar(desc, workspace, workspace_size, output, input, alpha, stream);
  };
  const auto l = desc != nullptr ? mul_scalar_layouts.Find(desc) : std::nullopt;
  // In place the input is gone once the real call has run: leave those calls alone.
  if (!l || output == nullptr || input == nullptr || output == input) return real();
  return OverwriteAfterReal(stream, real, [&] {
    TensorLayout row_major = l->input;
    row_major.strides = ContiguousStrides(l->input.shape);
    ForEachElement(
        [&](ptrdiff_t to, ptrdiff_t from) {
          StoreElement(l->output.dtype, output, to, alpha * LoadElement(l->input.dtype, input, from));
        },
        l->output, row_major);
  });
}

}  // namespace

void InstallMulScalarReadingInputContiguously(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateMulScalarDescriptor = &CreateRecorded;
  calls.infiniopMulScalar = &ReadingInputContiguously;
  calls.infiniopDestroyMulScalarDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "mul_scalar_reads_input_contiguously",
                "MulScalar reads input's element number i as the i-th stored element, whatever input's strides",
                InstallMulScalarReadingInputContiguously);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every input whose row-major order is not its storage order (OP-MULSCALAR-3): transposed,
// padded, a view, walked backwards; an offset input passes, and a broadcast one is left alone.
// fault-detection: mul_scalar_reads_input_contiguously SUITE op TIMEOUT 60 FILTER op.mul_scalar.* ONLY EXPECT
// fault-detection:   op.mul_scalar.accuracy/matches_oracle/*input_trans*
// fault-detection:   op.mul_scalar.accuracy/matches_oracle/*input_pad*
// fault-detection:   op.mul_scalar.accuracy/matches_oracle/*input_view*
// fault-detection:   op.mul_scalar.accuracy/matches_oracle/*input_flip*
