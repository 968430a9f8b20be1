// The fault `writes_past_output`: Add and Relu, once their real work is done, change the
// element right after the last one their output's layout reaches (every bit flipped, so
// the change shows whatever was there).
#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<TensorLayout> output_layouts;  // of the Add and Relu descriptors

// The bytes of one output element: the float dtypes, and Add's integer ones.
size_t OutputBytes(infiniDtype_t dtype) {
  const bool written = IsFloatDtype(dtype) || dtype == INFINI_DTYPE_I32 || dtype == INFINI_DTYPE_I64;
  return written ? DtypeBytes(dtype) : 0;
}

void RecordOutput(infiniStatus_t status, const InfiniopDescriptor *desc, infiniopTensorDescriptor_t output) {
  if (status != INFINI_STATUS_SUCCESS) return;
  if (const auto layout = LayoutOf(output); layout && OutputBytes(layout->dtype) > 0)
    output_layouts.Put(desc, *layout);
}

// After a successful call: waits for its work, then flips the element past the output's span.
infiniStatus_t WritePastOutput(infiniStatus_t status, const InfiniopDescriptor *desc, void *output, void *stream) {
  if (status != INFINI_STATUS_SUCCESS || output == nullptr) return status;
  const auto layout = output_layouts.Find(desc);
  if (!layout || layout->ElementCount() == 0 || !WaitForStream(stream)) return status;
  const size_t bytes = OutputBytes(layout->dtype);
  unsigned char *past =
      static_cast<unsigned char *>(output) + (layout->HighestOffset() + 1) * static_cast<ptrdiff_t>(bytes);
  for (size_t i = 0; i < bytes; ++i) past[i] = static_cast<unsigned char>(~past[i]);
  return status;
}

infiniStatus_t CreateAddRecorded(infiniopHandle_t handle, infiniopAddDescriptor_t *desc_ptr,
                                 infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                 infiniopTensorDescriptor_t b_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateAddDescriptor(handle, desc_ptr, c_desc, a_desc, b_desc);
  RecordOutput(status, status == INFINI_STATUS_SUCCESS ? *desc_ptr : nullptr, c_desc);
  return status;
}

infiniStatus_t CreateReluRecorded(infiniopHandle_t handle, infiniopReluDescriptor_t *desc_ptr,
                                  infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateReluDescriptor(handle, desc_ptr, y_desc, x_desc);
  RecordOutput(status, status == INFINI_STATUS_SUCCESS ? *desc_ptr : nullptr, y_desc);
  return status;
}

infiniStatus_t AddWritingPast(infiniopAddDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                              const void *a, const void *b, void *stream) {
  return WritePastOutput(TargetOp().infiniopAdd(desc, workspace, workspace_size, c, a, b, stream), desc, c, stream);
}

infiniStatus_t ReluWritingPast(infiniopReluDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                               const void *x, void *stream) {
  return WritePastOutput(TargetOp().infiniopRelu(desc, workspace, workspace_size, y, x, stream), desc, y, stream);
}

infiniStatus_t DestroyAddForgetting(infiniopAddDescriptor_t desc) {
  output_layouts.Erase(desc);
  return TargetOp().infiniopDestroyAddDescriptor(desc);
}

infiniStatus_t DestroyReluForgetting(infiniopReluDescriptor_t desc) {
  output_layouts.Erase(desc);
  return TargetOp().infiniopDestroyReluDescriptor(desc);
}

}  // namespace

void InstallWritesPastOutput(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateAddDescriptor = &CreateAddRecorded;
  calls.infiniopAdd = &AddWritingPast;
  calls.infiniopDestroyAddDescriptor = &DestroyAddForgetting;
  calls.infiniopCreateReluDescriptor = &CreateReluRecorded;
  calls.infiniopRelu = &ReluWritingPast;
  calls.infiniopDestroyReluDescriptor = &DestroyReluForgetting;
}
INFINICTS_FAULT(OpTable, "writes_past_output",
                "Add and Relu change the element after the end of their output's span",
                InstallWritesPastOutput);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// fault-detection: writes_past_output SUITE op TIMEOUT 30 FILTER op.add.* op.relu.* EXPECT
// fault-detection:   op.add.accuracy/* op.relu.accuracy/*
