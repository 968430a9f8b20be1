// The CUDA path of SelectLastTokenHidden (ops/select_last_token_hidden.cc calls it for
// NVIDIA descriptors): each request's last token's hidden row copied into output, bit for
// bit. Which token a request takes, where its row lies and which requests write nothing are
// plain host and device functions (tested on the CPU); the kernel is in
// select_last_token_hidden.cu.
#ifndef INFINICTS_REF_OP_CUDA_SELECT_LAST_TOKEN_HIDDEN_H
#define INFINICTS_REF_OP_CUDA_SELECT_LAST_TOKEN_HIDDEN_H

#include <cstddef>
#include <cstdint>

#include "core/descriptor.h"
#include "cuda/kernel_limits.h"
#include "core/host_device.h"

namespace infinicts::ref::op::cuda {

// output [1, requests, hidden], hidden_states [batch, seq, hidden] (strides in elements),
// input_offsets [requests + 1] of I32 or I64 at offsets_step.
struct SelectLastTokenGeometry {
  int64_t requests, seq, tokens, hidden;
  int64_t out_request, out_hidden, in_batch, in_seq, in_hidden;
  int64_t offsets_step;
  int32_t offsets_64;  // 1: I64 offsets, 0: I32
};
static_assert(FitsKernelParameters<SelectLastTokenGeometry>(), "SelectLastTokenHidden's parameters must fit in 4 KB");

// The element offset in hidden_states of request r's last token's row: token
// input_offsets[r + 1] − 1 over batch · seq tokens. False where that token is outside them
// (the row is left untouched).
INFINICTS_HOST_DEVICE inline bool LastTokenRow(const SelectLastTokenGeometry &g, const void *offsets, int64_t r,
                                                      int64_t *from) {
  const int64_t at = (r + 1) * g.offsets_step;
  const int64_t end = g.offsets_64 ? static_cast<const int64_t *>(offsets)[at]
                                   : static_cast<int64_t>(static_cast<const int32_t *>(offsets)[at]);
  const int64_t token = end - 1;
  if (token < 0 || token >= g.tokens) return false;
  *from = token / g.seq * g.in_batch + token % g.seq * g.in_seq;
  return true;
}

// element_size 2, 4 or 8.
infiniStatus_t SelectLastTokenHidden(const InfiniopDescriptor &desc, const SelectLastTokenGeometry &geometry,
                                     size_t element_size, void *output, const void *hidden_states,
                                     const void *input_offsets, void *stream);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_SELECT_LAST_TOKEN_HIDDEN_H
