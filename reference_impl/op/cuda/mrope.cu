// MRoPE on the GPU (mrope.h): one thread per rotated pair or copied element, in double.
#include <cstdint>

#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "cuda/mrope.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class T>
__global__ void MRoPEKernel(const __grid_constant__ MRoPEGeometry g, T *q_out, T *k_out, const T *q, const T *k,
                            const T *cos, const T *sin, const void *positions) {
  const uint64_t total = static_cast<uint64_t>(g.tokens) * static_cast<uint64_t>(g.q_heads + g.k_heads) *
                         static_cast<uint64_t>(MRoPELanes(g));
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  const int64_t half = g.rotary_dim / 2;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const MRoPEItem item = LocateMRoPE(g, i);
    int64_t position[3];
    if (!MRoPEPositions(g, positions, item.token, position)) continue;
    const bool is_q = item.head < g.q_heads;
    const int64_t head = is_q ? item.head : item.head - g.q_heads;
    const int64_t *xs = is_q ? g.q : g.k, *ys = is_q ? g.q_out : g.k_out;
    const T *x = (is_q ? q : k) + item.token * xs[0] + head * g.head_size * xs[1];
    T *y = (is_q ? q_out : k_out) + item.token * ys[0] + head * g.head_size * ys[1];
    if (item.lane >= half) {
      const int64_t j = g.rotary_dim + (item.lane - half);
      y[j * ys[1]] = x[j * xs[1]];
      continue;
    }
    const int64_t f = item.lane, p = position[MRoPEAxis(g, f)];
    const double c = LoadF64(cos[p * g.cos[0] + f * g.cos[1]]), s = LoadF64(sin[p * g.sin[0] + f * g.sin[1]]);
    // Both read before either is written: y may be x.
    const double x0 = LoadF64(x[f * xs[1]]), x1 = LoadF64(x[(f + half) * xs[1]]);
    y[f * ys[1]] = StoreF64<T>(x0 * c - x1 * s);
    y[(f + half) * ys[1]] = StoreF64<T>(x1 * c + x0 * s);
  }
}

}  // namespace

infiniStatus_t MRoPE(const InfiniopDescriptor &desc, const MRoPEGeometry &geometry, infiniDtype_t dtype, void *q_out,
                     void *k_out, const void *q, const void *k, const void *cos, const void *sin,
                     const void *positions, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const uint64_t total = static_cast<uint64_t>(geometry.tokens) *
                         static_cast<uint64_t>(geometry.q_heads + geometry.k_heads) *
                         static_cast<uint64_t>(MRoPELanes(geometry));
  if (total == 0) return INFINI_STATUS_SUCCESS;
  const bool known = DispatchDeviceFloat(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    MRoPEKernel<T><<<BlocksFor(total), kThreads, 0, scope.stream()>>>(
        geometry, static_cast<T *>(q_out), static_cast<T *>(k_out), static_cast<const T *>(q),
        static_cast<const T *>(k), static_cast<const T *>(cos), static_cast<const T *>(sin), positions);
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
