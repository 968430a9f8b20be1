#include "common/perf_cost.h"

#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

double Product(const std::vector<size_t> &sizes) {
  double product = 1;
  for (size_t size : sizes) product *= static_cast<double>(size);
  return product;
}

double SpecBytes(const TensorSpec &spec) {
  return spec.present ? static_cast<double>(NumElements(spec.layout.shape) * DtypeSize(spec.dtype)) : 0.0;
}

}  // namespace

double TensorBytes(const std::vector<TensorSpec> &specs) {
  double bytes = 0;
  for (const TensorSpec &spec : specs) bytes += SpecBytes(spec);
  return bytes;
}

PerfCost PerElementCost(double flops_per_element, size_t elements, const std::vector<TensorSpec> &specs) {
  return {flops_per_element * static_cast<double>(elements), TensorBytes(specs)};
}

PerfCost GemmCost(size_t m, size_t n, size_t k, const std::vector<TensorSpec> &specs) {
  return {2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k), TensorBytes(specs)};
}

PerfCost ConvCost(size_t batch, size_t in_channels, size_t out_channels, const std::vector<size_t> &output,
                  const std::vector<size_t> &kernel, const std::vector<TensorSpec> &specs) {
  const double flops = 2.0 * static_cast<double>(batch) * static_cast<double>(out_channels) * Product(output) *
                       static_cast<double>(in_channels) * Product(kernel);
  return {flops, TensorBytes(specs)};
}

PerfCost EmbeddingCost(size_t tokens, size_t dim, infiniDtype_t dtype, infiniDtype_t index_dtype) {
  const double rows = static_cast<double>(tokens);
  return {0.0, rows * static_cast<double>(DtypeSize(index_dtype)) +
                   2.0 * rows * static_cast<double>(dim) * static_cast<double>(DtypeSize(dtype))};
}

PerfCost RopeCost(size_t elements, size_t positions, size_t half_dim, const std::vector<TensorSpec> &specs) {
  double bytes = 0;
  for (const TensorSpec &spec : specs) {
    if (spec.name == "sin_table" || spec.name == "cos_table") {
      bytes += static_cast<double>(positions * half_dim * DtypeSize(spec.dtype));
    } else {
      bytes += SpecBytes(spec);
    }
  }
  return {perf_flops::kRope * static_cast<double>(elements), bytes};
}

PerfCost CacheWriteCost(size_t entries, infiniDtype_t dtype, size_t indices, infiniDtype_t index_dtype) {
  const double moved = static_cast<double>(entries) * static_cast<double>(DtypeSize(dtype));
  return {perf_flops::kCacheWrite * static_cast<double>(entries),
          2.0 * moved + static_cast<double>(indices) * static_cast<double>(DtypeSize(index_dtype))};
}

}  // namespace infinicts::op_cases
