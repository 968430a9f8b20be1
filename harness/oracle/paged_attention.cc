// PagedAttention in double precision, from OP-PAGEDATTENTION-3: one query per sequence at
// its last position attending every key, which is the prefill's clause with one query per
// sequence (P = seq_lens[s] − 1, b_j = slope·(j − (L − 1))).
#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor PagedAttention(const HostTensor &q, const HostTensor &k_cache, const HostTensor &v_cache,
                          const HostTensor &block_tables, const HostTensor &seq_lens, const HostTensor *alibi_slopes,
                          double scale) {
  Require(q.ndim() == 3 && seq_lens.ndim() == 1 && q.shape()[0] == seq_lens.shape()[0], "PagedAttention",
          "q must be [num_seqs, num_heads, head_size] with seq_lens [num_seqs]");
  const size_t num_seqs = q.shape()[0];
  HostTensor cum_seq_lens_q(INFINI_DTYPE_I64, Shape{num_seqs + 1});
  for (size_t s = 0; s <= num_seqs; ++s) cum_seq_lens_q.SetInt({s}, static_cast<int64_t>(s));
  return PagedAttentionPrefill(q, k_cache, v_cache, block_tables, seq_lens, cum_seq_lens_q, alibi_slopes, scale);
}

}  // namespace infinicts::oracle
