// The CUDA kernels of the row-wise operators of libinfiniop.so (RMSNorm, LayerNorm, the
// softmax family, RoPE, Embedding, RandomSample) behind a plain host interface: raw device
// pointers, the arguments of rows_geometry.h (dtypes, a row geometry with strides in
// elements, the operator's scalars), and the cudaStream_t to queue on. Each Launch*
// function queues its kernels on `stream` on the calling thread's current CUDA device and
// returns cudaGetLastError()'s answer (cudaSuccess once queued; cudaErrorInvalidValue for
// a dtype the operator does not take); it never synchronizes. Empty tensors queue nothing.
// The caller has validated the layouts (as the CPU operator does) and selected the device.
//
// Semantics are those of the CPU operators in reference_impl/op/ops/ and RULES.md §5, with
// the arithmetic of a GPU: elements are computed in F32 (F64 for F64 data), row sums
// accumulate in F32 for F16/BF16 rows and in F64 for F32/F64 rows (as the CPU's F32 vector
// path does), RoPE and RandomSample compute in F64 throughout; one rounding on store.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_ROWS_KERNELS_H
#define INFINICTS_REF_OP_CUDA_ROWS_ROWS_KERNELS_H

#include <cuda_runtime_api.h>

#include "rows_geometry.h"

namespace infinicts::ref::op::cuda_rows {

cudaError_t LaunchRMSNorm(const RMSNormArgs &args, void *y, const void *x, const void *w, cudaStream_t stream);
cudaError_t LaunchLayerNorm(const LayerNormArgs &args, void *output, void *standardization, void *std_deviation,
                            const void *input, const void *weight, const void *bias, cudaStream_t stream);
cudaError_t LaunchSoftmax(const SoftmaxArgs &args, void *y, const void *x, cudaStream_t stream);
cudaError_t LaunchRoPE(const RoPEArgs &args, void *y, const void *x, const void *pos_ids, const void *sin_table,
                       const void *cos_table, cudaStream_t stream);
cudaError_t LaunchEmbedding(const EmbeddingArgs &args, void *output, const void *input, const void *weight,
                            cudaStream_t stream);
cudaError_t LaunchRandomSample(const RandomSampleArgs &args, const SampleParams &sample, void *result,
                               const void *probs, void *workspace, cudaStream_t stream);

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_ROWS_KERNELS_H
