// Faults of BroadcastTo (spec section OP-BROADCASTTO), applied on the host once the real call
// has run (it checks the arguments and answers the status) and its work is done:
// - broadcast_to_writes_y_contiguously: y's element number i in row-major order is written to
//   the i-th stored element, whatever y's strides (InfiniCore's CPU kernel walks y by its linear
//   index);
// - broadcast_to_steps_unit_dims: x's dims of 1 are stepped by the stride x's descriptor gives
//   them instead of being held, as a kernel that zeroes only the strides of the dims x lacks
//   would (right only where such a stride is 0); reads that would leave x's storage are skipped.
//   A row-major x's dims of 1 stride over the dims after them, so plain layouts show it.
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

struct BroadcastLayouts {
  TensorLayout y;
  TensorLayout x_over_y;       // x's strides over y's dims, 0 where x is broadcast
  TensorLayout x_steps_units;  // the same, but x's own stride on its dims of 1
  ptrdiff_t x_highest = 0;
};
DescriptorRecords<BroadcastLayouts> broadcast_layouts;

std::optional<BroadcastLayouts> Aligned(const TensorLayout &y, const TensorLayout &x) {
  if (x.shape.size() > y.shape.size() || !IsFloatDtype(y.dtype) || x.dtype != y.dtype) return std::nullopt;
  BroadcastLayouts l{y, y, y, x.HighestOffset()};
  const size_t lead = y.shape.size() - x.shape.size();
  for (size_t d = 0; d < y.shape.size(); ++d) {
    l.x_over_y.strides[d] = 0;
    l.x_steps_units.strides[d] = 0;
    if (d < lead) continue;
    const size_t xd = d - lead;
    if (x.shape[xd] != 1 && x.shape[xd] != y.shape[d]) return std::nullopt;
    if (x.shape[xd] == y.shape[d]) l.x_over_y.strides[d] = x.strides[xd];
    l.x_steps_units.strides[d] = x.strides[xd];
  }
  return l;
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopBroadcastToDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x) {
  const infiniStatus_t status = TargetOp().infiniopCreateBroadcastToDescriptor(handle, desc_ptr, y, x);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto yl = LayoutOf(y), xl = LayoutOf(x);
  const auto aligned = yl && xl ? Aligned(*yl, *xl) : std::nullopt;
  if (aligned) {
    broadcast_layouts.Put(*desc_ptr, *aligned);
  } else {
    broadcast_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopBroadcastToDescriptor_t desc) {
  broadcast_layouts.Erase(desc);
  return TargetOp().infiniopDestroyBroadcastToDescriptor(desc);
}

// Runs the real call, then rewrites y through `rewrite(layouts, y, x)` once the stream is done.
template <class Rewrite>
infiniStatus_t RunThenRewrite(infiniopBroadcastToDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                              const void *x, void *stream, Rewrite rewrite) {
  const auto real = [&] { return TargetOp().infiniopBroadcastTo(desc, workspace, workspace_size, y, x, stream); };
  const auto l = desc != nullptr ? broadcast_layouts.Find(desc) : std::nullopt;
  if (!l || y == nullptr || x == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] { rewrite(*l, y, x); });
}

infiniStatus_t WritingYContiguously(infiniopBroadcastToDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *y, const void *x, void *stream) {
  return RunThenRewrite(desc, workspace, workspace_size, y, x, stream, [](const BroadcastLayouts &l, void *out, const void *in) {
    TensorLayout row_major = l.y;
    row_major.strides = ContiguousStrides(l.y.shape);
    std::vector<double> values;
    ForEachElement([&](ptrdiff_t, ptrdiff_t from) { values.push_back(LoadElement(l.y.dtype, in, from)); }, l.y,
                   l.x_over_y);
    size_t i = 0;
    ForEachElement([&](ptrdiff_t to) { StoreElement(l.y.dtype, out, to, values[i++]); }, row_major);
  });
}

infiniStatus_t SteppingUnitDims(infiniopBroadcastToDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                const void *x, void *stream) {
  return RunThenRewrite(desc, workspace, workspace_size, y, x, stream, [](const BroadcastLayouts &l, void *out, const void *in) {
    ForEachElement(
        [&](ptrdiff_t to, ptrdiff_t from) {
          if (from >= 0 && from <= l.x_highest) StoreElement(l.y.dtype, out, to, LoadElement(l.y.dtype, in, from));
        },
        l.y, l.x_steps_units);
  });
}

}  // namespace

void InstallBroadcastToWritingYContiguously(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateBroadcastToDescriptor = &CreateRecorded;
  calls.infiniopBroadcastTo = &WritingYContiguously;
  calls.infiniopDestroyBroadcastToDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "broadcast_to_writes_y_contiguously",
                "BroadcastTo writes y's element number i to the i-th stored element, whatever y's strides",
                InstallBroadcastToWritingYContiguously);

void InstallBroadcastToSteppingUnitDims(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateBroadcastToDescriptor = &CreateRecorded;
  calls.infiniopBroadcastTo = &SteppingUnitDims;
  calls.infiniopDestroyBroadcastToDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "broadcast_to_steps_unit_dims",
                "BroadcastTo steps x's dims of 1 by their descriptor's stride instead of holding them",
                InstallBroadcastToSteppingUnitDims);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every padded or view y (OP-BROADCASTTO-3); an offset y passes (its data pointer is its first
// element).
// fault-detection: broadcast_to_writes_y_contiguously SUITE op TIMEOUT 60 FILTER op.broadcast_to.* ONLY EXPECT
// fault-detection:   op.broadcast_to.accuracy/matches_oracle/*y_pad*
// fault-detection:   op.broadcast_to.accuracy/matches_oracle/*y_view*
// Every x whose dims of 1 carry a stride other than 0 that stays inside x (OP-BROADCASTTO-3): a
// row-major x's already do (a dim of 1 strides over the dims after it), so the plain cases catch
// it, the stream and workspace ones too.
// fault-detection: broadcast_to_steps_unit_dims SUITE op TIMEOUT 60 FILTER op.broadcast_to.* EXPECT
// fault-detection:   op.broadcast_to.accuracy/matches_oracle/*/x_4x1_y_4x6/y_contig_x_contig
// fault-detection:   op.broadcast_to.accuracy/matches_oracle/*/x_7x1x64_y_7x32x64/*
// fault-detection:   op.broadcast_to.accuracy/matches_oracle/*/x_2x1x2x1x2x1x2x1_y_2x2x2x2x2x2x2x2/*
// fault-detection:   op.broadcast_to.conformance/stream_order/*
