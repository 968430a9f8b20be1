// Take (docs/spec/op.md OP-TAKE-3): input read as one flat row in row-major order of its shape.
#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor Take(const HostTensor &input, const HostTensor &indices) {
  const size_t count = input.numel();
  std::vector<double> output(indices.numel());
  for (size_t i = 0; i < indices.numel(); ++i) {
    const int64_t index = IntegerAt(indices, i);
    Require(index >= 0 && static_cast<size_t>(index) < count, "Take",
            "index " + std::to_string(index) + " outside the input's " + std::to_string(count) + " elements");
    output[i] = input.GetAt(static_cast<size_t>(index));  // row-major position, through the strides
  }
  return F64Tensor(indices.shape(), output);
}

}  // namespace infinicts::oracle
