// MoeSum (docs/spec/op.md OP-MOESUM-3): output[t, h] = Σ_j input[t, j, h], in fp64.
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor MoeSum(const HostTensor &input) {
  Require(input.shape().size() == 3, "MoeSum", "input must be [tokens, k, hidden]");
  const size_t tokens = input.shape()[0], k = input.shape()[1], hidden = input.shape()[2];
  std::vector<double> output(tokens * hidden, 0.0);
  for (size_t t = 0; t < tokens; ++t) {
    for (size_t j = 0; j < k; ++j) {
      for (size_t h = 0; h < hidden; ++h) output[t * hidden + h] += input.GetAt((t * k + j) * hidden + h);
    }
  }
  return F64Tensor({tokens, hidden}, output);
}

}  // namespace infinicts::oracle
