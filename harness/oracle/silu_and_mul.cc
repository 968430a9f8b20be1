#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

HostTensor SiluAndMul(const HostTensor &input) {
  Require(input.ndim() >= 1 && input.shape().back() % 2 == 0, "SiluAndMul",
          "input must have an even last dim, got " + ShapeText(input.shape()));
  const size_t width = input.shape().back(), half = width / 2;
  const std::vector<double> values = input.ToDoubles();
  Shape output_shape = input.shape();
  output_shape.back() = half;
  std::vector<double> output(values.size() / 2);
  for (size_t row = 0; row * width < values.size(); ++row) {
    for (size_t j = 0; j < half; ++j) {
      const double gate = values[row * width + j], up = values[row * width + half + j];
      // silu(gate) = gate·sigmoid(gate), written so that it keeps its limits at ±Inf.
      const double silu = gate >= 0 ? gate / (1.0 + std::exp(-gate)) : gate * std::exp(gate) / (1.0 + std::exp(gate));
      output[row * half + j] = silu * up;
    }
  }
  return F64Tensor(output_shape, output);
}

}  // namespace infinicts::oracle
