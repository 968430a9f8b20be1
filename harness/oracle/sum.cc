// Sum (docs/spec/op.md OP-SUM-3): input summed over a list of dims, in fp64.
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Sum(const HostTensor &input, const std::vector<size_t> &dims, bool keepdim) {
  const Shape &shape = input.shape();
  std::vector<bool> reduced(shape.size(), false);
  for (size_t d : dims) {
    Require(d < shape.size() && !reduced[d], "Sum", "dim " + std::to_string(d) + " out of range or repeated");
    reduced[d] = true;
  }
  Shape output_shape, kept_shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) kept_shape.push_back(shape[d]);
    if (!reduced[d] || keepdim) output_shape.push_back(reduced[d] ? 1 : shape[d]);
  }
  std::vector<double> output(NumElements(kept_shape), 0.0);
  std::vector<size_t> index(shape.size(), 0);
  for (size_t i = 0; i < input.numel(); ++i) {
    size_t position = 0;  // the kept dims' row-major position
    for (size_t d = 0; d < shape.size(); ++d) {
      if (!reduced[d]) position = position * shape[d] + index[d];
    }
    output[position] += input.GetAt(i);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return F64Tensor(output_shape, output);
}

}  // namespace infinicts::oracle
