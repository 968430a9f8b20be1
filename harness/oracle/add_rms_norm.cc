#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {

AddRMSNormResult AddRMSNorm(const HostTensor &a, const HostTensor &b, const HostTensor &weight, double epsilon) {
  RequireSameShape(a, b, "AddRMSNorm", "a", "b");
  Require(a.ndim() >= 1, "AddRMSNorm", "a needs at least one dimension");
  const size_t width = a.shape().back();
  Require(weight.ndim() == 1 && weight.shape()[0] == width, "AddRMSNorm",
          "weight must be [" + std::to_string(width) + "], got " + ShapeText(weight.shape()));
  const std::vector<double> first = a.ToDoubles(), second = b.ToDoubles(), w = weight.ToDoubles();
  std::vector<double> residual(first.size()), y(first.size());
  for (size_t start = 0; start < first.size(); start += width) {
    double sum_of_squares = 0.0;
    for (size_t j = 0; j < width; ++j) {
      residual[start + j] = first[start + j] + second[start + j];
      sum_of_squares += residual[start + j] * residual[start + j];
    }
    const double rms = std::sqrt(sum_of_squares / static_cast<double>(width) + epsilon);
    for (size_t j = 0; j < width; ++j) y[start + j] = residual[start + j] * w[j] / rms;
  }
  return {F64Tensor(a.shape(), y), F64Tensor(a.shape(), residual)};
}

}  // namespace infinicts::oracle
