#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

LayerNormResult LayerNorm(const HostTensor &x, const HostTensor &weight, const HostTensor *bias, double epsilon) {
  Require(x.ndim() >= 1, "LayerNorm", "input needs at least one dimension");
  const size_t width = x.shape().back();
  Require(weight.ndim() == 1 && weight.shape()[0] == width, "LayerNorm",
          "weight must be [" + std::to_string(width) + "], got " + ShapeText(weight.shape()));
  Require(bias == nullptr || (bias->ndim() == 1 && bias->shape()[0] == width), "LayerNorm",
          "bias must be [" + std::to_string(width) + "]");

  const std::vector<double> values = x.ToDoubles();
  const std::vector<double> weights = weight.ToDoubles();
  const std::vector<double> biases = bias ? bias->ToDoubles() : std::vector<double>(width, 0.0);
  std::vector<double> output(values.size()), standardization(values.size());
  std::vector<double> std_deviation;

  for (size_t start = 0; start < values.size(); start += width) {
    double sum = 0.0;
    for (size_t j = 0; j < width; ++j) sum += values[start + j];
    const double mean = sum / static_cast<double>(width);
    double sum_of_squared_deviations = 0.0;  // two passes: no cancellation in the oracle
    for (size_t j = 0; j < width; ++j) {
      const double deviation = values[start + j] - mean;
      sum_of_squared_deviations += deviation * deviation;
    }
    const double variance = sum_of_squared_deviations / static_cast<double>(width);  // biased
    const double deviation_scale = std::sqrt(variance + epsilon);
    std_deviation.push_back(deviation_scale);
    for (size_t j = 0; j < width; ++j) {
      standardization[start + j] = (values[start + j] - mean) / deviation_scale;
      output[start + j] = standardization[start + j] * weights[j] + biases[j];
    }
  }
  const Shape row_shape(x.shape().begin(), x.shape().end() - 1);
  return LayerNormResult{F64Tensor(x.shape(), output), F64Tensor(x.shape(), standardization),
                         F64Tensor(row_shape, std_deviation)};
}

}  // namespace infinicts::oracle
