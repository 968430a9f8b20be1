// Faults of the OP-MOETOPK routers (MoeTopkSoftmax, MoeTopkSigmoid), each a plausible slip,
// applied on the host once the real call has run (it checks the arguments and answers the
// status) and its work is done: the whole routing computed again with the slip and written
// over the real outputs through their layouts.
// - moe_topk_selects_without_bias: both routers rank by the scores alone, ignoring
//   correction_bias (the weights are still the chosen experts' scores);
// - moe_topk_sigmoid_weights_keep_bias: MoeTopkSigmoid's weights are the biased scores
//   s + bias, the ones the selection ranks by;
// - moe_topk_softmax_ignores_softcap: MoeTopkSoftmax takes the softmax of the raw logits;
// - moe_topk_reads_gating_contiguously: both read gating_output's row r at r·experts, as
//   InfiniCore's CUDA kernels do, whatever its strides.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
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

enum class Slip { kNoBiasInSelection, kBiasInWeights, kNoSoftcap, kContiguousGating };

struct MoeTopkRecord {
  TensorLayout weights, indices, gating;
  std::optional<TensorLayout> bias;
  bool softmax, renormalize;
  float softcap;
};
DescriptorRecords<MoeTopkRecord> moe_topk_records;

std::optional<MoeTopkRecord> Record(infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                                    infiniopTensorDescriptor_t gating, infiniopTensorDescriptor_t bias, bool softmax,
                                    bool renormalize, float softcap) {
  const auto w = LayoutOf(weights), ix = LayoutOf(indices), g = LayoutOf(gating);
  if (!w || !ix || !g || w->shape.size() != 2 || ix->shape.size() != 2 || g->shape.size() != 2) return std::nullopt;
  std::optional<TensorLayout> b;
  if (bias != nullptr) {
    b = LayoutOf(bias);
    if (!b || b->shape.size() != 1) return std::nullopt;
  }
  return MoeTopkRecord{*w, *ix, *g, b, softmax, renormalize, softcap};
}

// The routing of OP-MOETOPK with `slip`, over the real call's inputs, into its outputs.
void RouteWithSlip(const MoeTopkRecord &l, Slip slip, void *weights, void *indices, const void *gating,
                   const void *bias) {
  const size_t tokens = l.gating.shape[0], experts = l.gating.shape[1], topk = l.weights.shape[1];
  std::vector<double> score(experts), choice(experts);
  std::vector<size_t> ranking(experts);
  for (size_t r = 0; r < tokens; ++r) {
    for (size_t i = 0; i < experts; ++i) {
      const ptrdiff_t at = slip == Slip::kContiguousGating
                               ? static_cast<ptrdiff_t>(r * experts + i)
                               : static_cast<ptrdiff_t>(r) * l.gating.strides[0] + static_cast<ptrdiff_t>(i) * l.gating.strides[1];
      score[i] = LoadElement(l.gating.dtype, gating, at);
    }
    if (l.softmax) {
      const bool capped = l.softcap != 0.0f && slip != Slip::kNoSoftcap;
      for (double &y : score) y = capped ? l.softcap * std::tanh(y / l.softcap) : y;
      const double max = *std::max_element(score.begin(), score.end());
      double sum = 0.0;
      for (double y : score) sum += std::exp(y - max);
      for (double &y : score) y = std::exp(y - max) / sum;
    } else {
      for (double &y : score) y = 1.0 / (1.0 + std::exp(-y));
    }
    for (size_t i = 0; i < experts; ++i) {
      const double b = l.bias && bias != nullptr ? LoadElement(INFINI_DTYPE_F32, bias, static_cast<ptrdiff_t>(i) * l.bias->strides[0]) : 0.0;
      choice[i] = score[i] + (slip == Slip::kNoBiasInSelection ? 0.0 : b);
    }
    std::iota(ranking.begin(), ranking.end(), size_t{0});
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return choice[a] > choice[b]; });
    std::vector<double> chosen(topk);
    double sum = 0.0;
    for (size_t j = 0; j < topk; ++j) {
      chosen[j] = slip == Slip::kBiasInWeights ? choice[ranking[j]] : score[ranking[j]];
      sum += chosen[j];
    }
    for (size_t j = 0; j < topk; ++j) {
      const auto row = static_cast<ptrdiff_t>(r), col = static_cast<ptrdiff_t>(j);
      StoreElement(INFINI_DTYPE_F32, weights, row * l.weights.strides[0] + col * l.weights.strides[1],
                   l.renormalize ? chosen[j] / sum : chosen[j]);
      StoreElement(INFINI_DTYPE_I32, indices, row * l.indices.strides[0] + col * l.indices.strides[1],
                   static_cast<double>(ranking[j]));
    }
  }
}

// Runs `real`; when it answers SUCCESS, waits for its work and routes again with the slip.
infiniStatus_t SlippedAfterReal(const InfiniopDescriptor *desc, Slip slip, void *stream, void *weights, void *indices,
                                const void *gating, const void *bias, const std::function<infiniStatus_t()> &real) {
  const auto record = desc != nullptr ? moe_topk_records.Find(desc) : std::nullopt;
  if (!record || weights == nullptr || indices == nullptr || gating == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] { RouteWithSlip(*record, slip, weights, indices, gating, bias); });
}

template <Slip kSlip>
struct SlippedSoftmax {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopMoeTopkSoftmaxDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                               infiniopTensorDescriptor_t gating, infiniopTensorDescriptor_t bias, bool renormalize,
                               float softcap) {
    const infiniStatus_t status = TargetOp().infiniopCreateMoeTopkSoftmaxDescriptor(handle, desc_ptr, weights, indices,
                                                                                   gating, bias, renormalize, softcap);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto record = Record(weights, indices, gating, bias, true, renormalize, softcap);
    if (record) {
      moe_topk_records.Put(*desc_ptr, *record);
    } else {
      moe_topk_records.Erase(*desc_ptr);
    }
    return status;
  }
  static infiniStatus_t Compute(infiniopMoeTopkSoftmaxDescriptor_t desc, void *workspace, size_t workspace_size,
                                void *weights, void *indices, const void *gating, const void *bias, void *stream) {
    return SlippedAfterReal(desc, kSlip, stream, weights, indices, gating, bias, [&] {
      return TargetOp().infiniopMoeTopkSoftmax(desc, workspace, workspace_size, weights, indices, gating, bias, stream);
    });
  }
  static infiniStatus_t Destroy(infiniopMoeTopkSoftmaxDescriptor_t desc) {
    moe_topk_records.Erase(desc);
    return TargetOp().infiniopDestroyMoeTopkSoftmaxDescriptor(desc);
  }
  static void Install(OpTable &calls) {
    TrackTensorLayouts(calls);
    calls.infiniopCreateMoeTopkSoftmaxDescriptor = &Create;
    calls.infiniopMoeTopkSoftmax = &Compute;
    calls.infiniopDestroyMoeTopkSoftmaxDescriptor = &Destroy;
  }
};

template <Slip kSlip>
struct SlippedSigmoid {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopMoeTopkSigmoidDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                               infiniopTensorDescriptor_t gating, infiniopTensorDescriptor_t bias, bool renormalize) {
    const infiniStatus_t status =
        TargetOp().infiniopCreateMoeTopkSigmoidDescriptor(handle, desc_ptr, weights, indices, gating, bias, renormalize);
    if (status != INFINI_STATUS_SUCCESS) return status;
    const auto record = Record(weights, indices, gating, bias, false, renormalize, 0.0f);
    if (record) {
      moe_topk_records.Put(*desc_ptr, *record);
    } else {
      moe_topk_records.Erase(*desc_ptr);
    }
    return status;
  }
  static infiniStatus_t Compute(infiniopMoeTopkSigmoidDescriptor_t desc, void *workspace, size_t workspace_size,
                                void *weights, void *indices, const void *gating, const void *bias, void *stream) {
    return SlippedAfterReal(desc, kSlip, stream, weights, indices, gating, bias, [&] {
      return TargetOp().infiniopMoeTopkSigmoid(desc, workspace, workspace_size, weights, indices, gating, bias, stream);
    });
  }
  static infiniStatus_t Destroy(infiniopMoeTopkSigmoidDescriptor_t desc) {
    moe_topk_records.Erase(desc);
    return TargetOp().infiniopDestroyMoeTopkSigmoidDescriptor(desc);
  }
  static void Install(OpTable &calls) {
    TrackTensorLayouts(calls);
    calls.infiniopCreateMoeTopkSigmoidDescriptor = &Create;
    calls.infiniopMoeTopkSigmoid = &Compute;
    calls.infiniopDestroyMoeTopkSigmoidDescriptor = &Destroy;
  }
};

void InstallSelectsWithoutBias(OpTable &calls) {
  SlippedSoftmax<Slip::kNoBiasInSelection>::Install(calls);
  SlippedSigmoid<Slip::kNoBiasInSelection>::Install(calls);
}

void InstallSigmoidWeightsKeepBias(OpTable &calls) { SlippedSigmoid<Slip::kBiasInWeights>::Install(calls); }

void InstallSoftmaxIgnoresSoftcap(OpTable &calls) { SlippedSoftmax<Slip::kNoSoftcap>::Install(calls); }

void InstallReadsGatingContiguously(OpTable &calls) {
  SlippedSoftmax<Slip::kContiguousGating>::Install(calls);
  SlippedSigmoid<Slip::kContiguousGating>::Install(calls);
}

}  // namespace

INFINICTS_FAULT(OpTable, "moe_topk_selects_without_bias",
                "MoeTopkSoftmax and MoeTopkSigmoid rank the experts by their scores alone, ignoring correction_bias",
                InstallSelectsWithoutBias);
INFINICTS_FAULT(OpTable, "moe_topk_sigmoid_weights_keep_bias",
                "MoeTopkSigmoid's weights are the biased scores sigmoid(x) + correction_bias",
                InstallSigmoidWeightsKeepBias);
INFINICTS_FAULT(OpTable, "moe_topk_softmax_ignores_softcap",
                "MoeTopkSoftmax takes the softmax of the raw logits, ignoring moe_softcapping",
                InstallSoftmaxIgnoresSoftcap);
INFINICTS_FAULT(OpTable, "moe_topk_reads_gating_contiguously",
                "MoeTopkSoftmax and MoeTopkSigmoid read gating_output's row r at r·experts whatever its strides",
                InstallReadsGatingContiguously);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every case with a bias: its biases reorder the experts (OP-MOETOPKSOFTMAX-3, OP-MOETOPKSIGMOID-3).
// fault-detection: moe_topk_selects_without_bias SUITE op TIMEOUT 60 FILTER op.moe_topk_* EXPECT
// fault-detection:   op.moe_topk_softmax.accuracy/matches_oracle/*/bias/*
// fault-detection:   op.moe_topk_sigmoid.accuracy/matches_oracle/*/bias/*
// Every sigmoid case with a bias: a weight with the bias in it (OP-MOETOPKSIGMOID-4).
// fault-detection: moe_topk_sigmoid_weights_keep_bias SUITE op TIMEOUT 60 FILTER op.moe_topk_sigmoid.* EXPECT
// fault-detection:   op.moe_topk_sigmoid.accuracy/matches_oracle/*/bias/*
// Every soft-capped case (OP-MOETOPKSOFTMAX-3).
// fault-detection: moe_topk_softmax_ignores_softcap SUITE op TIMEOUT 60 FILTER op.moe_topk_softmax.* ONLY EXPECT
// fault-detection:   op.moe_topk_softmax.accuracy/matches_oracle/*/softcap_*
// Every gating_output of other strides than contiguous rows (OP-LAYOUT-3, OP-LAYOUT-1).
// fault-detection: moe_topk_reads_gating_contiguously SUITE op TIMEOUT 60 FILTER op.moe_topk_* EXPECT
// fault-detection:   op.moe_topk_softmax.accuracy/matches_oracle/*/gating_pad*
// fault-detection:   op.moe_topk_sigmoid.accuracy/matches_oracle/*/gating_pad*
