// A fault of Pad (spec section OP-PAD), applied on the host once the real call has run (it
// checks the arguments and answers the status) and its work is done:
// - pad_reflect_repeats_edge: "reflect" mirrors about the edge's outer side, repeating the edge
//   element (numpy's "symmetric", not torch's "reflect").
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

struct ReflectPad {
  TensorLayout y, x;
  std::vector<int64_t> before;  // per dim
};
DescriptorRecords<ReflectPad> reflect_pads;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopPadDescriptor_t *desc_ptr, infiniopTensorDescriptor_t y,
                              infiniopTensorDescriptor_t x, void *pad, size_t pad_size, const char *mode, double value) {
  const infiniStatus_t status = TargetOp().infiniopCreatePadDescriptor(handle, desc_ptr, y, x, pad, pad_size, mode, value);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto yl = LayoutOf(y), xl = LayoutOf(x);
  const bool reflect = mode != nullptr && std::string(mode) == "reflect";
  if (!yl || !xl || !reflect || pad == nullptr || pad_size % (2 * sizeof(int)) != 0 || !IsFloatDtype(xl->dtype) ||
      yl->shape.size() != xl->shape.size() || pad_size / (2 * sizeof(int)) > xl->shape.size()) {
    reflect_pads.Erase(*desc_ptr);
    return status;
  }
  std::vector<int> pads(pad_size / sizeof(int));
  std::memcpy(pads.data(), pad, pad_size);
  ReflectPad r{*yl, *xl, std::vector<int64_t>(xl->shape.size(), 0)};
  for (size_t j = 0; j < pads.size() / 2; ++j) r.before[xl->shape.size() - 1 - j] = pads[2 * j];
  reflect_pads.Put(*desc_ptr, r);
  return status;
}

infiniStatus_t DestroyForgetting(infiniopPadDescriptor_t desc) {
  reflect_pads.Erase(desc);
  return TargetOp().infiniopDestroyPadDescriptor(desc);
}

infiniStatus_t ReflectingWithTheEdge(infiniopPadDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                     const void *x, void *stream) {
  const auto real = [&] { return TargetOp().infiniopPad(desc, workspace, workspace_size, y, x, stream); };
  const auto r = desc != nullptr ? reflect_pads.Find(desc) : std::nullopt;
  if (!r || y == nullptr || x == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    const size_t ndim = r->y.shape.size();
    std::vector<size_t> index(ndim, 0);
    const size_t count = r->y.ElementCount();
    for (size_t e = 0; e < count; ++e) {
      ptrdiff_t y_at = 0, x_at = 0;
      for (size_t d = 0; d < ndim; ++d) {
        const int64_t n = static_cast<int64_t>(r->x.shape[d]);
        int64_t i = static_cast<int64_t>(index[d]) - r->before[d];
        if (i < 0) i = -i - 1;                  // the edge repeated
        if (i >= n) i = 2 * n - 1 - i;
        i = i < 0 ? 0 : (i >= n ? n - 1 : i);  // pads past the dim: held at the edge
        y_at += static_cast<ptrdiff_t>(index[d]) * r->y.strides[d];
        x_at += static_cast<ptrdiff_t>(i) * r->x.strides[d];
      }
      StoreElement(r->y.dtype, y, y_at, LoadElement(r->x.dtype, x, x_at));
      for (size_t d = ndim; d-- > 0;) {
        if (++index[d] < r->y.shape[d]) break;
        index[d] = 0;
      }
    }
  });
}

}  // namespace

void InstallPadReflectingWithTheEdge(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreatePadDescriptor = &CreateRecorded;
  calls.infiniopPad = &ReflectingWithTheEdge;
  calls.infiniopDestroyPadDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "pad_reflect_repeats_edge",
                "Pad's reflect mode repeats the edge element (numpy's symmetric mode)",
                InstallPadReflectingWithTheEdge);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every reflect case (OP-PAD-4); the other modes are left alone.
// fault-detection: pad_reflect_repeats_edge SUITE op TIMEOUT 60 FILTER op.pad.* ONLY EXPECT
// fault-detection:   op.pad.accuracy/matches_oracle/*/reflect_*
