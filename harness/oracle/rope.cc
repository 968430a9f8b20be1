#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor RoPE(const HostTensor &x, const HostTensor &pos_ids, const HostTensor &sin_table,
                const HostTensor &cos_table, RopePairing pairing) {
  Require(x.ndim() == 3 || x.ndim() == 4, "RoPE", "x must be [seq, heads, dim] or [batch, seq, heads, dim]");
  const bool batched = x.ndim() == 4;
  const size_t batch = batched ? x.shape()[0] : 1;
  const size_t seq = x.shape()[x.ndim() - 3];
  const size_t heads = x.shape()[x.ndim() - 2];
  const size_t dim = x.shape()[x.ndim() - 1];
  const size_t half = dim / 2;
  Require(dim % 2 == 0, "RoPE", "the head dimension must be even");
  Require(sin_table.ndim() == 2 && sin_table.shape()[1] == half, "RoPE",
          "sin_table must be [table_len, " + std::to_string(half) + "]");
  RequireSameShape(sin_table, cos_table, "RoPE", "sin_table", "cos_table");
  const bool per_batch_positions = pos_ids.ndim() == 2;
  Require((pos_ids.ndim() == 1 && pos_ids.shape()[0] == seq) ||
              (per_batch_positions && pos_ids.shape()[0] == batch && pos_ids.shape()[1] == seq),
          "RoPE", "pos_ids must be [seq] or [batch, seq], got " + ShapeText(pos_ids.shape()));
  const size_t table_len = sin_table.shape()[0];

  const std::vector<double> sines = sin_table.ToDoubles();
  const std::vector<double> cosines = cos_table.ToDoubles();
  std::vector<double> values = x.ToDoubles();
  for (size_t b = 0; b < batch; ++b) {
    for (size_t s = 0; s < seq; ++s) {
      const int64_t position = IntegerAt(pos_ids, per_batch_positions ? b * seq + s : s);
      Require(position >= 0 && static_cast<size_t>(position) < table_len, "RoPE",
              "position " + std::to_string(position) + " outside the tables");
      for (size_t h = 0; h < heads; ++h) {
        double *vec = values.data() + ((b * seq + s) * heads + h) * dim;
        for (size_t i = 0; i < half; ++i) {
          const size_t first = pairing == RopePairing::kGptJ ? 2 * i : i;
          const size_t second = pairing == RopePairing::kGptJ ? 2 * i + 1 : i + half;
          const double sine = sines[static_cast<size_t>(position) * half + i];
          const double cosine = cosines[static_cast<size_t>(position) * half + i];
          const double x_first = vec[first], x_second = vec[second];
          vec[first] = x_first * cosine - x_second * sine;
          vec[second] = x_first * sine + x_second * cosine;
        }
      }
    }
  }
  return F64Tensor(x.shape(), values);
}

}  // namespace infinicts::oracle
