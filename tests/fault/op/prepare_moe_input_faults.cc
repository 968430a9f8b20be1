// Faults of PrepareMoeInput (spec section OP-PREPAREMOEINPUT), each the whole answer computed
// again on the host, with one mistake, once the real call has run (it checks the arguments and
// answers the status) and its work is done:
// - prepare_moe_input_blockscale_rounds_down: each count rounded down to 128 in
//   blockscale_offsets instead of up;
// - prepare_moe_input_wraps_foreign_ids: an id outside [0, E) taken modulo E (−1 as expert
//   E − 1), as an unsigned or clamped index would;
// - prepare_moe_input_slot_for_token: input_permutation given the slot i instead of its token;
// - prepare_moe_input_experts_in_reverse_order (no mistake): each expert's slots last first,
//   which the suite must accept.
#include <cstdint>
#include <optional>
#include <vector>

#include "op/descriptor_records.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

// kReversedExperts is no mistake: each expert's slots last first, as atomics may order them.
enum class PrepareMistake { kBlockscaleDown, kWrapsForeign, kSlotForToken, kReversedExperts };

struct PrepareRecord {
  TensorLayout offsets, sizes1, sizes2, input_perm, output_perm, ids;
  std::optional<TensorLayout> blockscale;
  size_t experts, n, k;
};
DescriptorRecords<PrepareRecord> prepare_records;

bool Is1D(const std::optional<TensorLayout> &l) { return l && l->shape.size() == 1 && l->dtype == INFINI_DTYPE_I32; }

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopPrepareMoeInputDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t offsets, infiniopTensorDescriptor_t blockscale,
                              infiniopTensorDescriptor_t sizes1, infiniopTensorDescriptor_t sizes2,
                              infiniopTensorDescriptor_t input_perm, infiniopTensorDescriptor_t output_perm,
                              infiniopTensorDescriptor_t ids, size_t experts, size_t n, size_t k) {
  const infiniStatus_t status = TargetOp().infiniopCreatePrepareMoeInputDescriptor(
      handle, desc_ptr, offsets, blockscale, sizes1, sizes2, input_perm, output_perm, ids, experts, n, k);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(offsets), s1 = LayoutOf(sizes1), s2 = LayoutOf(sizes2), in = LayoutOf(input_perm),
             out = LayoutOf(output_perm), i = LayoutOf(ids);
  const auto b = blockscale != nullptr ? LayoutOf(blockscale) : std::nullopt;
  const bool contiguous_sizes = s1 && s2 && s1->strides == ContiguousStrides(s1->shape) &&
                                s2->strides == ContiguousStrides(s2->shape);
  if (Is1D(o) && Is1D(in) && Is1D(out) && contiguous_sizes && i && i->shape.size() == 2 &&
      i->dtype == INFINI_DTYPE_I32 && (blockscale == nullptr || Is1D(b)) && experts > 0) {
    prepare_records.Put(*desc_ptr, {*o, *s1, *s2, *in, *out, *i, b, experts, n, k});
  } else {
    prepare_records.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopPrepareMoeInputDescriptor_t desc) {
  prepare_records.Erase(desc);
  return TargetOp().infiniopDestroyPrepareMoeInputDescriptor(desc);
}

void Put(int32_t *base, const TensorLayout &layout, size_t at, int64_t value) {
  base[static_cast<ptrdiff_t>(at) * layout.strides[0]] = static_cast<int32_t>(value);
}

struct PrepareData {
  int32_t *offsets, *blockscale, *sizes1, *sizes2, *input_perm, *output_perm;
  const int32_t *ids;
};

void PrepareWith(PrepareMistake mistake, const PrepareRecord &r, const PrepareData &d) {
  const size_t topk = r.ids.shape[1], slots = r.ids.shape[0] * topk;
  const auto experts = static_cast<int64_t>(r.experts);
  std::vector<int64_t> expert_of(slots, -1), counts(r.experts, 0);
  for (size_t i = 0; i < slots; ++i) {
    int64_t e = d.ids[static_cast<ptrdiff_t>(i / topk) * r.ids.strides[0] + static_cast<ptrdiff_t>(i % topk) * r.ids.strides[1]];
    if (mistake == PrepareMistake::kWrapsForeign) e = ((e % experts) + experts) % experts;
    if (e < 0 || e >= experts) continue;
    expert_of[i] = e;
    ++counts[static_cast<size_t>(e)];
  }
  std::vector<int64_t> next(r.experts);
  int64_t offset = 0, rounded = 0;
  Put(d.offsets, r.offsets, 0, 0);
  if (r.blockscale) Put(d.blockscale, *r.blockscale, 0, 0);
  for (size_t e = 0; e < r.experts; ++e) {
    next[e] = offset;
    offset += counts[e];
    rounded += mistake == PrepareMistake::kBlockscaleDown ? counts[e] / 128 * 128 : (counts[e] + 127) / 128 * 128;
    Put(d.offsets, r.offsets, e + 1, offset);
    if (r.blockscale) Put(d.blockscale, *r.blockscale, e + 1, rounded);
    const int64_t first[3] = {counts[e], 2 * static_cast<int64_t>(r.n), static_cast<int64_t>(r.k)};
    const int64_t second[3] = {counts[e], static_cast<int64_t>(r.k), static_cast<int64_t>(r.n)};
    for (size_t c = 0; c < 3; ++c) {
      d.sizes1[e * 3 + c] = static_cast<int32_t>(first[c]);
      d.sizes2[e * 3 + c] = static_cast<int32_t>(second[c]);
    }
  }
  for (size_t n = 0; n < slots; ++n) {
    const size_t i = mistake == PrepareMistake::kReversedExperts ? slots - 1 - n : n;
    if (expert_of[i] < 0) continue;
    const int64_t at = next[static_cast<size_t>(expert_of[i])]++;
    const auto token = static_cast<int64_t>(mistake == PrepareMistake::kSlotForToken ? i : i / topk);
    Put(d.input_perm, r.input_perm, static_cast<size_t>(at), token);
    Put(d.output_perm, r.output_perm, i, at);
  }
}

template <PrepareMistake kMistake>
infiniStatus_t PreparedWithMistake(infiniopPrepareMoeInputDescriptor_t desc, void *workspace, size_t workspace_size,
                                   void *offsets, void *blockscale, void *sizes1, void *sizes2, void *input_perm,
                                   void *output_perm, const void *ids, void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopPrepareMoeInput(desc, workspace, workspace_size, offsets, blockscale, sizes1, sizes2,
                                              input_perm, output_perm, ids, stream);
  };
  const auto r = desc != nullptr ? prepare_records.Find(desc) : std::nullopt;
  if (!r || offsets == nullptr || sizes1 == nullptr || sizes2 == nullptr || input_perm == nullptr ||
      output_perm == nullptr || ids == nullptr || (r->blockscale && blockscale == nullptr)) {
    return real();
  }
  return OverwriteAfterReal(stream, real, [&] {
    PrepareWith(kMistake, *r,
                {static_cast<int32_t *>(offsets), static_cast<int32_t *>(blockscale), static_cast<int32_t *>(sizes1),
                 static_cast<int32_t *>(sizes2), static_cast<int32_t *>(input_perm),
                 static_cast<int32_t *>(output_perm), static_cast<const int32_t *>(ids)});
  });
}

template <PrepareMistake kMistake>
void InstallPrepareMistake(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreatePrepareMoeInputDescriptor = &CreateRecorded;
  calls.infiniopPrepareMoeInput = &PreparedWithMistake<kMistake>;
  calls.infiniopDestroyPrepareMoeInputDescriptor = &DestroyForgetting;
}

}  // namespace

void InstallPrepareBlockscaleRoundingDown(OpTable &calls) { InstallPrepareMistake<PrepareMistake::kBlockscaleDown>(calls); }
void InstallPrepareWrappingForeignIds(OpTable &calls) { InstallPrepareMistake<PrepareMistake::kWrapsForeign>(calls); }
void InstallPrepareSlotForToken(OpTable &calls) { InstallPrepareMistake<PrepareMistake::kSlotForToken>(calls); }
void InstallPrepareReversingExperts(OpTable &calls) { InstallPrepareMistake<PrepareMistake::kReversedExperts>(calls); }

INFINICTS_FAULT(OpTable, "prepare_moe_input_blockscale_rounds_down",
                "PrepareMoeInput rounds each count down to 128 in blockscale_offsets",
                InstallPrepareBlockscaleRoundingDown);
INFINICTS_FAULT(OpTable, "prepare_moe_input_wraps_foreign_ids",
                "PrepareMoeInput takes an id outside [0, E) modulo E (-1 as expert E - 1)",
                InstallPrepareWrappingForeignIds);
INFINICTS_FAULT(OpTable, "prepare_moe_input_slot_for_token",
                "PrepareMoeInput writes the slot i into input_permutation instead of its token i / topk",
                InstallPrepareSlotForToken);

INFINICTS_FAULT(OpTable, "prepare_moe_input_experts_in_reverse_order",
                "PrepareMoeInput places each expert's slots last first: a right answer (the order is free)",
                InstallPrepareReversingExperts);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Rounded down: every case with blockscale_offsets (an expert's count not a multiple of 128).
// Foreign ids wrapped: the foreign cases alone. The slot for the token: topk above 1.
// fault-detection: prepare_moe_input_blockscale_rounds_down SUITE op TIMEOUT 60 FILTER op.prepare_moe_input.* EXPECT
// fault-detection:   op.prepare_moe_input.accuracy/matches_oracle/i32/*_k_32/ids_*
// fault-detection:   op.prepare_moe_input.accuracy/matches_oracle/i32/*_k_2048/ids_*
// fault-detection:   op.prepare_moe_input.accuracy/matches_oracle/i32/*/foreign/ids_*
// fault-detection: prepare_moe_input_wraps_foreign_ids SUITE op TIMEOUT 60 FILTER op.prepare_moe_input.* ONLY EXPECT
// fault-detection:   op.prepare_moe_input.accuracy/matches_oracle/*/foreign/*
// fault-detection: prepare_moe_input_slot_for_token SUITE op TIMEOUT 60 FILTER op.prepare_moe_input.* EXPECT
// fault-detection:   op.prepare_moe_input.accuracy/matches_oracle/*_top[2-8]_*
// Another order within the experts is right: every case passes.
// fault-detection: prepare_moe_input_experts_in_reverse_order SUITE op TIMEOUT 60 FILTER op.prepare_moe_input.* ONLY
