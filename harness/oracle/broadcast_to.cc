// BroadcastTo (docs/spec/op.md OP-BROADCASTTO-3): numpy broadcasting of x to y's shape.
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor BroadcastTo(const HostTensor &x, const Shape &y_shape) {
  const Shape &x_shape = x.shape();
  Require(x_shape.size() <= y_shape.size(), "BroadcastTo", "x has more dims than y");
  const size_t lead = y_shape.size() - x_shape.size();
  for (size_t d = 0; d < x_shape.size(); ++d) {
    Require(x_shape[d] == 1 || x_shape[d] == y_shape[lead + d], "BroadcastTo",
            "x's dim " + std::to_string(d) + " is neither 1 nor y's");
  }
  const size_t count = NumElements(y_shape);
  std::vector<double> y(count);
  std::vector<size_t> index(y_shape.size(), 0);
  for (size_t i = 0; i < count; ++i) {
    // x's row-major position of y's element i: y's index with x's dims of 1 held at 0.
    size_t position = 0;
    for (size_t d = 0; d < x_shape.size(); ++d) {
      position = position * x_shape[d] + (x_shape[d] == 1 ? 0 : index[lead + d]);
    }
    y[i] = x.GetAt(position);
    for (size_t d = y_shape.size(); d-- > 0;) {
      if (++index[d] < y_shape[d]) break;
      index[d] = 0;
    }
  }
  return F64Tensor(y_shape, y);
}

}  // namespace infinicts::oracle
