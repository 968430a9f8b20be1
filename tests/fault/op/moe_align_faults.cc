// Faults of MoeAlign (spec section OP-MOEALIGN), each the whole answer computed again on the
// host, with one mistake, once the real call has run (it checks the arguments and answers the
// status) and its work is done:
// - moe_align_pads_by_a_whole_block: each group padded to (c + B) / B blocks, the ceiling
//   written as (c + B) / B · B, so a group of exactly a block (or none) gets one block more;
// - moe_align_ignores_expert_map: the ids taken as local experts whatever the map, ids past
//   num_experts left out;
// - moe_align_writes_token_not_slot: the slot's token t (i / K) written for slot i;
// - moe_align_groups_in_reverse_order (no mistake): each group's slots last first, which the
//   suite must accept.
// Positions past the buffers' ends are not written.
#include <cstdint>
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

// kReversedGroups is no mistake: each group's slots last first, as atomics may order them.
enum class AlignMistake { kWholeBlockPadding, kIgnoresMap, kTokenNotSlot, kReversedGroups };

struct AlignRecord {
  TensorLayout sorted, blocks, ids;
  size_t experts, block;
};
DescriptorRecords<AlignRecord> align_records;

infiniStatus_t CreateRecorded(infiniopHandle_t handle, infiniopMoeAlignDescriptor_t *desc_ptr,
                              infiniopTensorDescriptor_t sorted, infiniopTensorDescriptor_t blocks,
                              infiniopTensorDescriptor_t total, infiniopTensorDescriptor_t ids, size_t experts,
                              size_t block) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateMoeAlignDescriptor(handle, desc_ptr, sorted, blocks, total, ids, experts, block);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto s = LayoutOf(sorted), b = LayoutOf(blocks), i = LayoutOf(ids);
  if (s && b && i && i->shape.size() == 2 && i->dtype == INFINI_DTYPE_I32 && block > 0) {
    align_records.Put(*desc_ptr, {*s, *b, *i, experts, block});
  } else {
    align_records.Erase(*desc_ptr);
  }
  return status;
}

infiniStatus_t DestroyForgetting(infiniopMoeAlignDescriptor_t desc) {
  align_records.Erase(desc);
  return TargetOp().infiniopDestroyMoeAlignDescriptor(desc);
}

void AlignWith(AlignMistake mistake, const AlignRecord &r, int32_t *sorted, int32_t *blocks, int32_t *total,
               const int32_t *ids, const int32_t *map, bool pad) {
  const size_t topk = r.ids.shape[1], numel = r.ids.shape[0] * topk;
  const auto experts = static_cast<int64_t>(r.experts);
  std::vector<int64_t> expert_of(numel, -1);
  std::vector<size_t> counts(r.experts, 0);
  for (size_t i = 0; i < numel; ++i) {
    int64_t e = ids[static_cast<ptrdiff_t>(i / topk) * r.ids.strides[0] + static_cast<ptrdiff_t>(i % topk) * r.ids.strides[1]];
    if (map != nullptr && mistake != AlignMistake::kIgnoresMap) e = e >= 0 ? map[e] : -1;
    if (e < 0 || e >= experts) continue;
    expert_of[i] = e;
    ++counts[static_cast<size_t>(e)];
  }
  const size_t length = r.sorted.shape[0], block_count = r.blocks.shape[0];
  const auto put = [](int32_t *base, const TensorLayout &layout, size_t at, size_t length, int64_t value) {
    if (at < length) base[static_cast<ptrdiff_t>(at) * layout.strides[0]] = static_cast<int32_t>(value);
  };
  if (pad) {
    for (size_t p = 0; p < length; ++p) put(sorted, r.sorted, p, length, static_cast<int64_t>(numel));
  }
  std::vector<size_t> next(r.experts);
  size_t at = 0;
  for (size_t e = 0; e < r.experts; ++e) {
    next[e] = at;
    const size_t padded = mistake == AlignMistake::kWholeBlockPadding
                              ? (counts[e] + r.block) / r.block * r.block
                              : (counts[e] + r.block - 1) / r.block * r.block;
    for (size_t b = at / r.block; b < (at + padded) / r.block; ++b) put(blocks, r.blocks, b, block_count, static_cast<int64_t>(e));
    at += padded;
  }
  *total = static_cast<int32_t>(at);
  for (size_t n = 0; n < numel; ++n) {
    const size_t i = mistake == AlignMistake::kReversedGroups ? numel - 1 - n : n;
    if (expert_of[i] < 0) continue;
    const auto slot = static_cast<int64_t>(mistake == AlignMistake::kTokenNotSlot ? i / topk : i);
    put(sorted, r.sorted, next[static_cast<size_t>(expert_of[i])]++, length, slot);
  }
}

template <AlignMistake kMistake>
infiniStatus_t AlignedWithMistake(infiniopMoeAlignDescriptor_t desc, void *workspace, size_t workspace_size,
                                  void *sorted, void *blocks, void *total, const void *ids, const void *map, int pad,
                                  void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopMoeAlign(desc, workspace, workspace_size, sorted, blocks, total, ids, map, pad, stream);
  };
  const auto r = desc != nullptr ? align_records.Find(desc) : std::nullopt;
  if (!r || sorted == nullptr || blocks == nullptr || total == nullptr || ids == nullptr) return real();
  return OverwriteAfterReal(stream, real, [&] {
    AlignWith(kMistake, *r, static_cast<int32_t *>(sorted), static_cast<int32_t *>(blocks),
              static_cast<int32_t *>(total), static_cast<const int32_t *>(ids), static_cast<const int32_t *>(map),
              pad != 0);
  });
}

template <AlignMistake kMistake>
void InstallAlignMistake(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateMoeAlignDescriptor = &CreateRecorded;
  calls.infiniopMoeAlign = &AlignedWithMistake<kMistake>;
  calls.infiniopDestroyMoeAlignDescriptor = &DestroyForgetting;
}

}  // namespace

void InstallAlignPaddingByAWholeBlock(OpTable &calls) { InstallAlignMistake<AlignMistake::kWholeBlockPadding>(calls); }
void InstallAlignIgnoringExpertMap(OpTable &calls) { InstallAlignMistake<AlignMistake::kIgnoresMap>(calls); }
void InstallAlignWritingTokenNotSlot(OpTable &calls) { InstallAlignMistake<AlignMistake::kTokenNotSlot>(calls); }
void InstallAlignReversingGroups(OpTable &calls) { InstallAlignMistake<AlignMistake::kReversedGroups>(calls); }

INFINICTS_FAULT(OpTable, "moe_align_pads_by_a_whole_block",
                "MoeAlign pads each group to (c + B) / B blocks: a full or empty group gets a block more",
                InstallAlignPaddingByAWholeBlock);
INFINICTS_FAULT(OpTable, "moe_align_ignores_expert_map",
                "MoeAlign takes the ids as local experts whatever the expert map, ids past num_experts left out",
                InstallAlignIgnoringExpertMap);
INFINICTS_FAULT(OpTable, "moe_align_writes_token_not_slot",
                "MoeAlign writes each slot's token (i / topk) into sorted_token_ids instead of the slot i",
                InstallAlignWritingTokenNotSlot);

INFINICTS_FAULT(OpTable, "moe_align_groups_in_reverse_order",
                "MoeAlign writes each group's slots last first: a right answer (OP-MOEALIGN-4 leaves the order free)",
                InstallAlignReversingGroups);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// A whole block more: every routing with an empty expert (all of 8 experts and more) or a full
// group. The map ignored: the expert-parallel ranks. The token for the slot: topk above 1.
// fault-detection: moe_align_pads_by_a_whole_block SUITE op TIMEOUT 60 FILTER op.moe_align.* EXPECT
// fault-detection:   op.moe_align.accuracy/matches_oracle/*same_experts*
// fault-detection:   op.moe_align.accuracy/matches_oracle/*experts_128*
// fault-detection: moe_align_ignores_expert_map SUITE op TIMEOUT 60 FILTER op.moe_align.* EXPECT
// fault-detection:   op.moe_align.accuracy/matches_oracle/*ranks_*
// fault-detection: moe_align_writes_token_not_slot SUITE op TIMEOUT 60 FILTER op.moe_align.* EXPECT
// fault-detection:   op.moe_align.accuracy/matches_oracle/*_top[2-8]_*
// Another order within the groups is right: every case passes.
// fault-detection: moe_align_groups_in_reverse_order SUITE op TIMEOUT 60 FILTER op.moe_align.* ONLY
