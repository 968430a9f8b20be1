#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor SelectLastTokenHidden(const HostTensor &hidden_states, const HostTensor &input_offsets) {
  Require(hidden_states.ndim() == 3, "SelectLastTokenHidden", "hidden_states must be [batch, tokens, hidden]");
  Require(input_offsets.ndim() == 1 && input_offsets.numel() >= 2, "SelectLastTokenHidden",
          "input_offsets must be [requests + 1]");
  const size_t tokens = hidden_states.shape()[0] * hidden_states.shape()[1], hidden = hidden_states.shape()[2];
  const size_t requests = input_offsets.numel() - 1;
  const std::vector<double> values = hidden_states.ToDoubles();
  std::vector<double> output(requests * hidden);
  for (size_t r = 0; r < requests; ++r) {
    // Request r holds tokens [offsets[r], offsets[r + 1]) of the flattened batch.
    const int64_t last = IntegerAt(input_offsets, r + 1) - 1;
    Require(last >= IntegerAt(input_offsets, r) && last >= 0 && static_cast<size_t>(last) < tokens,
            "SelectLastTokenHidden", "request " + std::to_string(r) + " has no token inside hidden_states");
    for (size_t j = 0; j < hidden; ++j) output[r * hidden + j] = values[static_cast<size_t>(last) * hidden + j];
  }
  return F64Tensor({1, requests, hidden}, output);
}

}  // namespace infinicts::oracle
