// Faults of MoeFusedGate (spec section OP-MOEFUSEDGATE), each a plausible slip, applied on the
// host once the real call has run (it checks the arguments and answers the status) and its
// work is done: the whole routing computed again with the slip and written over the real
// outputs through their layouts.
// - moe_fused_gate_groups_by_top1: the groups ranked by their best biased score alone, not by
//   the sum of their two best;
// - moe_fused_gate_weights_from_biased_scores: the routed weights are the biased scores
//   s + bias renormalised, the ones the selection ranks by, not the sigmoids s;
// - moe_fused_gate_dropped_scored_zero: the dropped groups' experts stay in the selection
//   with a score of 0, as Topkrouter's rule has it, instead of leaving it;
// - moe_fused_gate_reads_input_contiguously: input's row r read at r·E, whatever its row
//   stride, as InfiniCore's CUDA kernel does (left alone where that would read outside it).
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

enum class Slip { kGroupsByTop1, kWeightsFromBiased, kDroppedScoredZero, kContiguousInput };

struct MoeFusedGateRecord {
  TensorLayout weights, indices, input, bias;
  size_t groups, kept_groups, shared;
  float scale;
  bool apply;
};
DescriptorRecords<MoeFusedGateRecord> moe_fused_gate_records;

// The record of a create call the real library accepted, for the problems the spec defines.
std::optional<MoeFusedGateRecord> Record(infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                                         infiniopTensorDescriptor_t input, infiniopTensorDescriptor_t bias,
                                         size_t groups, size_t kept_groups, size_t shared, float scale, bool apply) {
  const auto w = LayoutOf(weights), ix = LayoutOf(indices), x = LayoutOf(input), b = LayoutOf(bias);
  if (!w || !ix || !x || !b || w->shape.size() != 2 || ix->shape.size() != 2 || x->shape.size() != 2 ||
      b->shape.size() != 1) {
    return std::nullopt;
  }
  const size_t experts = x->shape[1], topk = w->shape[1];
  if (groups == 0 || experts % groups != 0 || kept_groups == 0 || kept_groups > groups || topk <= shared ||
      topk - shared > kept_groups * (experts / groups)) {
    return std::nullopt;
  }
  return MoeFusedGateRecord{*w, *ix, *x, *b, groups, kept_groups, shared, scale, apply};
}

// The routing of OP-MOEFUSEDGATE with `slip`, over the real call's inputs, into its outputs.
void RouteWithSlip(const MoeFusedGateRecord &l, Slip slip, void *weights, void *indices, const void *input,
                   const void *bias) {
  const size_t tokens = l.input.shape[0], experts = l.input.shape[1], topk = l.weights.shape[1];
  const size_t size = experts / l.groups, routed = topk - l.shared;
  std::vector<double> score(experts), choice(experts), group_score(l.groups);
  for (size_t r = 0; r < tokens; ++r) {
    for (size_t i = 0; i < experts; ++i) {
      const ptrdiff_t at = slip == Slip::kContiguousInput
                               ? static_cast<ptrdiff_t>(r * experts + i)
                               : static_cast<ptrdiff_t>(r) * l.input.strides[0] +
                                     static_cast<ptrdiff_t>(i) * l.input.strides[1];
      score[i] = 1.0 / (1.0 + std::exp(-LoadElement(l.input.dtype, input, at)));
      choice[i] = score[i] + LoadElement(INFINI_DTYPE_F32, bias, static_cast<ptrdiff_t>(i) * l.bias.strides[0]);
    }
    for (size_t g = 0; g < l.groups; ++g) {
      double best = -HUGE_VAL, second = -HUGE_VAL;  // a scan: NaN read from padding must not upset a sort
      for (size_t i = g * size; i < (g + 1) * size; ++i) {
        if (choice[i] > best) {
          second = best;
          best = choice[i];
        } else if (choice[i] > second) {
          second = choice[i];
        }
      }
      const bool two = size > 1 && slip != Slip::kGroupsByTop1;
      group_score[g] = best + (two ? second : 0.0);
    }
    std::vector<size_t> group_ranking(l.groups);
    std::iota(group_ranking.begin(), group_ranking.end(), size_t{0});
    std::stable_sort(group_ranking.begin(), group_ranking.end(),
                     [&](size_t a, size_t b) { return group_score[a] > group_score[b]; });
    std::vector<bool> kept(l.groups, false);
    for (size_t j = 0; j < l.kept_groups; ++j) kept[group_ranking[j]] = true;
    std::vector<size_t> ranking;
    for (size_t i = 0; i < experts; ++i) {
      if (kept[i / size]) {
        ranking.push_back(i);
      } else if (slip == Slip::kDroppedScoredZero) {
        choice[i] = 0.0;
        ranking.push_back(i);
      }
    }
    std::stable_sort(ranking.begin(), ranking.end(), [&](size_t a, size_t b) { return choice[a] > choice[b]; });
    const std::vector<double> &weighed = slip == Slip::kWeightsFromBiased ? choice : score;
    double sum = 0.0;
    for (size_t j = 0; j < routed; ++j) sum += weighed[ranking[j]];
    const double output_scale = l.apply ? static_cast<double>(l.scale) : 1.0;
    for (size_t j = 0; j < topk; ++j) {
      const bool is_routed = j < routed;
      const auto row = static_cast<ptrdiff_t>(r), col = static_cast<ptrdiff_t>(j);
      StoreElement(INFINI_DTYPE_F32, weights, row * l.weights.strides[0] + col * l.weights.strides[1],
                   is_routed ? output_scale * weighed[ranking[j]] / sum : (l.apply ? 1.0 : 1.0 / l.scale));
      StoreElement(INFINI_DTYPE_I32, indices, row * l.indices.strides[0] + col * l.indices.strides[1],
                   static_cast<double>(is_routed ? ranking[j] : experts + (j - routed)));
    }
  }
}

// Whether reading row r at r·E stays inside input's storage (unit stride along the row, rows
// at least E apart): the contiguous reading is left out elsewhere.
bool ContiguousReadStaysInside(const TensorLayout &input) {
  return input.strides[1] == 1 && input.strides[0] >= static_cast<ptrdiff_t>(input.shape[1]);
}

template <Slip kSlip>
struct Slipped {
  static infiniStatus_t Create(infiniopHandle_t handle, infiniopMoeFusedGateDescriptor_t *desc_ptr,
                               infiniopTensorDescriptor_t weights, infiniopTensorDescriptor_t indices,
                               infiniopTensorDescriptor_t input, infiniopTensorDescriptor_t bias, size_t groups,
                               size_t kept_groups, size_t shared, float scale, bool apply) {
    const infiniStatus_t status = TargetOp().infiniopCreateMoeFusedGateDescriptor(
        handle, desc_ptr, weights, indices, input, bias, groups, kept_groups, shared, scale, apply);
    if (status != INFINI_STATUS_SUCCESS) return status;
    auto record = Record(weights, indices, input, bias, groups, kept_groups, shared, scale, apply);
    if (record && kSlip == Slip::kContiguousInput && !ContiguousReadStaysInside(record->input)) record.reset();
    if (record) {
      moe_fused_gate_records.Put(*desc_ptr, *record);
    } else {
      moe_fused_gate_records.Erase(*desc_ptr);
    }
    return status;
  }
  static infiniStatus_t Compute(infiniopMoeFusedGateDescriptor_t desc, void *workspace, size_t workspace_size,
                                void *weights, void *indices, const void *input, const void *bias, void *stream) {
    const auto real = [&] {
      return TargetOp().infiniopMoeFusedGate(desc, workspace, workspace_size, weights, indices, input, bias, stream);
    };
    const auto record = desc != nullptr ? moe_fused_gate_records.Find(desc) : std::nullopt;
    if (!record || weights == nullptr || indices == nullptr || input == nullptr || bias == nullptr) return real();
    return OverwriteAfterReal(stream, real,
                              [&] { RouteWithSlip(*record, kSlip, weights, indices, input, bias); });
  }
  static infiniStatus_t Destroy(infiniopMoeFusedGateDescriptor_t desc) {
    moe_fused_gate_records.Erase(desc);
    return TargetOp().infiniopDestroyMoeFusedGateDescriptor(desc);
  }
  static void Install(OpTable &calls) {
    TrackTensorLayouts(calls);
    calls.infiniopCreateMoeFusedGateDescriptor = &Create;
    calls.infiniopMoeFusedGate = &Compute;
    calls.infiniopDestroyMoeFusedGateDescriptor = &Destroy;
  }
};

void InstallGroupsByTop1(OpTable &calls) { Slipped<Slip::kGroupsByTop1>::Install(calls); }
void InstallWeightsFromBiasedScores(OpTable &calls) { Slipped<Slip::kWeightsFromBiased>::Install(calls); }
void InstallDroppedScoredZero(OpTable &calls) { Slipped<Slip::kDroppedScoredZero>::Install(calls); }
void InstallReadsInputContiguously(OpTable &calls) { Slipped<Slip::kContiguousInput>::Install(calls); }

}  // namespace

INFINICTS_FAULT(OpTable, "moe_fused_gate_groups_by_top1",
                "MoeFusedGate ranks the groups by their best biased score alone, not the sum of their two best",
                InstallGroupsByTop1);
INFINICTS_FAULT(OpTable, "moe_fused_gate_weights_from_biased_scores",
                "MoeFusedGate weighs the routed experts by their biased scores sigmoid(x) + bias, renormalised",
                InstallWeightsFromBiasedScores);
INFINICTS_FAULT(OpTable, "moe_fused_gate_dropped_scored_zero",
                "MoeFusedGate leaves the dropped groups' experts in the selection with a score of 0",
                InstallDroppedScoredZero);
INFINICTS_FAULT(OpTable, "moe_fused_gate_reads_input_contiguously",
                "MoeFusedGate reads input's row r at r·experts whatever its row stride",
                InstallReadsInputContiguously);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every case with groups dropped and a decoy group in its rows (OP-MOEFUSEDGATE-5): random,
// large and negative-bias rows (all 4 of 8 or 16 kept, 2 of 4 or 8, 1 of 2); tie and faint
// rows have no decoy, and where every group is kept the ranking changes nothing.
// fault-detection: moe_fused_gate_groups_by_top1 SUITE op TIMEOUT 60 FILTER op.moe_fused_gate.* EXPECT
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/groups_*_keep_4/*/random
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/groups_*_keep_2/*/random
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/groups_2_keep_1/*/random
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/large
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/negative_bias
// Every accuracy case: each routes 4 experts at least, with biases that are not their scores'
// multiples (OP-MOEFUSEDGATE-6).
// fault-detection: moe_fused_gate_weights_from_biased_scores SUITE op TIMEOUT 60 FILTER op.moe_fused_gate.* EXPECT
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*
// Every row of biases below 0, where every kept expert's c is below the dropped ones' 0
// (OP-MOEFUSEDGATE-5).
// fault-detection: moe_fused_gate_dropped_scored_zero SUITE op TIMEOUT 60 FILTER op.moe_fused_gate.* EXPECT
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/negative_bias
// Every input of padded rows (OP-MOEFUSEDGATE-7); offset views pass (their data pointers are
// their first elements).
// fault-detection: moe_fused_gate_reads_input_contiguously SUITE op TIMEOUT 60 FILTER op.moe_fused_gate.* EXPECT
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/input_pad/*
// fault-detection:   op.moe_fused_gate.accuracy/matches_oracle/*/input_view/*
