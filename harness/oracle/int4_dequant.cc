#include <cstdint>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"
#include "tensor/int4_packing.h"

namespace infinicts::oracle {

HostTensor DequantizeAWQ(const HostTensor &qweight, const HostTensor &scales, const HostTensor &zeros) {
  Require(qweight.ndim() == 2 && scales.ndim() == 2 && zeros.ndim() == 2, "DequantizeAWQ",
          "qweight, scales and zeros must be 2-D");
  const size_t k_size = qweight.shape()[0], n_size = qweight.shape()[1] * kInt4PerWord, groups = scales.shape()[0];
  Require(groups > 0 && k_size % groups == 0, "DequantizeAWQ", "the groups must divide K");
  Require(scales.shape()[1] == n_size && zeros.shape()[0] == groups && zeros.shape()[1] * kInt4PerWord == n_size,
          "DequantizeAWQ", "scales must be [G, N] and zeros [G, N/8]");
  const std::vector<double> q = UnpackInt4(qweight, 1, n_size, NibbleOrder::kAwq).ToDoubles();
  const std::vector<double> z = UnpackInt4(zeros, 1, n_size, NibbleOrder::kAwq).ToDoubles();
  const std::vector<double> s = scales.ToDoubles();
  const size_t group_size = k_size / groups;
  std::vector<double> out(k_size * n_size);
  for (size_t k = 0; k < k_size; ++k) {
    const size_t g = k / group_size;
    for (size_t n = 0; n < n_size; ++n) out[k * n_size + n] = (q[k * n_size + n] - z[g * n_size + n]) * s[g * n_size + n];
  }
  return F64Tensor({k_size, n_size}, out);
}

HostTensor DequantizeGPTQ(const HostTensor &qweight, const HostTensor &scales, const HostTensor &zeros,
                          const HostTensor &g_idx) {
  Require(qweight.ndim() == 2 && scales.ndim() == 2 && zeros.ndim() == 2 && g_idx.ndim() == 1, "DequantizeGPTQ",
          "qweight, scales and zeros must be 2-D and g_idx 1-D");
  const size_t k_size = g_idx.numel(), n_size = qweight.shape()[1], groups = scales.shape()[0];
  Require(scales.shape()[1] == n_size && zeros.shape()[0] == groups, "DequantizeGPTQ",
          "scales must be [G, N] and zeros [G, ⌈N/8⌉]");
  const std::vector<double> q = UnpackInt4(qweight, 0, k_size, NibbleOrder::kSequential).ToDoubles();
  const std::vector<double> z = UnpackInt4(zeros, 1, n_size, NibbleOrder::kSequential).ToDoubles();
  const std::vector<double> s = scales.ToDoubles();
  std::vector<double> out(k_size * n_size);
  for (size_t k = 0; k < k_size; ++k) {
    const int64_t g = IntegerAt(g_idx, k);
    Require(g >= 0 && static_cast<size_t>(g) < groups, "DequantizeGPTQ", "a g_idx value outside [0, G)");
    const size_t row = static_cast<size_t>(g) * n_size;
    for (size_t n = 0; n < n_size; ++n) out[k * n_size + n] = (q[k * n_size + n] - (z[row + n] + 1.0)) * s[row + n];
  }
  return F64Tensor({k_size, n_size}, out);
}

}  // namespace infinicts::oracle
