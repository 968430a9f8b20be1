// A fault of Sum (spec section OP-SUM), applied on the host once the real call has run (it
// checks the arguments and answers the status) and its work is done:
// - sum_accumulates_in_storage_dtype: each output's sum is kept in its own dtype, rounded after
//   every add (F16 and BF16 lose the small terms of a long sum; F32 and F64 barely change).
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

struct SumLayouts {
  TensorLayout output, kept, reduced;  // kept: input's strides over the output's shape
};
DescriptorRecords<SumLayouts> sum_layouts;

std::optional<SumLayouts> Split(const TensorLayout &output, const TensorLayout &input, const size_t *dim, size_t count,
                                bool keepdim) {
  if (dim == nullptr || !IsFloatDtype(input.dtype)) return std::nullopt;
  std::vector<bool> reduced(input.shape.size(), false);
  for (size_t i = 0; i < count; ++i) {
    if (dim[i] >= reduced.size()) return std::nullopt;
    reduced[dim[i]] = true;
  }
  SumLayouts l{output, output, input};
  l.kept.strides.clear();
  l.reduced.shape.clear();
  l.reduced.strides.clear();
  for (size_t d = 0; d < input.shape.size(); ++d) {
    if (reduced[d]) {
      l.reduced.shape.push_back(input.shape[d]);
      l.reduced.strides.push_back(input.strides[d]);
      if (keepdim) l.kept.strides.push_back(0);
    } else {
      l.kept.strides.push_back(input.strides[d]);
    }
  }
  if (l.kept.strides.size() != output.shape.size()) return std::nullopt;
  return l;
}

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopSumDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t output, infiniopTensorDescriptor_t input, size_t *dim,
                              size_t dim_size, bool keepdim) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateSumDescriptor(handle, desc_ptr, output, input, dim, dim_size, keepdim);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(output), in = LayoutOf(input);
  const auto split = o && in ? Split(*o, *in, dim, dim_size, keepdim) : std::nullopt;
  if (split) {
    sum_layouts.Put(*desc_ptr, *split);
  } else {
    sum_layouts.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopSumDescriptor_t desc) {
  sum_layouts.Erase(desc);
  return TargetOp().infiniopDestroySumDescriptor(desc);
}

// `value` as the dtype holds it.
double Rounded(infiniDtype_t dtype, double value) {
  double slot = 0;
  StoreElement(dtype, &slot, 0, value);
  return LoadElement(dtype, &slot, 0);
}

infiniStatus_t AccumulatingInStorageDtype(infiniopSumDescriptor_t desc, void *workspace, size_t workspace_size,
                                          void *output, const void *input, size_t *dim, size_t dim_size, bool keepdim,
                                          void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopSum(desc, workspace, workspace_size, output, input, dim, dim_size, keepdim, stream);
  };
  const auto l = desc != nullptr ? sum_layouts.Find(desc) : std::nullopt;
  if (!l || output == nullptr || input == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    const infiniDtype_t dtype = l->output.dtype;
    ForEachElement(
        [&](ptrdiff_t out_at, ptrdiff_t base) {
          double sum = 0;
          ForEachElement([&](ptrdiff_t at) { sum = Rounded(dtype, sum + LoadElement(dtype, input, base + at)); },
                         l->reduced);
          StoreElement(dtype, output, out_at, sum);
        },
        l->output, l->kept);
  });
}

}  // namespace

void InstallSumAccumulatingInStorageDtype(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateSumDescriptor = &CreateRecorded;
  calls.infiniopSum = &AccumulatingInStorageDtype;
  calls.infiniopDestroySumDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "sum_accumulates_in_storage_dtype",
                "Sum keeps each output's running sum in the output's dtype, rounded after every add",
                InstallSumAccumulatingInStorageDtype);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// The long F16 and BF16 sums (OP-SUM-3); short sums of k/4 values stay exact.
// fault-detection: sum_accumulates_in_storage_dtype SUITE op TIMEOUT 60 FILTER op.sum.* ONLY EXPECT
// fault-detection:   op.sum.accuracy/matches_oracle/f16/3x4096/*
// fault-detection:   op.sum.accuracy/matches_oracle/f16/2x8x2048/*
// fault-detection:   op.sum.accuracy/matches_oracle/bf16/3x4096/*
