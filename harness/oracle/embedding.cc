#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Embedding(const HostTensor &indices, const HostTensor &weight) {
  Require(weight.ndim() == 2, "Embedding", "weight must be [vocab, dim]");
  const size_t vocab = weight.shape()[0], dim = weight.shape()[1];
  const std::vector<double> table = weight.ToDoubles();
  Shape output_shape = indices.shape();
  output_shape.push_back(dim);
  std::vector<double> output(indices.numel() * dim);
  for (size_t i = 0; i < indices.numel(); ++i) {
    const int64_t row = IntegerAt(indices, i);
    Require(row >= 0 && static_cast<size_t>(row) < vocab, "Embedding",
            "index " + std::to_string(row) + " outside the vocabulary of " + std::to_string(vocab));
    for (size_t j = 0; j < dim; ++j) output[i * dim + j] = table[static_cast<size_t>(row) * dim + j];
  }
  return F64Tensor(output_shape, output);
}

}  // namespace infinicts::oracle
