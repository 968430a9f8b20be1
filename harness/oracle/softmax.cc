// Softmax and log-softmax along an axis: one walk over the rows, two final transforms.
#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

enum class Form { kProbabilities, kLogProbabilities };

HostTensor AlongAxis(const HostTensor &x, int axis, Form form, const char *op) {
  const size_t dim = NormalizeAxis(axis, x.ndim(), op);
  const Shape &shape = x.shape();
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  const size_t length = shape[dim];

  std::vector<double> values = x.ToDoubles();
  // Element (o, j, r) of the [outer, length, inner] view sits at (o·length + j)·inner + r.
  for (size_t o = 0; o < outer; ++o) {
    for (size_t r = 0; r < inner; ++r) {
      auto at = [&](size_t j) -> double & { return values[(o * length + j) * inner + r]; };
      double max_value = -HUGE_VAL;
      for (size_t j = 0; j < length; ++j) max_value = std::fmax(max_value, at(j));
      double sum = 0.0;
      for (size_t j = 0; j < length; ++j) sum += std::exp(at(j) - max_value);
      if (form == Form::kProbabilities) {
        for (size_t j = 0; j < length; ++j) at(j) = std::exp(at(j) - max_value) / sum;
      } else {
        const double log_sum = std::log(sum);
        for (size_t j = 0; j < length; ++j) at(j) = at(j) - max_value - log_sum;
      }
    }
  }
  return F64Tensor(shape, values);
}

}  // namespace

HostTensor Softmax(const HostTensor &x, int axis) { return AlongAxis(x, axis, Form::kProbabilities, "Softmax"); }

HostTensor LogSoftmax(const HostTensor &x, int axis) {
  return AlongAxis(x, axis, Form::kLogProbabilities, "LogSoftmax");
}

}  // namespace infinicts::oracle
