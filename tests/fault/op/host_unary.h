// The driver of the faults that give a unary elementwise operator (one without create-time
// attributes) a wrong formula: after the real call, every element of a float y is the
// fault's formula of x, computed on the host. The operator is named by its three calls'
// members of OpTable; one fault per process, as the wrapper installs.
#pragma once

#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_table.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {

// x as stored (converted to double), y's dtype: the value to store.
using UnaryFormula = double (*)(double x, infiniDtype_t dtype);

template <auto kCreate, auto kCompute, auto kDestroy>
struct HostUnary {
  struct Layouts {
    TensorLayout y, x;
  };
  static inline DescriptorRecords<Layouts> records;
  static inline UnaryFormula formula = nullptr;

  static infiniStatus_t Create(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr, infiniopTensorDescriptor_t y,
                               infiniopTensorDescriptor_t x) {
    const infiniStatus_t status = (TargetOp().*kCreate)(handle, desc_ptr, y, x);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto y_layout = LayoutOf(y), x_layout = LayoutOf(x);
    if (y_layout && x_layout && IsFloatDtype(y_layout->dtype) && y_layout->shape == x_layout->shape) {
      records.Put(*desc_ptr, {*y_layout, *x_layout});
    } else {
      records.Erase(*desc_ptr);  // the address may be a destroyed descriptor's
    }
    return status;
  }

  static infiniStatus_t Compute(InfiniopDescriptor *desc, void *workspace, size_t workspace_size, void *y,
                                const void *x, void *stream) {
    const auto real = [&] { return (TargetOp().*kCompute)(desc, workspace, workspace_size, y, x, stream); };
    const auto layouts = records.Find(desc);
    if (!layouts || y == nullptr || x == nullptr) return real();
    return ComputeOnHostInstead(
        stream,
        [&] {
          std::vector<ElementWrite> writes;
          writes.reserve(layouts->y.ElementCount());
          ForEachElement([&](ptrdiff_t y_at, ptrdiff_t x_at) {
            const double value = formula(LoadElement(layouts->x.dtype, x, x_at), layouts->y.dtype);
            writes.push_back({y, layouts->y.dtype, y_at, value});
          }, layouts->y, layouts->x);
          return writes;
        },
        real);
  }

  static infiniStatus_t Destroy(InfiniopDescriptor *desc) {
    records.Erase(desc);
    return (TargetOp().*kDestroy)(desc);
  }
};

template <auto kCreate, auto kCompute, auto kDestroy>
void InstallHostUnary(OpTable &calls, UnaryFormula formula) {
  using Fault = HostUnary<kCreate, kCompute, kDestroy>;
  TrackTensorLayouts(calls);
  Fault::formula = formula;
  calls.*kCreate = &Fault::Create;
  calls.*kCompute = &Fault::Compute;
  calls.*kDestroy = &Fault::Destroy;
}

}  // namespace infinicts::fault
