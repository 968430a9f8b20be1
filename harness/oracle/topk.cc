// TopK (docs/spec/op.md OP-TOPK-3): every line along dim ranked by value, ties by lower position.
#include <algorithm>
#include <numeric>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

TopKResult TopK(const HostTensor &input, size_t k, size_t dim, bool largest) {
  const Shape &shape = input.shape();
  Require(dim < shape.size(), "TopK", "dim out of range");
  const size_t extent = shape[dim];
  Require(k >= 1 && k <= extent, "TopK", "k outside [1, the dim's extent]");
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  Shape out_shape = shape;
  out_shape[dim] = k;
  std::vector<double> values(outer * k * inner);
  std::vector<double> indices(values.size());
  std::vector<double> line(extent);
  std::vector<size_t> order(extent);
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      for (size_t j = 0; j < extent; ++j) line[j] = input.GetAt((o * extent + j) * inner + i);
      std::iota(order.begin(), order.end(), size_t{0});
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return largest ? line[a] > line[b] : line[a] < line[b];
      });
      for (size_t j = 0; j < k; ++j) {
        values[(o * k + j) * inner + i] = line[order[j]];
        indices[(o * k + j) * inner + i] = static_cast<double>(order[j]);
      }
    }
  }
  TopKResult result{F64Tensor(out_shape, values), HostTensor(INFINI_DTYPE_I64, out_shape)};
  for (size_t i = 0; i < indices.size(); ++i) result.indices.SetAt(i, indices[i]);
  return result;
}

}  // namespace infinicts::oracle
