// The faults that only change the arguments a call passes on to the real library.
#include <algorithm>
#include <memory>
#include <optional>

#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

infiniStatus_t GemmWithBetaZero(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                const void *a, const void *b, float alpha, float, void *stream) {
  return TargetOp().infiniopGemm(desc, workspace, workspace_size, c, a, b, alpha, 0.0f, stream);
}

// The workspace size computed as an unsigned difference that went negative (an end offset
// minus a larger start, say): the query answers 2^64 - 64, which no device holds.
infiniStatus_t GemmWorkspaceSizeWrapped(infiniopGemmDescriptor_t desc, size_t *size) {
  const infiniStatus_t status = TargetOp().infiniopGetGemmWorkspaceSize(desc, size);
  if (status == INFINI_STATUS_SUCCESS && size != nullptr) *size = size_t{0} - 64;
  return status;
}

// alpha = 0 taken as "no product to add, nothing to do": C stays as it was, beta unapplied
// (C = 0·A·B + 1·C, so the target still judges the arguments).
infiniStatus_t GemmLeavingCWhenAlphaIsZero(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size,
                                           void *c, const void *a, const void *b, float alpha, float beta,
                                           void *stream) {
  if (alpha == 0.0f) beta = 1.0f;
  return TargetOp().infiniopGemm(desc, workspace, workspace_size, c, a, b, alpha, beta, stream);
}

// A top-k done by one block of 1024 threads: never more than 1024 candidates, whatever
// topk asks (topk >= n included).
constexpr int kTopkCap = 1024;

infiniStatus_t RandomSampleCappingTopk(infiniopRandomSampleDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *result, const void *probs, float random_val, float topp, int topk,
                                       float temperature, void *stream) {
  return TargetOp().infiniopRandomSample(desc, workspace, workspace_size, result, probs, random_val, topp,
                                         std::min(topk, kTopkCap), temperature, stream);
}

infiniStatus_t RopeWithOtherPairing(infiniopHandle_t handle, infiniopRoPEDescriptor_t *desc_ptr,
                                    infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x,
                                    infiniopTensorDescriptor_t pos_ids, infiniopTensorDescriptor_t sin_table,
                                    infiniopTensorDescriptor_t cos_table, infiniopRoPEAlgo_t algo) {
  // Out-of-range values keep reaching the target as they are: BAD_PARAM stays BAD_PARAM.
  if (algo == INFINIOP_ROPE_ALGO_GPT_J) algo = INFINIOP_ROPE_ALGO_GPT_NEOX;
  else if (algo == INFINIOP_ROPE_ALGO_GPT_NEOX) algo = INFINIOP_ROPE_ALGO_GPT_J;
  return TargetOp().infiniopCreateRoPEDescriptor(handle, desc_ptr, y, x, pos_ids, sin_table, cos_table, algo);
}

// A matrix (the last two dims) stored column-major as Gemm admits it: unit stride down a
// column, columns at least a column's length apart. (Layouts Gemm refuses stay as they are.)
bool IsColumnMajor(const TensorLayout &layout) {
  const size_t ndim = layout.shape.size();
  if (ndim < 2) return false;
  const size_t rows = layout.shape[ndim - 2], cols = layout.shape[ndim - 1];
  const ptrdiff_t row_stride = layout.strides[ndim - 2], col_stride = layout.strides[ndim - 1];
  return cols > 1 && col_stride != 1 && (rows == 1 || row_stride == 1) &&
         col_stride >= static_cast<ptrdiff_t>(rows);
}

bool HasBroadcastDim(const TensorLayout &layout) {
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    if (layout.shape[d] > 1 && layout.strides[d] == 0) return true;
  }
  return false;
}

// `desc` as the fault reads it: when `misread` holds for its layout, a descriptor of the
// same shape and dtype with row-major strides (kept alive in `holder` for the create call).
infiniopTensorDescriptor_t ReadAsContiguousIf(bool (*misread)(const TensorLayout &), infiniopTensorDescriptor_t desc,
                                              std::unique_ptr<TargetTensorDescriptor> &holder) {
  const std::optional<TensorLayout> layout = LayoutOf(desc);
  if (!layout || !misread(*layout)) return desc;
  TensorLayout contiguous = *layout;
  contiguous.strides = ContiguousStrides(contiguous.shape);
  holder = std::make_unique<TargetTensorDescriptor>(contiguous);
  return holder->get();
}

infiniStatus_t GemmReadingTransposedAsContiguous(infiniopHandle_t handle, infiniopGemmDescriptor_t *desc_ptr,
                                                 infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                                 infiniopTensorDescriptor_t b_desc) {
  std::unique_ptr<TargetTensorDescriptor> a_holder, b_holder;
  return TargetOp().infiniopCreateGemmDescriptor(handle, desc_ptr, c_desc,
                                                 ReadAsContiguousIf(&IsColumnMajor, a_desc, a_holder),
                                                 ReadAsContiguousIf(&IsColumnMajor, b_desc, b_holder));
}

infiniStatus_t AddReadingBroadcastAsContiguous(infiniopHandle_t handle, infiniopAddDescriptor_t *desc_ptr,
                                               infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                               infiniopTensorDescriptor_t b_desc) {
  std::unique_ptr<TargetTensorDescriptor> a_holder, b_holder;
  return TargetOp().infiniopCreateAddDescriptor(handle, desc_ptr, c_desc,
                                                ReadAsContiguousIf(&HasBroadcastDim, a_desc, a_holder),
                                                ReadAsContiguousIf(&HasBroadcastDim, b_desc, b_holder));
}

// Shapes first, as InfiniCore's CPU Embedding and LogSoftmax do: mismatched shapes answer
// BAD_TENSOR_SHAPE before the target judges the dtypes.
infiniStatus_t AddCheckingShapesFirst(infiniopHandle_t handle, infiniopAddDescriptor_t *desc_ptr,
                                      infiniopTensorDescriptor_t c_desc, infiniopTensorDescriptor_t a_desc,
                                      infiniopTensorDescriptor_t b_desc) {
  const auto c = LayoutOf(c_desc), a = LayoutOf(a_desc), b = LayoutOf(b_desc);
  if (handle != nullptr && desc_ptr != nullptr && c && a && b && (a->shape != c->shape || b->shape != c->shape)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  return TargetOp().infiniopCreateAddDescriptor(handle, desc_ptr, c_desc, a_desc, b_desc);
}

}  // namespace

void InstallAddChecksShapesFirst(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateAddDescriptor = &AddCheckingShapesFirst;
}
INFINICTS_FAULT(OpTable, "add_checks_shapes_first",
                "Add checks its shapes before its dtypes",
                InstallAddChecksShapesFirst);

void InstallGemmIgnoresBeta(OpTable &calls) { calls.infiniopGemm = &GemmWithBetaZero; }
INFINICTS_FAULT(OpTable, "gemm_ignores_beta",
                "Gemm computes as if beta were 0",
                InstallGemmIgnoresBeta);

void InstallGemmWorkspaceSizeWrapped(OpTable &calls) {
  calls.infiniopGetGemmWorkspaceSize = &GemmWorkspaceSizeWrapped;
}
INFINICTS_FAULT(OpTable, "gemm_workspace_size_wraps",
                "GetGemmWorkspaceSize answers 2^64 - 64 bytes, an unsigned difference gone negative",
                InstallGemmWorkspaceSizeWrapped);

void InstallGemmAlphaZeroLeavesC(OpTable &calls) { calls.infiniopGemm = &GemmLeavingCWhenAlphaIsZero; }
INFINICTS_FAULT(OpTable, "gemm_alpha_zero_leaves_c",
                "Gemm with alpha = 0 leaves C as it was instead of setting beta*C",
                InstallGemmAlphaZeroLeavesC);

void InstallRandomSampleTopkCappedAt1024(OpTable &calls) { calls.infiniopRandomSample = &RandomSampleCappingTopk; }
INFINICTS_FAULT(OpTable, "random_sample_topk_capped_at_1024",
                "RandomSample never takes more than 1024 candidates, whatever topk asks",
                InstallRandomSampleTopkCappedAt1024);

void InstallRopeOtherPairing(OpTable &calls) { calls.infiniopCreateRoPEDescriptor = &RopeWithOtherPairing; }
INFINICTS_FAULT(OpTable, "rope_other_pairing",
                "RoPE pairs as GPT_NEOX when asked for GPT_J and the other way round",
                InstallRopeOtherPairing);

void InstallGemmTransposedAsContiguous(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateGemmDescriptor = &GemmReadingTransposedAsContiguous;
}
INFINICTS_FAULT(OpTable, "gemm_transposed_as_contiguous",
                "Gemm reads a column-major A or B as if it were row-major",
                InstallGemmTransposedAsContiguous);

void InstallAddIgnoresBroadcast(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateAddDescriptor = &AddReadingBroadcastAsContiguous;
}
INFINICTS_FAULT(OpTable, "add_ignores_broadcast",
                "Add reads an input with a stride-0 dim as if it were contiguous",
                InstallAddIgnoresBroadcast);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every case with beta != 0 but the F16/BF16 long sums, where beta·C (|C| <= 16) hides in the
// tolerance of a sum of thousands.
// A workspace size no device holds (an unsigned difference gone negative) fails every gemm case
// that asks for the size, as OP-WS-1, and none crashes the harness's sums made of it.
// fault-detection: gemm_workspace_size_wraps SUITE op TIMEOUT 30 FILTER op.gemm.* ONLY EXPECT
// fault-detection:   op.gemm.accuracy/*
// fault-detection:   op.gemm.conformance/workspace/* op.gemm.conformance/workspace_refusals/*
// fault-detection:   op.gemm.conformance/reuse/* op.gemm.conformance/stream_order/* op.gemm.conformance/two_streams/*
// fault-detection:   op.gemm.conformance/null_stream/* op.gemm.conformance/released_early/*
// fault-detection:   op.gemm.conformance/destroy_after_compute/* op.gemm.conformance/compute_null_pointers/*
// fault-detection: gemm_ignores_beta SUITE op TIMEOUT 30 FILTER op.gemm.* EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/*_beta_0_5
// fault-detection:   op.gemm.accuracy/matches_oracle/*_beta_[1-9m]*
// fault-detection:   op.gemm.accuracy/matches_oracle/f[36]*_beta_0_5_long_sum
// Every case with a column-major A or B and k > 0.
// fault-detection: gemm_transposed_as_contiguous SUITE op TIMEOUT 30 FILTER op.gemm.* EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/*_k[1-9]*/a_trans*
// fault-detection:   op.gemm.accuracy/matches_oracle/*_k[1-9]*/*_b_trans*
// Every head dim but 2, whose single pair is the same in both pairings.
// fault-detection: rope_other_pairing SUITE op TIMEOUT 30 FILTER op.rope.* EXPECT
// fault-detection:   op.rope.accuracy/matches_oracle/*_d[!2]*
// fault-detection: add_ignores_broadcast SUITE op TIMEOUT 30 FILTER op.add.* EXPECT
// fault-detection:   op.add.accuracy/*bcast*
// alpha = 0 with beta != 0 (C = beta·C); no other case has alpha = 0.
// fault-detection: gemm_alpha_zero_leaves_c SUITE op TIMEOUT 30 FILTER op.gemm.* ONLY EXPECT
// fault-detection:   op.gemm.accuracy/matches_oracle/*/alpha_0_beta_*
// topk above 1024 and topk >= n, over 4097 logits whose ranks past 1024 carry weight.
// fault-detection: random_sample_topk_capped_at_1024 SUITE op TIMEOUT 30 FILTER op.random_sample.* ONLY EXPECT
// fault-detection:   op.random_sample.accuracy/matches_oracle/*/n4097/*/heavy_tail
