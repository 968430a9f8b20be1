// The fault `rms_norm_epsilon_outside_sqrt`: RMSNorm on the host as
// y = x·w / (sqrt(mean(x²)) + epsilon), in F64, stored in y's dtype. Rows whose mean square
// is near epsilon come out tens of percent off; ordinary rows barely move.
#include <cmath>

#include "op/descriptor_records.h"
#include "op/host_rms_norm.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

DescriptorRecords<RmsNormRecord> rms_norm_records;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopRMSNormDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t y_desc, infiniopTensorDescriptor_t x_desc,
                              infiniopTensorDescriptor_t w_desc, float epsilon) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateRMSNormDescriptor(handle, desc_ptr, y_desc, x_desc, w_desc, epsilon);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RmsNormRecordOf(y_desc, x_desc, w_desc, epsilon)) rms_norm_records.Put(*desc_ptr, *record);
  return status;
}

infiniStatus_t RmsNormEpsilonOutsideSqrt(infiniopRMSNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                         void *y, const void *x, const void *w, void *stream) {
  auto real = [&] { return TargetOp().infiniopRMSNorm(desc, workspace, workspace_size, y, x, w, stream); };
  const auto record = desc != nullptr ? rms_norm_records.Find(desc) : std::nullopt;
  if (!record || y == nullptr || x == nullptr || w == nullptr) return real();
  const size_t d = record->x.shape.back();
  const RmsDivisor epsilon_outside = [](double sum_of_squares, size_t n, float epsilon) {
    return std::sqrt(sum_of_squares / static_cast<double>(n)) + epsilon;
  };
  return ComputeOnHostInstead(stream, [&] { return HostRmsNorm(*record, y, x, w, d, epsilon_outside); }, real);
}

infiniStatus_t DestroyForgetting(infiniopRMSNormDescriptor_t desc) {
  rms_norm_records.Erase(desc);
  return TargetOp().infiniopDestroyRMSNormDescriptor(desc);
}

}  // namespace

void InstallRmsNormEpsilonOutsideSqrt(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateRMSNormDescriptor = &CreateRecorded;
  calls.infiniopRMSNorm = &RmsNormEpsilonOutsideSqrt;
  calls.infiniopDestroyRMSNormDescriptor = &DestroyForgetting;
}
INFINICTS_FAULT(OpTable, "rms_norm_epsilon_outside_sqrt",
                "RMSNorm computes x*w / (sqrt(mean(x^2)) + eps)",
                InstallRmsNormEpsilonOutsideSqrt);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// fault-detection: rms_norm_epsilon_outside_sqrt SUITE op TIMEOUT 30 FILTER op.rms_norm.* EXPECT
// fault-detection:   op.rms_norm.accuracy/*_small_rms
