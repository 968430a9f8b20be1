#include <string>
#include <vector>

#include "oracle/common.h"
#include "oracle/oracles.h"

namespace infinicts::oracle {
namespace {

size_t ProductOf(const std::vector<size_t> &extents) {
  size_t product = 1;
  for (size_t extent : extents) product *= extent;
  return product;
}

}  // namespace

HostTensor Conv(const HostTensor &x, const HostTensor &w, const HostTensor *bias, const std::vector<size_t> &pads,
                const std::vector<ptrdiff_t> &strides, const std::vector<size_t> &dilations) {
  Require(x.ndim() >= 3 && w.ndim() == x.ndim(), "Conv", "x and w must both be [N or C_out, C_in, spatial...]");
  const size_t spatial_dims = x.ndim() - 2;
  const size_t batch = x.shape()[0], in_channels = x.shape()[1], out_channels = w.shape()[0];
  Require(w.shape()[1] == in_channels, "Conv", "w's second dimension must be x's channels");
  Require(pads.empty() || pads.size() == spatial_dims, "Conv", "one pad per spatial dimension");
  Require(strides.empty() || strides.size() == spatial_dims, "Conv", "one stride per spatial dimension");
  Require(dilations.empty() || dilations.size() == spatial_dims, "Conv", "one dilation per spatial dimension");
  Require(bias == nullptr || (bias->ndim() == 1 && bias->shape()[0] == out_channels), "Conv",
          "bias must be [C_out]");

  std::vector<size_t> in_size(spatial_dims), kernel(spatial_dims), out_size(spatial_dims);
  std::vector<ptrdiff_t> pad(spatial_dims), step(spatial_dims), dilation(spatial_dims);
  for (size_t d = 0; d < spatial_dims; ++d) {
    in_size[d] = x.shape()[d + 2];
    kernel[d] = w.shape()[d + 2];
    pad[d] = pads.empty() ? 0 : static_cast<ptrdiff_t>(pads[d]);
    step[d] = strides.empty() ? 1 : strides[d];
    dilation[d] = dilations.empty() ? 1 : static_cast<ptrdiff_t>(dilations[d]);
    Require(step[d] >= 1 && dilation[d] >= 1 && kernel[d] >= 1, "Conv", "strides, dilations and kernel must be >= 1");
    const ptrdiff_t reach = dilation[d] * static_cast<ptrdiff_t>(kernel[d] - 1) + 1;
    const ptrdiff_t padded = static_cast<ptrdiff_t>(in_size[d]) + 2 * pad[d];
    Require(padded >= reach, "Conv", "kernel larger than the padded input in dimension " + std::to_string(d));
    out_size[d] = static_cast<size_t>((padded - reach) / step[d] + 1);
  }

  const std::vector<double> input = x.ToDoubles();
  const std::vector<double> weights = w.ToDoubles();
  const std::vector<double> biases = bias ? bias->ToDoubles() : std::vector<double>(out_channels, 0.0);
  const size_t in_points = ProductOf(in_size), kernel_points = ProductOf(kernel), out_points = ProductOf(out_size);

  Shape y_shape{batch, out_channels};
  y_shape.insert(y_shape.end(), out_size.begin(), out_size.end());
  std::vector<double> output(batch * out_channels * out_points);
  std::vector<std::vector<size_t>> kernel_indices(kernel_points);
  for (size_t k = 0; k < kernel_points; ++k) kernel_indices[k] = UnravelIndex(k, kernel);

  for (size_t n = 0; n < batch; ++n) {
    for (size_t co = 0; co < out_channels; ++co) {
      for (size_t o = 0; o < out_points; ++o) {
        const std::vector<size_t> out_index = UnravelIndex(o, out_size);
        double sum = biases[co];
        for (size_t ci = 0; ci < in_channels; ++ci) {
          for (size_t k = 0; k < kernel_points; ++k) {
            const std::vector<size_t> &kernel_index = kernel_indices[k];
            // Input coordinate of this tap; taps on the zero padding contribute nothing.
            bool inside = true;
            size_t in_offset = 0;
            for (size_t d = 0; d < spatial_dims; ++d) {
              const ptrdiff_t coordinate = static_cast<ptrdiff_t>(out_index[d]) * step[d] - pad[d] +
                                           static_cast<ptrdiff_t>(kernel_index[d]) * dilation[d];
              if (coordinate < 0 || coordinate >= static_cast<ptrdiff_t>(in_size[d])) {
                inside = false;
                break;
              }
              in_offset = in_offset * in_size[d] + static_cast<size_t>(coordinate);
            }
            if (!inside) continue;
            sum += input[(n * in_channels + ci) * in_points + in_offset] *
                   weights[(co * in_channels + ci) * kernel_points + k];
          }
        }
        output[(n * out_channels + co) * out_points + o] = sum;
      }
    }
  }
  return F64Tensor(y_shape, output);
}

}  // namespace infinicts::oracle
