// A fault of MoeSum (spec section OP-MOESUM), applied on the host once the real call has run
// (it checks the arguments and answers the status) and its work is done:
// - moe_sum_indexes_contiguously: input[t, j, h] read at t·k·H + j·H + h and output[t, h] written
//   at t·H + h from their data pointers, whatever their strides, as InfiniCore's CUDA kernel
//   (vLLM's) indexes them.
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

struct MoeSumShape {
  infiniDtype_t dtype;
  size_t tokens, k, hidden;
};
DescriptorRecords<MoeSumShape> moe_sum_shapes;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopMoeSumDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t input) {
  const infiniStatus_t status = TargetOp().infiniopCreateMoeSumDescriptor(handle, desc_ptr, output, input);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(output), in = LayoutOf(input);
  if (o && in && in->shape.size() == 3 && o->shape.size() == 2 && IsFloatDtype(in->dtype)) {
    moe_sum_shapes.Put(*desc_ptr, {in->dtype, in->shape[0], in->shape[1], in->shape[2]});
  } else {
    moe_sum_shapes.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopMoeSumDescriptor_t desc) {
  moe_sum_shapes.Erase(desc);
  return TargetOp().infiniopDestroyMoeSumDescriptor(desc);
}

infiniStatus_t IndexingContiguously(infiniopMoeSumDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *output, const void *input, void *stream) {
  const auto real = [&] { return TargetOp().infiniopMoeSum(desc, workspace, workspace_size, output, input, stream); };
  const auto s = desc != nullptr ? moe_sum_shapes.Find(desc) : std::nullopt;
  if (!s || output == nullptr || input == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    for (size_t t = 0; t < s->tokens; ++t) {
      for (size_t h = 0; h < s->hidden; ++h) {
        double sum = 0;
        for (size_t j = 0; j < s->k; ++j) {
          sum += LoadElement(s->dtype, input, static_cast<ptrdiff_t>((t * s->k + j) * s->hidden + h));
        }
        StoreElement(s->dtype, output, static_cast<ptrdiff_t>(t * s->hidden + h), sum);
      }
    }
  });
}

}  // namespace

void InstallMoeSumIndexingContiguously(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateMoeSumDescriptor = &CreateRecorded;
  calls.infiniopMoeSum = &IndexingContiguously;
  calls.infiniopDestroyMoeSumDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "moe_sum_indexes_contiguously",
                "MoeSum reads input and writes output at their contiguous offsets, whatever their strides",
                InstallMoeSumIndexingContiguously);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every padded or view token row of input or output (OP-MOESUM-3); offset views pass (their
// data pointers are their first elements).
// fault-detection: moe_sum_indexes_contiguously SUITE op TIMEOUT 60 FILTER op.moe_sum.* EXPECT
// fault-detection:   op.moe_sum.accuracy/matches_oracle/*padded_tokens*
// fault-detection:   op.moe_sum.accuracy/matches_oracle/*output_pad*
