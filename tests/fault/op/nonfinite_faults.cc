// Two faults of kernels that lose non-finite values, emulated by running the real call and
// then changing what it wrote:
// - `relu_nan_to_zero`: Relu as a float max instruction computes it (max(x, 0) answering
//   the non-NaN operand), so NaN comes out 0;
// - `sigmoid_nan_at_infinity`: Sigmoid as e^x / (1 + e^x) in F32, which is Inf / Inf = NaN
//   wherever e^x overflows (x = +Inf, and x above ln(FLT_MAX)).
#include <cmath>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

// ln(FLT_MAX): e^x overflows F32 beyond it.
constexpr double kExpOverflowsF32 = 88.7228;

struct UnaryLayouts {
  TensorLayout y, x;
};

DescriptorRecords<UnaryLayouts> relu_layouts, sigmoid_layouts;

void Record(DescriptorRecords<UnaryLayouts> &records, infiniStatus_t status, const InfiniopDescriptor *desc,
            infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  if (status != INFINI_STATUS_SUCCESS) return;
  const auto y = LayoutOf(y_desc), x = LayoutOf(x_desc);
  if (!y || !x || !IsFloatDtype(y->dtype) || y->shape != x->shape) return records.Erase(desc);
  records.Put(desc, {*y, *x});
}

infiniStatus_t CreateReluRecorded(infiniopHandle_t handle, infiniopReluDescriptor_t *desc_ptr,
                                  infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateReluDescriptor(handle, desc_ptr, y_desc, x_desc);
  Record(relu_layouts, status, status == INFINI_STATUS_SUCCESS ? *desc_ptr : nullptr, y_desc, x_desc);
  return status;
}

infiniStatus_t ReluNanToZero(infiniopReluDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                             const void *x, void *stream) {
  const infiniStatus_t status = TargetOp().infiniopRelu(desc, workspace, workspace_size, y, x, stream);
  const auto layouts = relu_layouts.Find(desc);
  if (status != INFINI_STATUS_SUCCESS || !layouts || y == nullptr || !WaitForStream(stream)) return status;
  // y is NaN exactly where x was (the real Relu keeps NaN), in place too.
  ForEachElement([&](ptrdiff_t y_at) {
    if (std::isnan(LoadElement(layouts->y.dtype, y, y_at))) StoreElement(layouts->y.dtype, y, y_at, 0.0);
  }, layouts->y);
  return status;
}

infiniStatus_t DestroyReluForgetting(infiniopReluDescriptor_t desc) {
  relu_layouts.Erase(desc);
  return TargetOp().infiniopDestroyReluDescriptor(desc);
}

infiniStatus_t CreateSigmoidRecorded(infiniopHandle_t handle, infiniopSigmoidDescriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreateSigmoidDescriptor(handle, desc_ptr, y_desc, x_desc);
  Record(sigmoid_layouts, status, status == INFINI_STATUS_SUCCESS ? *desc_ptr : nullptr, y_desc, x_desc);
  return status;
}

infiniStatus_t SigmoidNanAtInfinity(infiniopSigmoidDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *y, const void *x, void *stream) {
  const auto layouts = sigmoid_layouts.Find(desc);
  // Where e^x overflows, read before the call (once the stream's earlier work, x's upload
  // among it, is done): y may be x (in place).
  std::vector<ptrdiff_t> overflowing;
  if (layouts && x != nullptr && WaitForStream(stream)) {
    ForEachElement([&](ptrdiff_t y_at, ptrdiff_t x_at) {
      if (LoadElement(layouts->x.dtype, x, x_at) > kExpOverflowsF32) overflowing.push_back(y_at);
    }, layouts->y, layouts->x);
  }
  const infiniStatus_t status = TargetOp().infiniopSigmoid(desc, workspace, workspace_size, y, x, stream);
  if (status != INFINI_STATUS_SUCCESS || overflowing.empty() || y == nullptr || !WaitForStream(stream)) return status;
  for (ptrdiff_t y_at : overflowing) StoreElement(layouts->y.dtype, y, y_at, std::nan(""));
  return status;
}

infiniStatus_t DestroySigmoidForgetting(infiniopSigmoidDescriptor_t desc) {
  sigmoid_layouts.Erase(desc);
  return TargetOp().infiniopDestroySigmoidDescriptor(desc);
}

}  // namespace

void InstallReluNanToZero(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateReluDescriptor = &CreateReluRecorded;
  calls.infiniopRelu = &ReluNanToZero;
  calls.infiniopDestroyReluDescriptor = &DestroyReluForgetting;
}
INFINICTS_FAULT(OpTable, "relu_nan_to_zero",
                "Relu turns NaN into 0, as max(x, 0) on a float max instruction does",
                InstallReluNanToZero);

void InstallSigmoidNanAtInfinity(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSigmoidDescriptor = &CreateSigmoidRecorded;
  calls.infiniopSigmoid = &SigmoidNanAtInfinity;
  calls.infiniopDestroySigmoidDescriptor = &DestroySigmoidForgetting;
}
INFINICTS_FAULT(OpTable, "sigmoid_nan_at_infinity",
                "Sigmoid computes e^x / (1 + e^x) in F32: NaN wherever e^x overflows, x = +Inf included",
                InstallSigmoidNanAtInfinity);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// NaN in x (planted among the inputs only by the nan_inf cases) must stay NaN (OP-RELU-1).
// fault-detection: relu_nan_to_zero SUITE op TIMEOUT 30 FILTER op.relu.* ONLY EXPECT
// fault-detection:   op.relu.accuracy/matches_oracle/*/nan_inf
// x = +Inf (only the nan_inf cases; the others stay within ±8) gives 1, not Inf / Inf.
// fault-detection: sigmoid_nan_at_infinity SUITE op TIMEOUT 30 FILTER op.sigmoid.* ONLY EXPECT
// fault-detection:   op.sigmoid.accuracy/matches_oracle/*/nan_inf
