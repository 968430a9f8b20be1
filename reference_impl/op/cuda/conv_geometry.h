// The direct Conv kernel's index logic (conv.cu), apart so that the CPU tests run it: the
// problem as one trivially copyable kernel parameter, where output element i lies and
// where its window starts, and which input and weight elements tap r of the window reads.
#ifndef INFINICTS_REF_OP_CUDA_CONV_GEOMETRY_H
#define INFINICTS_REF_OP_CUDA_CONV_GEOMETRY_H

#include <cstdint>

#include "core/tensor.h"
#include "cuda/conv.h"
#include "cuda/kernel_limits.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// n + 2 <= kMaxTensorDims.
constexpr int kMaxSpatial = static_cast<int>(kMaxTensorDims) - 2;

struct ConvGeometry {
  int n;
  uint64_t batch, in_channels, out_channels, out_volume, kernel_volume;
  int64_t in_size[kMaxSpatial], kernel[kMaxSpatial], out_size[kMaxSpatial];
  int64_t pads[kMaxSpatial], dilations[kMaxSpatial], steps[kMaxSpatial];
  int64_t x_strides[kMaxSpatial + 2], w_strides[kMaxSpatial + 2], y_strides[kMaxSpatial + 2];
  bool has_bias;
  int64_t bias_step;
};
static_assert(FitsKernelParameters<ConvGeometry>(), "the Conv kernels' parameters must fit in 4 KB");

inline ConvGeometry MakeGeometry(const ConvProblem &p) {
  ConvGeometry g{};
  g.n = static_cast<int>(p.in_size.size());
  g.batch = p.batch;
  g.in_channels = p.in_channels;
  g.out_channels = p.out_channels;
  g.out_volume = 1;
  g.kernel_volume = 1;
  for (int d = 0; d < g.n; ++d) {
    g.in_size[d] = static_cast<int64_t>(p.in_size[d]);
    g.kernel[d] = static_cast<int64_t>(p.kernel[d]);
    g.out_size[d] = static_cast<int64_t>(p.out_size[d]);
    g.pads[d] = static_cast<int64_t>(p.pads[d]);
    g.dilations[d] = static_cast<int64_t>(p.dilations[d]);
    g.steps[d] = p.steps[d];
    g.out_volume *= p.out_size[d];
    g.kernel_volume *= p.kernel[d];
  }
  for (int d = 0; d < g.n + 2; ++d) {
    g.x_strides[d] = p.x_strides[d];
    g.w_strides[d] = p.w_strides[d];
    g.y_strides[d] = p.y_strides[d];
  }
  g.has_bias = p.has_bias;
  g.bias_step = p.bias_step;
  return g;
}

// Output element i (batch-major, then channel, then position): its batch, channel, offset in
// y and where its window starts in x, per spatial dim.
struct OutputElement {
  uint64_t b, co;
  int64_t y_offset;
  int64_t window[kMaxSpatial];
};

INFINICTS_HOST_DEVICE inline OutputElement Locate(const ConvGeometry &g, uint64_t i) {
  OutputElement e;
  uint64_t rest = i % g.out_volume;
  e.co = i / g.out_volume % g.out_channels;
  e.b = i / (g.out_volume * g.out_channels);
  e.y_offset = static_cast<int64_t>(e.b) * g.y_strides[0] + static_cast<int64_t>(e.co) * g.y_strides[1];
  for (int d = g.n - 1; d >= 0; --d) {
    const int64_t o = static_cast<int64_t>(rest % static_cast<uint64_t>(g.out_size[d]));
    rest /= static_cast<uint64_t>(g.out_size[d]);
    e.window[d] = o * g.steps[d] - g.pads[d];
    e.y_offset += o * g.y_strides[d + 2];
  }
  return e;
}

// Tap r of the window starting at `window` (r < kernel_volume, the kernel's positions in
// row-major order): the offsets of the input element (within an input channel) and of the
// weight (within a weight channel) it pairs. False when the input position lies in the
// padding (it counts as zero); the offsets are then meaningless.
INFINICTS_HOST_DEVICE inline bool Tap(const ConvGeometry &g, const int64_t *window, uint64_t r, int64_t *x_offset,
                                           int64_t *w_offset) {
  uint64_t position = r;
  bool inside = true;
  *x_offset = 0;
  *w_offset = 0;
  for (int d = g.n - 1; d >= 0; --d) {
    const int64_t k = static_cast<int64_t>(position % static_cast<uint64_t>(g.kernel[d]));
    position /= static_cast<uint64_t>(g.kernel[d]);
    const int64_t at = window[d] + k * g.dilations[d];
    inside = inside && at >= 0 && at < g.in_size[d];
    *x_offset += at * g.x_strides[d + 2];
    *w_offset += k * g.w_strides[d + 2];
  }
  return inside;
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CONV_GEOMETRY_H
