#include <algorithm>
#include <cmath>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

// One F32 step: v (exact in double) rounded to F32.
double F32(double v) { return static_cast<double>(static_cast<float>(v)); }

struct Quantized {
  double expected, also_accepted;
};

// What the spec gives for one element: `exact` is x·(1/s) + z without rounding, `steps` the
// same in the spec's F32 steps; [lo, hi] the int8 range.
Quantized Quantize(double x, double inv, double zero, double lo, double hi) {
  const double exact = x * inv + zero;  // x·inv is exact in double; + zero nearly so
  const double steps = F32(F32(x * inv) + zero);
  auto clamp = [&](double v) { return std::min(hi, std::max(lo, v)); };
  const double half = std::floor(exact) + 0.5;
  if (exact == half) return {clamp(std::round(exact)), clamp(std::round(exact))};  // a tie: away from zero
  const double expected = clamp(std::round(steps));
  const double band = std::ldexp(1.0, -18) * (1.0 + std::fabs(x) * inv + std::fabs(zero));
  if (std::fabs(exact - half) > band) return {expected, expected};
  const double other = clamp(expected == std::floor(half) ? std::ceil(half) : std::floor(half));
  return {expected, other};
}

}  // namespace

Int8QuantResult PerChannelQuantI8(const HostTensor &x, bool asymmetric) {
  Require(x.ndim() == 2, "PerChannelQuantI8", "x must be [M, K], got " + ShapeText(x.shape()));
  const size_t rows = x.shape()[0], cols = x.shape()[1];
  const std::vector<double> values = x.ToDoubles();
  std::vector<double> packed(values.size()), accepted(values.size()), scales(rows), zeros(rows);
  const double floor_scale = F32(1e-8);
  for (size_t m = 0; m < rows; ++m) {
    const double *row = values.data() + m * cols;
    const double low = *std::min_element(row, row + cols), high = *std::max_element(row, row + cols);
    double scale;
    if (!asymmetric) {
      scale = std::max(F32(std::max(std::fabs(low), std::fabs(high)) / 127.0), floor_scale);
    } else {
      scale = std::max(F32(F32(high - low) / 255.0), floor_scale);
    }
    const double inv = F32(1.0 / scale);
    const double zero = asymmetric ? F32(F32(-low * inv) - 128.0) : 0.0;
    const double lo = asymmetric ? -128.0 : -127.0;
    scales[m] = scale;
    zeros[m] = zero;
    for (size_t k = 0; k < cols; ++k) {
      const Quantized q = Quantize(row[k], inv, zero, lo, 127.0);
      packed[m * cols + k] = q.expected;
      accepted[m * cols + k] = q.also_accepted;
    }
  }
  Int8QuantResult result;
  result.packed = F64Tensor(x.shape(), packed);
  result.also_accepted = F64Tensor(x.shape(), accepted);
  result.scale = F64Tensor({rows, 1}, scales);
  if (asymmetric) result.zero = F64Tensor({rows, 1}, zeros);
  return result;
}

Int8QuantResult PerTensorQuantI8(const HostTensor &x, const Shape &scale_shape, const HostTensor *static_scale) {
  Require(NumElements(scale_shape) == 1, "PerTensorQuantI8", "x_scale must hold one element");
  const std::vector<double> values = x.ToDoubles();
  double scale;
  if (static_scale != nullptr) {
    scale = static_scale->ToDoubles().at(0);
  } else {
    double max_abs = 0.0;
    for (double v : values) max_abs = std::max(max_abs, std::fabs(v));
    Require(max_abs > 0.0, "PerTensorQuantI8", "the dynamic form of a tensor of zeros is left open");
    scale = F32(max_abs / 127.0);
  }
  const double inv = F32(1.0 / scale);
  std::vector<double> packed(values.size()), accepted(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Quantized q = Quantize(values[i], inv, 0.0, -127.0, 127.0);
    packed[i] = q.expected;
    accepted[i] = q.also_accepted;
  }
  Int8QuantResult result;
  result.packed = F64Tensor(x.shape(), packed);
  result.also_accepted = F64Tensor(x.shape(), accepted);
  result.scale = F64Tensor(scale_shape, {scale});
  return result;
}

HostTensor PerTensorDequantI8(const HostTensor &x_packed, const HostTensor &x_scale) {
  Require(x_scale.numel() == 1, "PerTensorDequantI8", "x_scale must hold one element");
  const double scale = x_scale.ToDoubles().at(0);
  std::vector<double> values = x_packed.ToDoubles();
  for (double &v : values) v = F32(v * scale);
  return F64Tensor(x_packed.shape(), values);
}

}  // namespace infinicts::oracle
