// Faults of Attention over a KV cache, each a classic slip of an attention kernel, computed on
// the host after the real call (op/host_compute.h; the real call still writes the caches):
// - attention_mask_without_cache_offset: new token i sees the keys 0 .. i, the causal mask of a
//   prompt without the cache's past (pos) added, instead of 0 .. pos + i;
// - attention_gqa_by_modulo: q head h reads kv head h mod n_kv_heads instead of
//   h / (n_q_heads / n_kv_heads);
// - attention_unscaled_scores: the scores are q·k, without the 1/sqrt(head_dim).
// Everything else is as OP-ATTENTION-5 says, in double.
#include <cmath>
#include <vector>

#include "op/descriptor_records.h"
#include "op/element_values.h"
#include "op/host_compute.h"
#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/tensor_layout.h"

namespace infinicts::fault {
namespace {

enum class AttentionSlip { kMaskWithoutCacheOffset, kGqaByModulo, kUnscaledScores };

struct AttentionRecord {
  TensorLayout out, q, k, v, k_cache, v_cache;
  size_t pos = 0;
};
DescriptorRecords<AttentionRecord> attention_records;
AttentionSlip active_slip = AttentionSlip::kMaskWithoutCacheOffset;

ptrdiff_t At(const TensorLayout &layout, size_t i0, size_t i1, size_t i2) {
  return static_cast<ptrdiff_t>(i0) * layout.strides[0] + static_cast<ptrdiff_t>(i1) * layout.strides[1] +
         static_cast<ptrdiff_t>(i2) * layout.strides[2];
}

infiniStatus_t CreateAttentionRecorded(infiniopHandle_t handle, infiniopAttentionDescriptor_t *desc_ptr,
                                       infiniopTensorDescriptor_t out, infiniopTensorDescriptor_t q,
                                       infiniopTensorDescriptor_t k, infiniopTensorDescriptor_t v,
                                       infiniopTensorDescriptor_t k_cache, infiniopTensorDescriptor_t v_cache,
                                       size_t pos) {
  const infiniStatus_t status =
      TargetOp().infiniopCreateAttentionDescriptor(handle, desc_ptr, out, q, k, v, k_cache, v_cache, pos);
  if (status != INFINI_STATUS_SUCCESS) return status;
  const auto o = LayoutOf(out), ql = LayoutOf(q), kl = LayoutOf(k), vl = LayoutOf(v), kc = LayoutOf(k_cache),
             vc = LayoutOf(v_cache);
  if (o && ql && kl && vl && kc && vc && IsFloatDtype(ql->dtype) && ql->shape.size() == 3 && kl->shape.size() == 3 &&
      kc->shape.size() == 3 && vc->shape.size() == 3 && kl->shape[0] > 0) {
    attention_records.Put(*desc_ptr, {*o, *ql, *kl, *vl, *kc, *vc, pos});
  } else {
    attention_records.Erase(*desc_ptr);
  }
  return status;
}

// out as the slip computes it, from q, k, v and the caches as they were before the call (key
// row j of kv head g: the cache's for j < pos, the new k's row j − pos after).
std::vector<ElementWrite> SlippedAttention(const AttentionRecord &r, void *out, const void *q, const void *k,
                                           const void *v, const void *k_cache, const void *v_cache) {
  const size_t n_q = r.q.shape[0], seq = r.q.shape[1], dim = r.q.shape[2], n_kv = r.k.shape[0];
  const size_t group = n_q / n_kv;
  const infiniDtype_t dtype = r.q.dtype;
  const auto key = [&](size_t g, size_t j, size_t d) {
    return j < r.pos ? LoadElement(dtype, k_cache, At(r.k_cache, g, j, d))
                     : LoadElement(dtype, k, At(r.k, g, j - r.pos, d));
  };
  const auto value = [&](size_t g, size_t j, size_t d) {
    return j < r.pos ? LoadElement(dtype, v_cache, At(r.v_cache, g, j, d))
                     : LoadElement(dtype, v, At(r.v, g, j - r.pos, d));
  };
  std::vector<ElementWrite> writes;
  writes.reserve(n_q * seq * dim);
  std::vector<double> weights, result(dim);
  const double scale =
      active_slip == AttentionSlip::kUnscaledScores ? 1.0 : 1.0 / std::sqrt(static_cast<double>(dim));
  for (size_t h = 0; h < n_q; ++h) {
    const size_t g = active_slip == AttentionSlip::kGqaByModulo ? h % n_kv : h / group;
    for (size_t i = 0; i < seq; ++i) {
      const size_t visible = active_slip == AttentionSlip::kMaskWithoutCacheOffset ? i + 1 : r.pos + i + 1;
      weights.assign(visible, 0.0);
      double max_score = -HUGE_VAL;
      for (size_t j = 0; j < visible; ++j) {
        double dot = 0;
        for (size_t d = 0; d < dim; ++d) dot += LoadElement(dtype, q, At(r.q, h, i, d)) * key(g, j, d);
        weights[j] = dot * scale;
        max_score = std::fmax(max_score, weights[j]);
      }
      double sum = 0;
      for (double &w : weights) {
        w = std::exp(w - max_score);
        sum += w;
      }
      result.assign(dim, 0.0);
      for (size_t j = 0; j < visible; ++j) {
        for (size_t d = 0; d < dim; ++d) result[d] += weights[j] / sum * value(g, j, d);
      }
      for (size_t d = 0; d < dim; ++d) writes.push_back({out, r.out.dtype, At(r.out, i, h, d), result[d]});
    }
  }
  return writes;
}

infiniStatus_t AttentionSlipped(infiniopAttentionDescriptor_t desc, void *workspace, size_t workspace_size, void *out,
                                const void *q, const void *k, const void *v, void *k_cache, void *v_cache,
                                void *stream) {
  const auto real = [&] {
    return TargetOp().infiniopAttention(desc, workspace, workspace_size, out, q, k, v, k_cache, v_cache, stream);
  };
  const auto record = desc != nullptr ? attention_records.Find(desc) : std::nullopt;
  if (!record || !out || !q || !k || !v || !k_cache || !v_cache) return real();
  return ComputeOnHostInstead(
      stream, [&] { return SlippedAttention(*record, out, q, k, v, k_cache, v_cache); }, real);
}

infiniStatus_t DestroyAttentionForgetting(infiniopAttentionDescriptor_t desc) {
  attention_records.Erase(desc);
  return TargetOp().infiniopDestroyAttentionDescriptor(desc);
}

void InstallAttentionSlip(OpTable &calls, AttentionSlip slip) {
  active_slip = slip;
  TrackTensorLayouts(calls);
  calls.infiniopCreateAttentionDescriptor = &CreateAttentionRecorded;
  calls.infiniopAttention = &AttentionSlipped;
  calls.infiniopDestroyAttentionDescriptor = &DestroyAttentionForgetting;
}

}  // namespace

void InstallAttentionMaskWithoutCacheOffset(OpTable &calls) {
  InstallAttentionSlip(calls, AttentionSlip::kMaskWithoutCacheOffset);
}
INFINICTS_FAULT(OpTable, "attention_mask_without_cache_offset",
                "Attention lets new token i see the keys 0 .. i, a prompt's causal mask without the cache's past pos",
                InstallAttentionMaskWithoutCacheOffset);

void InstallAttentionGqaByModulo(OpTable &calls) { InstallAttentionSlip(calls, AttentionSlip::kGqaByModulo); }
INFINICTS_FAULT(OpTable, "attention_gqa_by_modulo",
                "Attention's q head h reads kv head h mod n_kv_heads instead of h / group",
                InstallAttentionGqaByModulo);

void InstallAttentionUnscaledScores(OpTable &calls) { InstallAttentionSlip(calls, AttentionSlip::kUnscaledScores); }
INFINICTS_FAULT(OpTable, "attention_unscaled_scores",
                "Attention's scores are q·k without the 1/sqrt(head_dim)",
                InstallAttentionUnscaledScores);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every Attention case with a past (pos >= 1): new token i then sees pos keys fewer; the prompts
// from position 0 cannot tell (OP-ATTENTION-5).
// fault-detection: attention_mask_without_cache_offset SUITE op TIMEOUT 30 FILTER op.attention.* EXPECT
// fault-detection:   op.attention.accuracy/matches_oracle/*_pos[1-9]*
// The GQA groups whose h mod n_kv_heads and h / group differ (q8_kv2, q6_kv2, q32_kv8); MHA
// (group 1) and MQA (one kv head) cannot tell (OP-ATTENTION-5).
// fault-detection: attention_gqa_by_modulo SUITE op TIMEOUT 30 FILTER op.attention.* EXPECT
// fault-detection:   op.attention.accuracy/matches_oracle/*/q8_kv2_*
// fault-detection:   op.attention.accuracy/matches_oracle/*/q6_kv2_*
// fault-detection:   op.attention.accuracy/matches_oracle/*/q32_kv8_*
// Every case with more than one key per query: the past ones and the prompt from position 0;
// the first token alone (one key, weight 1) cannot tell (OP-ATTENTION-5).
// fault-detection: attention_unscaled_scores SUITE op TIMEOUT 30 FILTER op.attention.* EXPECT
// fault-detection:   op.attention.accuracy/matches_oracle/*_pos[1-9]*
// fault-detection:   op.attention.accuracy/matches_oracle/*/q4_kv4_seq7_pos0_*
