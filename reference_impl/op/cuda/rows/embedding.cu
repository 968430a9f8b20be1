// Embedding: a warp per output row, its lanes along the row, copying the weight row's
// elements bit for bit; an index outside [0, vocab) leaves its row unwritten.
#include "device_common.cuh"

namespace infinicts::ref::op::cuda_rows {
namespace {

// E: an unsigned integer of the element's size (the copy needs no arithmetic).
template <class E, class I>
__global__ void __launch_bounds__(kBlock) EmbeddingKernel(const __grid_constant__ EmbeddingArgs args, E *output,
                                                          const I *input, const E *weight) {
  const int lane = threadIdx.x % 32;
  for (int64_t row = int64_t(blockIdx.x) * kWarps + threadIdx.x / 32; row < args.rows.rows;
       row += int64_t(gridDim.x) * kWarps) {
    int64_t offsets[2];
    RowOffsets(args.rows, row, offsets);
    const int64_t index = static_cast<int64_t>(input[offsets[1]]);
    if (index < 0 || index >= args.vocab) continue;
    E *out = output + offsets[0];
    const E *source = weight + index * args.weight_row;
    for (int64_t j = lane; j < args.dim; j += 32) out[j * args.output_step] = source[j * args.weight_step];
  }
}

template <class E>
cudaError_t EmbeddingTyped(const EmbeddingArgs &args, void *output, const void *input, const void *weight,
                           cudaStream_t stream) {
  const unsigned grid = GridFor(args.rows.rows, kWarps);
  auto *out = static_cast<E *>(output);
  const auto *w = static_cast<const E *>(weight);
  if (args.index_dtype == INFINI_DTYPE_I32) {
    EmbeddingKernel<E, int32_t><<<grid, kBlock, 0, stream>>>(args, out, static_cast<const int32_t *>(input), w);
  } else if (args.index_dtype == INFINI_DTYPE_I64) {
    EmbeddingKernel<E, int64_t><<<grid, kBlock, 0, stream>>>(args, out, static_cast<const int64_t *>(input), w);
  } else {
    return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchEmbedding(const EmbeddingArgs &args, void *output, const void *input, const void *weight,
                            cudaStream_t stream) {
  if (args.rows.rows == 0 || args.dim == 0) return cudaSuccess;
  switch (args.dtype) {
    case INFINI_DTYPE_F16:
    case INFINI_DTYPE_BF16: return EmbeddingTyped<uint16_t>(args, output, input, weight, stream);
    case INFINI_DTYPE_F32: return EmbeddingTyped<uint32_t>(args, output, input, weight, stream);
    case INFINI_DTYPE_F64: return EmbeddingTyped<uint64_t>(args, output, input, weight, stream);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace infinicts::ref::op::cuda_rows
