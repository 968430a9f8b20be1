// SelectLastTokenHidden on the GPU: one thread per output element, copied as a word of its
// size from the row select_last_token_hidden.h locates.
#include <cstdint>

#include "cuda/device_types.cuh"
#include "cuda/launch.h"
#include "cuda/select_last_token_hidden.h"

namespace infinicts::ref::op::cuda {
namespace {

template <class Bits>
__global__ void SelectKernel(const __grid_constant__ SelectLastTokenGeometry g, Bits *output, const Bits *hidden,
                             const void *offsets) {
  const uint64_t total = static_cast<uint64_t>(g.requests) * static_cast<uint64_t>(g.hidden);
  const uint64_t step = static_cast<uint64_t>(gridDim.x) * blockDim.x;
  for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += step) {
    const int64_t r = static_cast<int64_t>(i / static_cast<uint64_t>(g.hidden));
    const int64_t j = static_cast<int64_t>(i % static_cast<uint64_t>(g.hidden));
    int64_t from = 0;
    if (!LastTokenRow(g, offsets, r, &from)) continue;
    output[r * g.out_request + j * g.out_hidden] = hidden[from + j * g.in_hidden];
  }
}

template <class Bits>
void Select(const SelectLastTokenGeometry &g, void *output, const void *hidden, const void *offsets,
            cudaStream_t stream) {
  const uint64_t total = static_cast<uint64_t>(g.requests) * static_cast<uint64_t>(g.hidden);
  if (total == 0) return;
  SelectKernel<Bits><<<BlocksFor(total), kThreads, 0, stream>>>(g, static_cast<Bits *>(output),
                                                                static_cast<const Bits *>(hidden), offsets);
}

}  // namespace

infiniStatus_t SelectLastTokenHidden(const InfiniopDescriptor &desc, const SelectLastTokenGeometry &geometry,
                                     size_t element_size, void *output, const void *hidden_states,
                                     const void *input_offsets, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  const bool known = DispatchCopyWord(element_size, [&](auto tag) {
    Select<typename decltype(tag)::type>(geometry, output, hidden_states, input_offsets, scope.stream());
  });
  if (!known) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  return scope.Finish();
}

}  // namespace infinicts::ref::op::cuda
