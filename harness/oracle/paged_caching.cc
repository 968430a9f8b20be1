#include <set>
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor PagedCaching(const HostTensor &cache_pool, const HostTensor &entries, const HostTensor &slot_mapping) {
  Require(cache_pool.ndim() == 4, "PagedCaching", "cache_pool must be [num_blocks, kv_heads, block_size, head_dim]");
  Require(entries.ndim() == 3, "PagedCaching", "entries must be [num_tokens, kv_heads, head_dim]");
  const size_t blocks = cache_pool.shape()[0], heads = cache_pool.shape()[1], block_size = cache_pool.shape()[2],
               head_dim = cache_pool.shape()[3];
  const size_t tokens = entries.shape()[0];
  Require(entries.shape()[1] == heads && entries.shape()[2] == head_dim, "PagedCaching",
          "entries " + ShapeText(entries.shape()) + " do not fit the pool " + ShapeText(cache_pool.shape()));
  Require(slot_mapping.ndim() == 1 && slot_mapping.shape()[0] == tokens, "PagedCaching",
          "slot_mapping must be [" + std::to_string(tokens) + "]");
  // Both row-major: pool [block][h][offset][d], entries [t][h][d].
  std::vector<double> values = cache_pool.ToDoubles();
  const std::vector<double> written = entries.ToDoubles();
  std::set<int64_t> taken;
  for (size_t t = 0; t < tokens; ++t) {
    const int64_t slot = IntegerAt(slot_mapping, t);
    if (slot < 0) continue;  // a padding token: nothing is written
    Require(static_cast<size_t>(slot) < blocks * block_size, "PagedCaching",
            "token " + std::to_string(t) + ": slot " + std::to_string(slot) + " outside the pool's " +
                std::to_string(blocks * block_size) + " slots");
    Require(taken.insert(slot).second, "PagedCaching", "slot " + std::to_string(slot) + " given to two tokens");
    const size_t block = static_cast<size_t>(slot) / block_size, offset = static_cast<size_t>(slot) % block_size;
    for (size_t h = 0; h < heads; ++h) {
      for (size_t d = 0; d < head_dim; ++d) {
        values[((block * heads + h) * block_size + offset) * head_dim + d] = written[(t * heads + h) * head_dim + d];
      }
    }
  }
  return F64Tensor(cache_pool.shape(), values);
}

}  // namespace infinicts::oracle
