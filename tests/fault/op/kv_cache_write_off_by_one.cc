// The fault `kv_cache_write_off_by_one`: both KV-cache writers put every new entry one
// position early. KVCaching writes token s of sequence b at position past_kv_lengths[b] + s − 1
// (a length taken as the last filled position rather than the count); PagedCaching writes
// token t at slot slot_mapping[t] − 1 (a 1-based slot), which crosses into the previous
// block's last offset where the slot starts a block. An entry whose early position would be
// negative is dropped.
//
// Emulated on the host: the real operator runs (and checks its arguments), then the fault
// writes every entry at its early position and gives each position only the real call
// wrote, and the early writes did not reach, back its prior value (read before the call).
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <set>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"

namespace infinicts::fault {
namespace {

// Five tensors in the create call's order: k_cache, v_cache, k, v, then the lengths or slots.
struct CacheRecord {
  TensorLayout k_cache, v_cache, k, v, index;
};

std::optional<CacheRecord> RecordOf(infiniopTensorDescriptor_t k_cache, infiniopTensorDescriptor_t v_cache,
                                    infiniopTensorDescriptor_t k, infiniopTensorDescriptor_t v,
                                    infiniopTensorDescriptor_t index, size_t cache_ndim, size_t entry_ndim) {
  const auto kc = LayoutOf(k_cache), vc = LayoutOf(v_cache), kl = LayoutOf(k), vl = LayoutOf(v), il = LayoutOf(index);
  if (!kc || !vc || !kl || !vl || !il || !IsFloatDtype(kc->dtype) || kc->shape.size() != cache_ndim ||
      vc->shape.size() != cache_ndim || kl->shape.size() != entry_ndim || vl->shape.size() != entry_ndim ||
      il->shape.size() != 1) {
    return std::nullopt;
  }
  return CacheRecord{*kc, *vc, *kl, *vl, *il};
}

int64_t IndexAt(const TensorLayout &layout, const void *base, size_t i) {
  const ptrdiff_t offset = static_cast<ptrdiff_t>(i) * layout.strides[0];
  if (layout.dtype == INFINI_DTYPE_I32) {
    int32_t value;
    std::memcpy(&value, static_cast<const int32_t *>(base) + offset, sizeof value);
    return value;
  }
  int64_t value;
  std::memcpy(&value, static_cast<const int64_t *>(base) + offset, sizeof value);
  return value;
}

ptrdiff_t OffsetOf(const TensorLayout &layout, std::initializer_list<size_t> index) {
  ptrdiff_t offset = 0;
  size_t d = 0;
  for (size_t i : index) offset += static_cast<ptrdiff_t>(i) * layout.strides[d++];
  return offset;
}

// ---- KVCaching: caches [batch, heads, max_seq, dim], entries [batch, heads, new_len, dim].

DescriptorRecords<CacheRecord> kv_records;

infiniStatus_t CreateKVCachingRecorded(infiniopHandle_t handle, infiniopKVCachingDescriptor_t *desc_ptr,
                                       infiniopTensorDescriptor_t k_cache, infiniopTensorDescriptor_t v_cache,
                                       infiniopTensorDescriptor_t k, infiniopTensorDescriptor_t v,
                                       infiniopTensorDescriptor_t past_kv_lengths) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateKVCachingDescriptor(handle, desc_ptr, k_cache, v_cache, k, v, past_kv_lengths);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RecordOf(k_cache, v_cache, k, v, past_kv_lengths, 4, 4)) kv_records.Put(*desc_ptr, *record);
  return status;
}

// One cache's writes: entries one position early, and the last position the real call wrote restored.
void KVCachingWrites(const TensorLayout &cache_layout, void *cache, const TensorLayout &entry_layout,
                     const void *entries, const std::vector<int64_t> &past, std::vector<ElementWrite> &writes) {
  const size_t heads = cache_layout.shape[1], max_seq = cache_layout.shape[2], dim = cache_layout.shape[3];
  const size_t new_len = entry_layout.shape[2];
  for (size_t b = 0; b < past.size(); ++b) {
    if (new_len == 0 || past[b] < 0 || static_cast<size_t>(past[b]) + new_len > max_seq) continue;
    const size_t last = static_cast<size_t>(past[b]) + new_len - 1;
    for (size_t h = 0; h < heads; ++h) {
      for (size_t s = 0; s < new_len; ++s) {
        if (past[b] + static_cast<int64_t>(s) < 1) continue;  // one early would be before position 0
        const size_t early = static_cast<size_t>(past[b]) + s - 1;
        for (size_t d = 0; d < dim; ++d) {
          writes.push_back({cache, cache_layout.dtype, OffsetOf(cache_layout, {b, h, early, d}),
                            LoadElement(entry_layout.dtype, entries, OffsetOf(entry_layout, {b, h, s, d}))});
        }
      }
      for (size_t d = 0; d < dim; ++d) {
        const ptrdiff_t at = OffsetOf(cache_layout, {b, h, last, d});
        writes.push_back({cache, cache_layout.dtype, at, LoadElement(cache_layout.dtype, cache, at)});
      }
    }
  }
}

infiniStatus_t KVCachingOneEarly(infiniopKVCachingDescriptor_t desc, void *workspace, size_t workspace_size,
                                 void *k_cache, void *v_cache, const void *k, const void *v,
                                 const void *past_kv_lengths, void *stream) {
  auto real = [&] {
    return TargetOp().infiniopKVCaching(desc, workspace, workspace_size, k_cache, v_cache, k, v, past_kv_lengths,
                                        stream);
  };
  const auto record = desc != nullptr ? kv_records.Find(desc) : std::nullopt;
  if (!record || !k_cache || !v_cache || !k || !v || !past_kv_lengths) return real();
  return ComputeOnHostInstead(stream, [&] {
    std::vector<int64_t> past(record->index.shape[0]);
    for (size_t b = 0; b < past.size(); ++b) past[b] = IndexAt(record->index, past_kv_lengths, b);
    std::vector<ElementWrite> writes;
    KVCachingWrites(record->k_cache, k_cache, record->k, k, past, writes);
    KVCachingWrites(record->v_cache, v_cache, record->v, v, past, writes);
    return writes;
  }, real);
}

infiniStatus_t DestroyKVCachingForgetting(infiniopKVCachingDescriptor_t desc) {
  kv_records.Erase(desc);
  return TargetOp().infiniopDestroyKVCachingDescriptor(desc);
}

// ---- PagedCaching: pools [blocks, heads, block_size, dim], entries [tokens, heads, dim].

DescriptorRecords<CacheRecord> paged_records;

infiniStatus_t CreatePagedCachingRecorded(infiniopHandle_t handle, infiniopPagedCachingDescriptor_t *desc_ptr,
                                          infiniopTensorDescriptor_t k_cache_desc,
                                          infiniopTensorDescriptor_t v_cache_desc, infiniopTensorDescriptor_t k_desc,
                                          infiniopTensorDescriptor_t v_desc,
                                          infiniopTensorDescriptor_t slot_mapping_desc) {
  const infiniStatus_t status = TargetOp().infiniopCreatePagedCachingDescriptor(
      handle, desc_ptr, k_cache_desc, v_cache_desc, k_desc, v_desc, slot_mapping_desc);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (auto record = RecordOf(k_cache_desc, v_cache_desc, k_desc, v_desc, slot_mapping_desc, 4, 3)) {
    paged_records.Put(*desc_ptr, *record);
  }
  return status;
}

// One pool's writes: each token at its slot − 1, and each slot the real call wrote that no
// early write reached restored.
void PagedCachingWrites(const TensorLayout &pool_layout, void *pool, const TensorLayout &entry_layout,
                        const void *entries, const std::vector<int64_t> &slots, std::vector<ElementWrite> &writes) {
  const size_t heads = pool_layout.shape[1], block_size = pool_layout.shape[2], dim = pool_layout.shape[3];
  const int64_t pool_slots = static_cast<int64_t>(pool_layout.shape[0] * block_size);
  std::set<int64_t> written, early_written;
  for (int64_t slot : slots) {
    if (slot < 0 || slot >= pool_slots) continue;
    written.insert(slot);
    if (slot >= 1) early_written.insert(slot - 1);
  }
  auto at = [&](int64_t slot, size_t h, size_t d) {
    const size_t s = static_cast<size_t>(slot);
    return OffsetOf(pool_layout, {s / block_size, h, s % block_size, d});
  };
  for (size_t t = 0; t < slots.size(); ++t) {
    if (slots[t] < 1 || slots[t] >= pool_slots) continue;  // padding, outside the pool, or nowhere one early
    for (size_t h = 0; h < heads; ++h) {
      for (size_t d = 0; d < dim; ++d) {
        writes.push_back({pool, pool_layout.dtype, at(slots[t] - 1, h, d),
                          LoadElement(entry_layout.dtype, entries, OffsetOf(entry_layout, {t, h, d}))});
      }
    }
  }
  for (int64_t slot : written) {
    if (early_written.count(slot)) continue;
    for (size_t h = 0; h < heads; ++h) {
      for (size_t d = 0; d < dim; ++d) {
        writes.push_back({pool, pool_layout.dtype, at(slot, h, d), LoadElement(pool_layout.dtype, pool, at(slot, h, d))});
      }
    }
  }
}

infiniStatus_t PagedCachingOneEarly(infiniopPagedCachingDescriptor_t desc, void *workspace, size_t workspace_size,
                                    void *k_cache, void *v_cache, const void *k, const void *v,
                                    const void *slot_mapping, void *stream) {
  auto real = [&] {
    return TargetOp().infiniopPagedCaching(desc, workspace, workspace_size, k_cache, v_cache, k, v, slot_mapping,
                                           stream);
  };
  const auto record = desc != nullptr ? paged_records.Find(desc) : std::nullopt;
  if (!record || !k_cache || !v_cache || !k || !v || !slot_mapping) return real();
  return ComputeOnHostInstead(stream, [&] {
    std::vector<int64_t> slots(record->index.shape[0]);
    for (size_t t = 0; t < slots.size(); ++t) slots[t] = IndexAt(record->index, slot_mapping, t);
    std::vector<ElementWrite> writes;
    PagedCachingWrites(record->k_cache, k_cache, record->k, k, slots, writes);
    PagedCachingWrites(record->v_cache, v_cache, record->v, v, slots, writes);
    return writes;
  }, real);
}

infiniStatus_t DestroyPagedCachingForgetting(infiniopPagedCachingDescriptor_t desc) {
  paged_records.Erase(desc);
  return TargetOp().infiniopDestroyPagedCachingDescriptor(desc);
}

}  // namespace

void InstallKvCacheWriteOffByOne(OpTable &calls) {
  TrackTensorLayouts(calls);
  calls.infiniopCreateKVCachingDescriptor = &CreateKVCachingRecorded;
  calls.infiniopKVCaching = &KVCachingOneEarly;
  calls.infiniopDestroyKVCachingDescriptor = &DestroyKVCachingForgetting;
  calls.infiniopCreatePagedCachingDescriptor = &CreatePagedCachingRecorded;
  calls.infiniopPagedCaching = &PagedCachingOneEarly;
  calls.infiniopDestroyPagedCachingDescriptor = &DestroyPagedCachingForgetting;
}
INFINICTS_FAULT(OpTable, "kv_cache_write_off_by_one",
                "KVCaching writes each new entry at past_kv_lengths[b] + s - 1 and PagedCaching at slot_mapping[t] - 1",
                InstallKvCacheWriteOffByOne);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every KVCaching and PagedCaching case that computes: each has a sequence with a past length
// >= 1 or several new tokens (KVCaching), or a slot >= 1 (PagedCaching), so a position that
// must keep its prior value is overwritten or an entry lands beside its place (OP-KVCACHING-3,
// OP-PAGEDCACHING-3).
// fault-detection: kv_cache_write_off_by_one SUITE op TIMEOUT 30 FILTER op.kv_caching.* op.paged_caching.*
// fault-detection:   EXPECT op.kv_caching.accuracy/* op.paged_caching.accuracy/*
// fault-detection:   op.kv_caching.conformance/stream_order/* op.paged_caching.conformance/stream_order/*
