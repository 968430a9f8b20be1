// The fault `paged_attention_ignores_block_table`: PagedAttention and PagedAttentionPrefill
// read logical block b of every sequence from pool block b, as a kernel that indexes the
// pool by position and forgets the indirection does (block_tables[s, b] taken as b).
//
// Emulated by handing the real operator, instead of the caller's block_tables, a table of
// the same dtype and layout holding b at every [s, b], made when the descriptor is; the
// lengths, queries and pools are the caller's. The table lives in host memory, so this
// fault serves the CPU device (where the fault tests run); the compute call waits for the
// stream before it returns, so the table outlives the work that reads it.
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "op/descriptor_records.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

using TableStorage = std::shared_ptr<std::vector<unsigned char>>;

// Storage laid out as `layout` with table[s, b] = b; none for a layout the fault cannot fill
// (not 2-D, a dtype other than I32, I64 or U32, a negative stride).
std::optional<TableStorage> IdentityTable(const std::optional<TensorLayout> &layout) {
  if (!layout || layout->shape.size() != 2 || layout->strides[0] < 0 || layout->strides[1] < 0) return std::nullopt;
  const infiniDtype_t dtype = layout->dtype;
  if (dtype != INFINI_DTYPE_I32 && dtype != INFINI_DTYPE_I64 && dtype != INFINI_DTYPE_U32) return std::nullopt;
  const size_t size = DtypeBytes(dtype);
  auto storage = std::make_shared<std::vector<unsigned char>>(
      (static_cast<size_t>(layout->HighestOffset()) + 1) * size, static_cast<unsigned char>(0));
  for (size_t s = 0; s < layout->shape[0]; ++s) {
    for (size_t b = 0; b < layout->shape[1]; ++b) {
      unsigned char *at = storage->data() + (static_cast<ptrdiff_t>(s) * layout->strides[0] +
                                             static_cast<ptrdiff_t>(b) * layout->strides[1]) *
                                                static_cast<ptrdiff_t>(size);
      if (dtype == INFINI_DTYPE_I64) {
        const int64_t value = static_cast<int64_t>(b);
        std::memcpy(at, &value, sizeof value);
      } else {
        const int32_t value = static_cast<int32_t>(b);  // the same bits for U32
        std::memcpy(at, &value, sizeof value);
      }
    }
  }
  return storage;
}

DescriptorRecords<TableStorage> decode_tables, prefill_tables;

// Runs `real` with the identity table, then waits for its work (see the top of the file).
template <class Real>
infiniStatus_t WithIdentityTable(const std::optional<TableStorage> &table, const void *block_tables, void *stream,
                                 Real &&real) {
  if (!table || block_tables == nullptr) return real(block_tables);
  const infiniStatus_t status = real((*table)->data());
  if (status == INFINI_STATUS_SUCCESS) WaitForStream(stream);
  return status;
}

infiniStatus_t CreateDecodeRecorded(infiniopHandle_t handle, infiniopPagedAttentionDescriptor_t *desc_ptr,
                                    infiniopTensorDescriptor_t out_desc, infiniopTensorDescriptor_t q_desc,
                                    infiniopTensorDescriptor_t k_cache_desc, infiniopTensorDescriptor_t v_cache_desc,
                                    infiniopTensorDescriptor_t block_tables_desc,
                                    infiniopTensorDescriptor_t seq_lens_desc,
                                    infiniopTensorDescriptor_t alibi_slopes_desc, float scale) {
  const infiniStatus_t status = TargetOp().infiniopCreatePagedAttentionDescriptor(
      handle, desc_ptr, out_desc, q_desc, k_cache_desc, v_cache_desc, block_tables_desc, seq_lens_desc,
      alibi_slopes_desc, scale);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto table = IdentityTable(LayoutOf(block_tables_desc))) decode_tables.Put(*desc_ptr, *table);
  return status;
}

infiniStatus_t DecodeIgnoringTable(infiniopPagedAttentionDescriptor_t desc, void *workspace, size_t workspace_size,
                                   void *out, const void *q, const void *k_cache, const void *v_cache,
                                   const void *block_tables, const void *seq_lens, const void *alibi_slopes,
                                   void *stream) {
  return WithIdentityTable(desc != nullptr ? decode_tables.Find(desc) : std::optional<TableStorage>{}, block_tables, stream,
                           [&](const void *tables) {
                             return TargetOp().infiniopPagedAttention(desc, workspace, workspace_size, out, q, k_cache,
                                                                      v_cache, tables, seq_lens, alibi_slopes, stream);
                           });
}

infiniStatus_t DestroyDecodeForgetting(infiniopPagedAttentionDescriptor_t desc) {
  decode_tables.Erase(desc);
  return TargetOp().infiniopDestroyPagedAttentionDescriptor(desc);
}

infiniStatus_t CreatePrefillRecorded(infiniopHandle_t handle, infiniopPagedAttentionPrefillDescriptor_t *desc_ptr,
                                     infiniopTensorDescriptor_t out_desc, infiniopTensorDescriptor_t q_desc,
                                     infiniopTensorDescriptor_t k_cache_desc, infiniopTensorDescriptor_t v_cache_desc,
                                     infiniopTensorDescriptor_t block_tables_desc,
                                     infiniopTensorDescriptor_t seq_lens_desc,
                                     infiniopTensorDescriptor_t cum_seq_lens_q_desc,
                                     infiniopTensorDescriptor_t alibi_slopes_desc, float scale) {
  const infiniStatus_t status = TargetOp().infiniopCreatePagedAttentionPrefillDescriptor(
      handle, desc_ptr, out_desc, q_desc, k_cache_desc, v_cache_desc, block_tables_desc, seq_lens_desc,
      cum_seq_lens_q_desc, alibi_slopes_desc, scale);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto table = IdentityTable(LayoutOf(block_tables_desc))) prefill_tables.Put(*desc_ptr, *table);
  return status;
}

infiniStatus_t PrefillIgnoringTable(infiniopPagedAttentionPrefillDescriptor_t desc, void *workspace,
                                    size_t workspace_size, void *out, const void *q, const void *k_cache,
                                    const void *v_cache, const void *block_tables, const void *seq_lens,
                                    const void *cum_seq_lens_q, const void *alibi_slopes, void *stream) {
  return WithIdentityTable(desc != nullptr ? prefill_tables.Find(desc) : std::optional<TableStorage>{}, block_tables, stream,
                           [&](const void *tables) {
                             return TargetOp().infiniopPagedAttentionPrefill(desc, workspace, workspace_size, out, q,
                                                                             k_cache, v_cache, tables, seq_lens,
                                                                             cum_seq_lens_q, alibi_slopes, stream);
                           });
}

infiniStatus_t DestroyPrefillForgetting(infiniopPagedAttentionPrefillDescriptor_t desc) {
  prefill_tables.Erase(desc);
  return TargetOp().infiniopDestroyPagedAttentionPrefillDescriptor(desc);
}

}  // namespace

void InstallPagedAttentionIgnoresBlockTable(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreatePagedAttentionDescriptor = &CreateDecodeRecorded;
  calls.infiniopPagedAttention = &DecodeIgnoringTable;
  calls.infiniopDestroyPagedAttentionDescriptor = &DestroyDecodeForgetting;
  calls.infiniopCreatePagedAttentionPrefillDescriptor = &CreatePrefillRecorded;
  calls.infiniopPagedAttentionPrefill = &PrefillIgnoringTable;
  calls.infiniopDestroyPagedAttentionPrefillDescriptor = &DestroyPrefillForgetting;
}
INFINICTS_FAULT(OpTable, "paged_attention_ignores_block_table",
                "PagedAttention and PagedAttentionPrefill read logical block b of every sequence from pool block b (block_tables[s, b] taken as b)",
                InstallPagedAttentionIgnoresBlockTable);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every PagedAttention and PagedAttentionPrefill case that computes: the suite hands pool blocks
// out backwards, so in every case some sequence's block b is not pool block b and the identity
// table reads another sequence's rows or the NaN of a free block (OP-PAGEDATTENTION-3,
// OP-PAGEDATTENTIONPREFILL-3).
// fault-detection: paged_attention_ignores_block_table SUITE op TIMEOUT 30
// fault-detection:   FILTER op.paged_attention.* op.paged_attention_prefill.*
// fault-detection:   EXPECT op.paged_attention.accuracy/* op.paged_attention_prefill.accuracy/*
// fault-detection:   op.paged_attention.conformance/stream_order/* op.paged_attention_prefill.conformance/stream_order/*
