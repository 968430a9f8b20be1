// The fault `integer_add_through_f32`: Add on I32 and I64 tensors gives the sum as an F32
// computation would, rounded to F32's 24 significant bits (an integer path built on the
// float kernels). Results of magnitude up to 2^24 stay exact, larger ones do not.
#include <cstdint>
#include <cstring>

#include "op/descriptor_records.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<TensorLayout> integer_outputs;  // of the Add descriptors with an I32 or I64 output

template <class I>
void RoundThroughF32(void *base, ptrdiff_t offset) {
  I value;
  unsigned char *at = static_cast<unsigned char *>(base) + offset * static_cast<ptrdiff_t>(sizeof(I));
  std::memcpy(&value, at, sizeof(I));
  value = static_cast<I>(static_cast<float>(value));
  std::memcpy(at, &value, sizeof(I));
}

// Every element the layout reaches, odometer order.
void RoundOutput(const TensorLayout &layout, void *c) {
  ForEachElement([&](ptrdiff_t offset) {
    if (layout.dtype == INFINI_DTYPE_I32) RoundThroughF32<int32_t>(c, offset);
    else RoundThroughF32<int64_t>(c, offset);
  }, layout);
}

infiniStatus_t CreateAddRecorded(infiniopHandle_t handle, infiniopAddDescriptor_t *desc_ptr,
                                 infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                 infiniopTensorDescriptor_t b_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateAddDescriptor(handle, desc_ptr, c_desc, a_desc, b_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (const auto layout = LayoutOf(c_desc);
      layout && (layout->dtype == INFINI_DTYPE_I32 || layout->dtype == INFINI_DTYPE_I64)) {
    integer_outputs.Put(*desc_ptr, *layout);
  }
  return status;
}

infiniStatus_t AddThroughF32(infiniopAddDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                             const void *a, const void *b, void *stream) {
  const infiniStatus_t status = TargetOp().infiniopAdd(desc, workspace, workspace_size, c, a, b, stream);
  const auto layout = integer_outputs.Find(desc);
  if (status != INFINI_STATUS_SUCCESS || !layout || c == nullptr || !WaitForStream(stream)) return status;
  RoundOutput(*layout, c);
  return status;
}

infiniStatus_t DestroyAddForgetting(infiniopAddDescriptor_t desc) {
  integer_outputs.Erase(desc);
  return TargetOp().infiniopDestroyAddDescriptor(desc);
}

}  // namespace

void InstallIntegerAddThroughF32(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateAddDescriptor = &CreateAddRecorded;
  calls.infiniopAdd = &AddThroughF32;
  calls.infiniopDestroyAddDescriptor = &DestroyAddForgetting;
}
INFINICTS_FAULT(OpTable, "integer_add_through_f32",
                "Add on I32 and I64 rounds its sums to F32's 24 significant bits",
                InstallIntegerAddThroughF32);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Integer Add (an optional capability, checked exactly) done through F32: every integer
// accuracy case, whose sums lie beyond 2^24.
// fault-detection: integer_add_through_f32 SUITE op TIMEOUT 30 FILTER op.add.* EXPECT
// fault-detection:   op.add.accuracy/matches_oracle/i[36]*
