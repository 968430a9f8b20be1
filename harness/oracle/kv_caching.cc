#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor KVCaching(const HostTensor &cache, const HostTensor &entries, const HostTensor &past_kv_lengths) {
  Require(cache.ndim() == 4, "KVCaching", "cache must be [batch, kv_heads, max_seq_len, head_dim]");
  Require(entries.ndim() == 4, "KVCaching", "entries must be [batch, kv_heads, new_len, head_dim]");
  const size_t batch = cache.shape()[0], heads = cache.shape()[1], max_seq = cache.shape()[2],
               head_dim = cache.shape()[3];
  const size_t new_len = entries.shape()[2];
  Require(entries.shape()[0] == batch && entries.shape()[1] == heads && entries.shape()[3] == head_dim, "KVCaching",
          "entries " + ShapeText(entries.shape()) + " do not fit the cache " + ShapeText(cache.shape()));
  Require(past_kv_lengths.ndim() == 1 && past_kv_lengths.shape()[0] == batch, "KVCaching",
          "past_kv_lengths must be [" + std::to_string(batch) + "]");
  // Both row-major: cache [b][h][position][d], entries [b][h][s][d].
  std::vector<double> values = cache.ToDoubles();
  const std::vector<double> written = entries.ToDoubles();
  for (size_t b = 0; b < batch; ++b) {
    const int64_t past = IntegerAt(past_kv_lengths, b);
    Require(past >= 0 && static_cast<size_t>(past) + new_len <= max_seq, "KVCaching",
            "sequence " + std::to_string(b) + ": past length " + std::to_string(past) + " + " +
                std::to_string(new_len) + " new entries do not fit " + std::to_string(max_seq) + " positions");
    for (size_t h = 0; h < heads; ++h) {
      for (size_t s = 0; s < new_len; ++s) {
        const size_t position = static_cast<size_t>(past) + s;  // appended right after the sequence's past
        for (size_t d = 0; d < head_dim; ++d) {
          values[((b * heads + h) * max_seq + position) * head_dim + d] =
              written[((b * heads + h) * new_len + s) * head_dim + d];
        }
      }
    }
  }
  return F64Tensor(cache.shape(), values);
}

}  // namespace infinicts::oracle
