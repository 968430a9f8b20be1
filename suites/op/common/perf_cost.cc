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
  return {FlopsPerElement("rope") * static_cast<double>(elements), bytes};
}

PerfCost CacheWriteCost(std::string_view subject, size_t entries, infiniDtype_t dtype, size_t indices, infiniDtype_t index_dtype) {
  const double moved = static_cast<double>(entries) * static_cast<double>(DtypeSize(dtype));
  return {FlopsPerElement(subject) * static_cast<double>(entries),
          2.0 * moved + static_cast<double>(indices) * static_cast<double>(DtypeSize(index_dtype))};
}

PerfCost AttentionCost(size_t n_q_heads, size_t n_kv_heads, size_t seq_len, size_t pos, size_t head_dim,
                       infiniDtype_t dtype) {
  const double seq = static_cast<double>(seq_len), dim = static_cast<double>(head_dim);
  // Σ_i (pos + i + 1) keys for the new tokens i < seq_len, per q head.
  const double keys = static_cast<double>(n_q_heads) * (seq * static_cast<double>(pos) + seq * (seq + 1) / 2);
  const double q_and_out = 2.0 * static_cast<double>(n_q_heads) * seq * dim;
  const double k_and_v = 2.0 * static_cast<double>(n_kv_heads) * seq * dim;
  const double cache_rows = 2.0 * static_cast<double>(n_kv_heads) * static_cast<double>(pos + seq_len) * dim;
  return {FlopsPerElement("attention") * keys * 2.0 * dim,
          (q_and_out + k_and_v + cache_rows) * static_cast<double>(DtypeSize(dtype))};
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
