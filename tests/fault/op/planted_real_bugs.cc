// Bugs seen in a real backend (InfiniCore's CPU build), planted one a fault, so that the tests
// show the suite still fails them once the interface's allowances are judged fairly:
// - `zero_d_create_crashes`: a create call whose tensors are all 0-D dereferences an empty shape
//   (every elementwise create there);
// - `add_rms_norm_outputs_swapped`: AddRMSNorm takes y's descriptor for residual_out and the other
//   way round (a difference only where their layouts differ);
// - `log_softmax_ignores_strides`: LogSoftmax reads and writes every tensor it accepted as if it
//   were contiguous;
// - `selu_f64_in_f32`: Selu computes in F32 whatever the dtype, so F64 keeps F32's precision.
#include <cmath>
#include <csignal>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "op/host_unary.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

// ---- zero_d_create_crashes

OpTable g_before_zero_d;

// Counts the tensor descriptors of a call and how many are 0-D (a NULL one counts as not 0-D:
// the call refuses it before it looks at any shape).
template <class T>
void CountTensor(const T &argument, int *tensors, int *zero_d) {
  if constexpr (std::is_same_v<T, infiniopTensorDescriptor_t>) {
    ++*tensors;
    const std::optional<TensorLayout> layout = argument == nullptr ? std::nullopt : LayoutOf(argument);
    *zero_d += layout && layout->shape.empty() ? 1 : 0;
  }
}

template <class Call, class... Args>
infiniStatus_t CrashingOnZeroD(std::string_view name, const Call &call, const Args &...arguments) {
  if (name.rfind("infiniopCreate", 0) == 0 && name != "infiniopCreateTensorDescriptor") {
    int tensors = 0, zero_d = 0;
    (CountTensor(arguments, &tensors, &zero_d), ...);
    if (tensors > 0 && zero_d == tensors) std::raise(SIGSEGV);
  }
  return call();
}

namespace zero_d {
#define X(name, params, args)                                                                        \
  infiniStatus_t name params {                                                                       \
    return std::apply([](const auto &...a) {                                                         \
      return CrashingOnZeroD(#name, [&] { return g_before_zero_d.name(a...); }, a...);               \
    }, std::make_tuple args);                                                                        \
  }
#include "backend/op_symbols.def"
#undef X
}  // namespace zero_d

// ---- add_rms_norm_outputs_swapped

infiniStatus_t AddRmsNormSwappingOutputs(infiniopHandle_t handle, infiniopAddRMSNormDescriptor_t *desc_ptr,
                                         infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t residual_out_desc,
                                         infiniopTensorDescriptor_t a_desc, infiniopTensorDescriptor_t b_desc,
                                         infiniopTensorDescriptor_t weight_desc, float epsilon) {
  return TargetOp().infiniopCreateAddRMSNormDescriptor(handle, desc_ptr, residual_out_desc, y_desc, a_desc, b_desc,
                                                       weight_desc, epsilon);
}

// ---- log_softmax_ignores_strides

// `desc` with its strides replaced by row-major ones (kept alive in `holder` for the create call).
infiniopTensorDescriptor_t AsContiguous(infiniopTensorDescriptor_t desc, std::unique_ptr<TargetTensorDescriptor> &holder) {
  std::optional<TensorLayout> layout = LayoutOf(desc);
  if (!layout) return desc;
  layout->strides = ContiguousStrides(layout->shape);
  holder = std::make_unique<TargetTensorDescriptor>(*layout);
  return holder->get();
}

infiniStatus_t LogSoftmaxIgnoringStrides(infiniopHandle_t handle, infiniopLogSoftmaxDescriptor_t *desc_ptr,
                                         infiniopTensorDescriptor_t output_desc, infiniopTensorDescriptor_t input_desc,
                                         int dim) {
  std::unique_ptr<TargetTensorDescriptor> output_holder, input_holder;
  return TargetOp().infiniopCreateLogSoftmaxDescriptor(handle, desc_ptr, AsContiguous(output_desc, output_holder),
                                                        AsContiguous(input_desc, input_holder), dim);
}

// ---- selu_f64_in_f32

double SeluInF32(double x, infiniDtype_t) {
  constexpr float kScale = 1.0507009873554805f, kAlpha = 1.6732632423543772f;
  const float v = static_cast<float>(x);
  return static_cast<double>(v > 0.0f ? kScale * v : kScale * kAlpha * (std::exp(v) - 1.0f));
}

}  // namespace

void InstallZeroDCreateCrashes(OpTable &calls) {
  TrackTensorLayouts(calls);
  g_before_zero_d = calls;
#define X(name, params, args) calls.name = &zero_d::name;
#include "backend/op_symbols.def"
#undef X
}
INFINICTS_FAULT(OpTable, "zero_d_create_crashes",
                "a create call whose tensors are all 0-D crashes (SIGSEGV)",
                InstallZeroDCreateCrashes);

void InstallAddRmsNormOutputsSwapped(OpTable &calls) {
  calls.infiniopCreateAddRMSNormDescriptor = &AddRmsNormSwappingOutputs;
}
INFINICTS_FAULT(OpTable, "add_rms_norm_outputs_swapped",
                "AddRMSNorm takes y's descriptor for residual_out and the other way round",
                InstallAddRmsNormOutputsSwapped);

void InstallLogSoftmaxIgnoresStrides(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateLogSoftmaxDescriptor = &LogSoftmaxIgnoringStrides;
}
INFINICTS_FAULT(OpTable, "log_softmax_ignores_strides",
                "LogSoftmax reads and writes its tensors as if they were contiguous",
                InstallLogSoftmaxIgnoresStrides);

void InstallSeluF64InF32(OpTable &calls) {
  InstallHostUnary<&OpTable::infiniopCreateSeluDescriptor, &OpTable::infiniopSelu, &OpTable::infiniopDestroySeluDescriptor>(
      calls, &SeluInF32);
}
INFINICTS_FAULT(OpTable, "selu_f64_in_f32",
                "Selu computes in F32 whatever the dtype",
                InstallSeluF64InF32);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Bugs InfiniCore's CPU build has, which the suite must still fail.
// 0-D tensors crash every elementwise create: one root cause, on valid input, triggered by shape [].
// fault-detection: zero_d_create_crashes SUITE op TIMEOUT 30 ROOT_CAUSES 1 FILTER op.add.* op.relu.*
// fault-detection:   EXPECT op.add.accuracy/matches_oracle/*/scalar/* op.relu.accuracy/matches_oracle/*/scalar/*
// AddRMSNorm's outputs swapped: the cases whose y and residual_out layouts differ.
// fault-detection: add_rms_norm_outputs_swapped SUITE op TIMEOUT 30 FILTER op.add_rms_norm.* EXPECT
// fault-detection:   op.add_rms_norm.accuracy/matches_oracle/*/y_view_residual_out_offset_*
// LogSoftmax ignoring the strides of the layouts it accepted: the padded and transposed inputs.
// fault-detection: log_softmax_ignores_strides SUITE op TIMEOUT 30 FILTER op.log_softmax.* EXPECT
// fault-detection:   op.log_softmax.accuracy/matches_oracle/*/output_pad_input_pad
// fault-detection:   op.log_softmax.accuracy/matches_oracle/*/output_trans_input_trans
// Selu computing F64 in F32: every F64 case that checks values, and one root cause on dtype f64.
// fault-detection: selu_f64_in_f32 SUITE op TIMEOUT 30 FILTER op.selu.* ONLY ROOT_CAUSES 1 EXPECT
// fault-detection:   op.selu.accuracy/matches_oracle/f64/*
// fault-detection:   op.selu.conformance/stream_order/f64* op.selu.conformance/null_stream/f64* op.selu.conformance/reuse/f64*
// fault-detection:   op.selu.conformance/two_streams/f64* op.selu.conformance/workspace/f64* op.selu.conformance/in_place/f64*
