#include "tensor/generate.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensor/dtype.h"

namespace infinicts {
namespace {

double Uniform(Rng &rng, double low, double high) { return std::uniform_real_distribution<double>(low, high)(rng); }

double RandomSign(Rng &rng) { return std::bernoulli_distribution(0.5)(rng) ? 1.0 : -1.0; }

// Number of the row (the elements sharing every index but `axis`) a row-major position lies in,
// and its position along the row.
struct RowPosition {
  size_t row;
  size_t along;
};

RowPosition RowOf(size_t row_major_index, const Shape &shape, size_t axis) {
  size_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const size_t outer_index = row_major_index / (inner * shape[axis]);
  const size_t along = (row_major_index / inner) % shape[axis];
  const size_t inner_index = row_major_index % inner;
  return RowPosition{outer_index * inner + inner_index, along};
}

void RequireLastDim(const HostTensor &tensor, const char *what) {
  if (tensor.ndim() == 0) throw std::invalid_argument(std::string(what) + " needs at least one dimension");
}

}  // namespace

void FillUniform(HostTensor &tensor, Rng &rng, double low, double high) {
  for (size_t i = 0; i < tensor.numel(); ++i) tensor.SetAt(i, Uniform(rng, low, high));
}

void FillAwayFromZero(HostTensor &tensor, Rng &rng, double min_magnitude, double max_magnitude) {
  for (size_t i = 0; i < tensor.numel(); ++i) {
    tensor.SetAt(i, RandomSign(rng) * Uniform(rng, min_magnitude, max_magnitude));
  }
}

void FillLargeMagnitudeRows(HostTensor &tensor, Rng &rng, size_t axis, double magnitude, double spread) {
  if (axis >= tensor.ndim()) throw std::invalid_argument("FillLargeMagnitudeRows: axis out of range");
  const size_t rows = tensor.numel() / std::max<size_t>(tensor.shape()[axis], 1);
  std::vector<double> levels(rows);
  for (double &level : levels) level = RandomSign(rng) * magnitude;
  for (size_t i = 0; i < tensor.numel(); ++i) {
    const RowPosition position = RowOf(i, tensor.shape(), axis);
    tensor.SetAt(i, levels[position.row] + Uniform(rng, -spread, spread));
  }
}

void ScaleRows(HostTensor &tensor, Rng &rng, double low, double high) {
  RequireLastDim(tensor, "ScaleRows");
  const size_t width = tensor.shape().back();
  if (width == 0) return;
  for (size_t start = 0; start < tensor.numel(); start += width) {
    const double factor = std::exp2(Uniform(rng, std::log2(low), std::log2(high)));
    for (size_t j = 0; j < width; ++j) tensor.SetAt(start + j, tensor.GetAt(start + j) * factor);
  }
}

void FillSmallRmsRows(HostTensor &tensor, Rng &rng, double epsilon) {
  RequireLastDim(tensor, "FillSmallRmsRows");
  const size_t width = tensor.shape().back();
  if (width == 0) return;
  std::vector<double> row(width);
  for (size_t start = 0; start < tensor.numel(); start += width) {
    double sum_of_squares = 0.0;
    for (double &value : row) {
      value = RandomSign(rng) * Uniform(rng, 0.5, 1.5);
      sum_of_squares += value * value;
    }
    // Log-uniform factor: mean squares from eps/4 to 4·eps.
    const double target_mean_square = epsilon * std::exp2(Uniform(rng, -2.0, 2.0));
    const double scale = std::sqrt(target_mean_square / (sum_of_squares / static_cast<double>(width)));
    for (size_t j = 0; j < width; ++j) tensor.SetAt(start + j, row[j] * scale);
  }
}

void FillSmallVarianceRows(HostTensor &tensor, Rng &rng, double variance, double max_mean) {
  RequireLastDim(tensor, "FillSmallVarianceRows");
  const size_t width = tensor.shape().back();
  if (width == 0) return;
  for (size_t start = 0; start < tensor.numel(); start += width) {
    const double mean = Uniform(rng, -max_mean, max_mean);
    // A uniform variable on [-a, a] has variance a²/3.
    const double half_width = std::sqrt(3.0 * variance * std::exp2(Uniform(rng, -1.0, 1.0)));
    for (size_t j = 0; j < width; ++j) tensor.SetAt(start + j, mean + Uniform(rng, -half_width, half_width));
  }
}

void FillDyadic(HostTensor &tensor, Rng &rng, int low, int high, int fraction_bits) {
  if (high < low || (low == 0 && high == 0)) throw std::invalid_argument("FillDyadic: empty range");
  std::uniform_int_distribution<int> numerator(low, high);
  for (size_t i = 0; i < tensor.numel(); ++i) {
    int k = 0;
    while (k == 0) k = numerator(rng);
    tensor.SetAt(i, std::ldexp(static_cast<double>(k), -fraction_bits));
  }
}

void FillIntegers(HostTensor &tensor, Rng &rng, int64_t low, int64_t high_exclusive) {
  if (high_exclusive <= low) throw std::invalid_argument("FillIntegers: empty range");
  std::uniform_int_distribution<int64_t> value(low, high_exclusive - 1);
  for (size_t i = 0; i < tensor.numel(); ++i) tensor.SetInt(UnravelIndex(i, tensor.shape()), value(rng));
}

void FillArange(HostTensor &tensor, int64_t start) {
  for (size_t i = 0; i < tensor.numel(); ++i) {
    tensor.SetInt(UnravelIndex(i, tensor.shape()), start + static_cast<int64_t>(i));
  }
}

void FillSamplingScores(HostTensor &tensor, Rng &rng, size_t distinct_top, double gap, double tail_spread) {
  if (tensor.ndim() != 1 || tensor.numel() == 0) {
    throw std::invalid_argument("FillSamplingScores needs a non-empty 1-D tensor");
  }
  const size_t n = tensor.numel();
  const size_t top = std::min(distinct_top, n);
  // A level on the gap's grid keeps every top value a multiple of the gap.
  const double level = gap * static_cast<double>(std::uniform_int_distribution<int>(-64, 64)(rng));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  const double tail_high = level - static_cast<double>(top) * gap;
  for (size_t rank = 0; rank < n; ++rank) {
    const double value = rank < top ? level - static_cast<double>(rank) * gap
                                    : Uniform(rng, tail_high - tail_spread, tail_high);
    tensor.SetAt(order[rank], value);
  }
  // The promise: the top values stay distinct and above the tail once rounded to the dtype.
  double previous = tensor.GetAt(order[0]);
  for (size_t rank = 1; rank < n; ++rank) {
    const double value = tensor.GetAt(order[rank]);
    const bool ordered = rank < top ? value < previous : value < tensor.GetAt(order[top - 1]);
    if (!ordered) {
      throw std::invalid_argument(std::string("FillSamplingScores: ") + std::to_string(top) + " values " +
                                  std::to_string(gap) + " apart are not distinct in " + DtypeName(tensor.dtype()) +
                                  "; use a larger gap or fewer distinct values");
    }
    if (rank < top) previous = value;
  }
}

}  // namespace infinicts
