#include "common/perf_cost.h"

#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

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
  return {FlopsPerElement("rope") * static_cast<double>(elements), bytes};
}

PerfCost CacheWriteCost(std::string_view subject, size_t entries, infiniDtype_t dtype, size_t indices, infiniDtype_t index_dtype) {
  const double moved = static_cast<double>(entries) * static_cast<double>(DtypeSize(dtype));
  return {FlopsPerElement(subject) * static_cast<double>(entries),
          2.0 * moved + static_cast<double>(indices) * static_cast<double>(DtypeSize(index_dtype))};
}

PerfCost MRopeCost(size_t rotated, size_t table_elements, const std::vector<TensorSpec> &specs) {
  double bytes = 0;
  for (const TensorSpec &spec : specs) {
    if (spec.name == "cos" || spec.name == "sin") {
      bytes += static_cast<double>(table_elements * DtypeSize(spec.dtype));
    } else {
      bytes += SpecBytes(spec);
    }
  }
  return {FlopsPerElement("mrope") * static_cast<double>(rotated), bytes};
}

}  // namespace infinicts::op_cases
