// The fault `layer_norm_reads_absent_bias`: LayerNorm takes a non-NULL bias pointer as a
// bias, whatever its descriptor says (a backend that tests the pointer, not the descriptor).
// Emulated with a second real descriptor made with a bias of the weight's layout, used by
// every compute call on a bias-less descriptor that passes a bias pointer all the same.
#include "op/descriptor_records.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

// Per bias-less descriptor: its twin with a bias (NULL where the target refused to make it).
DescriptorRecords<infiniopLayerNormDescriptor_t> with_bias;

infiniStatus_t CreateLayerNormRecorded(infiniopHandle_t handle, infiniopLayerNormDescriptor_t *desc_ptr,
                                       infiniopTensorDescriptor_t output_desc,
                                       infiniopTensorDescriptor_t standardization_desc,
                                       infiniopTensorDescriptor_t std_deviation_desc,
                                       infiniopTensorDescriptor_t input_desc, infiniopTensorDescriptor_t weight_desc,
                                       infiniopTensorDescriptor_t bias_desc, float eps) {
  const infiniStatus_t status = TargetOp().infiniopCreateLayerNormDescriptor(
      handle, desc_ptr, output_desc, standardization_desc, std_deviation_desc, input_desc, weight_desc, bias_desc, eps);
  if (status != INFINI_STATUS_SUCCESS || bias_desc != nullptr) return status;
  const auto weight = LayoutOf(weight_desc);
  if (!weight) return status;
  const TargetTensorDescriptor bias(*weight);
  infiniopLayerNormDescriptor_t twin = nullptr;
  if (TargetOp().infiniopCreateLayerNormDescriptor(handle, &twin, output_desc, standardization_desc,
                                                   std_deviation_desc, input_desc, weight_desc, bias.get(),
                                                   eps) != INFINI_STATUS_SUCCESS) {
    twin = nullptr;
  }
  with_bias.Put(*desc_ptr, twin);
  return status;
}

infiniStatus_t LayerNormReadingBias(infiniopLayerNormDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *output, void *standardization, void *std_deviation, const void *input,
                                    const void *weight, const void *bias, void *stream) {
  const auto twin = with_bias.Find(desc);
  size_t twin_workspace = 0;
  const bool use_twin = bias != nullptr && twin && *twin != nullptr &&
                        TargetOp().infiniopGetLayerNormWorkspaceSize(*twin, &twin_workspace) == INFINI_STATUS_SUCCESS &&
                        twin_workspace <= workspace_size;
  return TargetOp().infiniopLayerNorm(use_twin ? *twin : desc, workspace, workspace_size, output, standardization,
                                      std_deviation, input, weight, bias, stream);
}

infiniStatus_t DestroyLayerNormWithTwin(infiniopLayerNormDescriptor_t desc) {
  if (const auto twin = with_bias.Find(desc); twin && *twin != nullptr) {
    TargetOp().infiniopDestroyLayerNormDescriptor(*twin);
  }
  with_bias.Erase(desc);
  return TargetOp().infiniopDestroyLayerNormDescriptor(desc);
}

}  // namespace

void InstallLayerNormReadsAbsentBias(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateLayerNormDescriptor = &CreateLayerNormRecorded;
  calls.infiniopLayerNorm = &LayerNormReadingBias;
  calls.infiniopDestroyLayerNormDescriptor = &DestroyLayerNormWithTwin;
}
INFINICTS_FAULT(OpTable, "layer_norm_reads_absent_bias",
                "LayerNorm adds the bias its compute call points to even when its descriptor was made without bias",
                InstallLayerNormReadsAbsentBias);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// A descriptor without bias and a compute call passing a non-NULL bias pointer (to NaN)
// anyway; the cases passing NULL cannot tell (OP-LAYERNORM-4).
// fault-detection: layer_norm_reads_absent_bias SUITE op TIMEOUT 30 FILTER op.layer_norm.* ONLY EXPECT
// fault-detection:   op.layer_norm.accuracy/matches_oracle/*/no_bias_junk_pointer/*
