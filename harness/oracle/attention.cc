#include <cmath>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

AttentionResult Attention(const HostTensor &q, const HostTensor &k, const HostTensor &v, const HostTensor &k_cache,
                          const HostTensor &v_cache, size_t pos) {
  Require(q.ndim() == 3, "Attention", "q must be [n_q_heads, seq_len, head_dim]");
  const size_t n_q = q.shape()[0], seq = q.shape()[1], dim = q.shape()[2];
  Require(k.ndim() == 3 && k.shape()[1] == seq && k.shape()[2] == dim, "Attention",
          "k " + ShapeText(k.shape()) + " must be [n_kv_heads, " + std::to_string(seq) + ", " + std::to_string(dim) + "]");
  RequireSameShape(k, v, "Attention", "k", "v");
  const size_t n_kv = k.shape()[0];
  Require(n_kv > 0 && n_q % n_kv == 0, "Attention", "n_kv_heads must divide n_q_heads");
  for (const HostTensor *cache : {&k_cache, &v_cache}) {
    Require(cache->ndim() == 3 && cache->shape()[0] == n_kv && cache->shape()[2] == dim &&
                cache->shape()[1] >= pos + seq,
            "Attention", "cache " + ShapeText(cache->shape()) + " must be [n_kv_heads, >= pos + seq_len, head_dim]");
  }
  const size_t k_capacity = k_cache.shape()[1], v_capacity = v_cache.shape()[1];
  const size_t group = n_q / n_kv;  // q heads per kv head

  // The caches after the write: row pos + s of kv head g holds token s's key (value).
  std::vector<double> keys = k_cache.ToDoubles(), values = v_cache.ToDoubles();
  const std::vector<double> new_keys = k.ToDoubles(), new_values = v.ToDoubles();
  for (size_t g = 0; g < n_kv; ++g) {
    for (size_t s = 0; s < seq; ++s) {
      for (size_t d = 0; d < dim; ++d) {
        keys[(g * k_capacity + pos + s) * dim + d] = new_keys[(g * seq + s) * dim + d];
        values[(g * v_capacity + pos + s) * dim + d] = new_values[(g * seq + s) * dim + d];
      }
    }
  }

  const std::vector<double> queries = q.ToDoubles();
  const double scale = 1.0 / std::sqrt(static_cast<double>(dim));
  std::vector<double> out(seq * n_q * dim, 0.0);
  std::vector<double> weights;
  for (size_t h = 0; h < n_q; ++h) {
    const size_t g = h / group;  // the kv head this q head shares with its group
    for (size_t i = 0; i < seq; ++i) {
      // New token i sits at absolute position pos + i and sees the keys at positions 0 .. pos + i.
      const size_t visible = pos + i + 1;
      const double *query = &queries[(h * seq + i) * dim];
      weights.assign(visible, 0.0);
      double max_score = -HUGE_VAL;
      for (size_t j = 0; j < visible; ++j) {
        const double *key = &keys[(g * k_capacity + j) * dim];
        double dot = 0.0;
        for (size_t d = 0; d < dim; ++d) dot += query[d] * key[d];
        weights[j] = dot * scale;
        max_score = std::fmax(max_score, weights[j]);
      }
      double sum = 0.0;
      for (size_t j = 0; j < visible; ++j) {
        weights[j] = std::exp(weights[j] - max_score);
        sum += weights[j];
      }
      double *result = &out[(i * n_q + h) * dim];
      for (size_t j = 0; j < visible; ++j) {
        const double p = weights[j] / sum;
        const double *value = &values[(g * v_capacity + j) * dim];
        for (size_t d = 0; d < dim; ++d) result[d] += p * value[d];
      }
    }
  }
  return {F64Tensor({seq, n_q, dim}, out), F64Tensor(k_cache.shape(), keys), F64Tensor(v_cache.shape(), values)};
}

}  // namespace infinicts::oracle
