// The CUDA paths of the row-wise operators, as ops/<op>.cc calls them for NVIDIA
// descriptors (cuda/README.md): the descriptor (its device), the kernel arguments its
// plan built at creation (rows_args.h), the device pointers and the InfiniRT stream.
// Each makes the descriptor's device current, queues the kernels on the stream's
// cudaStream_t and answers the status (a stream of another device: BAD_PARAM). Plain C++.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_ROWS_OPS_H
#define INFINICTS_REF_OP_CUDA_ROWS_ROWS_OPS_H

#include "core/descriptor.h"
#include "cuda/rows/rows_geometry.h"

namespace infinicts::ref::op::cuda_rows {

infiniStatus_t RMSNorm(const InfiniopDescriptor &desc, const RMSNormArgs &args, void *y, const void *x,
                       const void *w, void *stream);
infiniStatus_t LayerNorm(const InfiniopDescriptor &desc, const LayerNormArgs &args, void *output,
                         void *standardization, void *std_deviation, const void *input, const void *weight,
                         const void *bias, void *stream);
// Softmax, LogSoftmax and CausalSoftmax.
infiniStatus_t Softmax(const InfiniopDescriptor &desc, const SoftmaxArgs &args, void *y, const void *x, void *stream);
infiniStatus_t RoPE(const InfiniopDescriptor &desc, const RoPEArgs &args, void *y, const void *x, const void *pos_ids,
                    const void *sin_table, const void *cos_table, void *stream);
infiniStatus_t Embedding(const InfiniopDescriptor &desc, const EmbeddingArgs &args, void *output, const void *input,
                         const void *weight, void *stream);
// workspace: at least RandomSampleWorkspaceBytes(args.n) bytes of device memory.
infiniStatus_t RandomSample(const InfiniopDescriptor &desc, const RandomSampleArgs &args, const SampleParams &sample,
                            void *result, const void *probs, void *workspace, void *stream);

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_ROWS_OPS_H
