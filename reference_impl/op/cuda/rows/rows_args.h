// The kernel arguments of rows_kernels.h from the tensor layouts a descriptor was created
// with (host only). The layouts must already be valid for the operator (its CPU MakePlan
// checks have passed); these functions only lay out the row geometry, as the CPU plans do.
#ifndef INFINICTS_REF_OP_CUDA_ROWS_ROWS_ARGS_H
#define INFINICTS_REF_OP_CUDA_ROWS_ROWS_ARGS_H

#include <cstddef>

#include "core/tensor.h"
#include "rows_geometry.h"

namespace infinicts::ref::op::cuda_rows {

RMSNormArgs RMSNormArgsFor(const TensorLayout &y, const TensorLayout &x, const TensorLayout &w, float epsilon);

// bias may be NULL.
LayerNormArgs LayerNormArgsFor(const TensorLayout &output, const TensorLayout &standardization,
                               const TensorLayout &std_deviation, const TensorLayout &input,
                               const TensorLayout &weight, const TensorLayout *bias, float eps);

// Softmax and LogSoftmax along `axis` (already made non-negative).
SoftmaxArgs SoftmaxArgsFor(const TensorLayout &y, const TensorLayout &x, size_t axis, bool log);
// CausalSoftmax over the last dim of (..., seq, total).
SoftmaxArgs CausalSoftmaxArgsFor(const TensorLayout &y, const TensorLayout &x);

// algo: INFINIOP_ROPE_ALGO_GPT_J (0) or INFINIOP_ROPE_ALGO_GPT_NEOX (1).
RoPEArgs RoPEArgsFor(const TensorLayout &y, const TensorLayout &x, const TensorLayout &pos_ids,
                     const TensorLayout &sin_table, const TensorLayout &cos_table, int algo);

EmbeddingArgs EmbeddingArgsFor(const TensorLayout &output, const TensorLayout &input, const TensorLayout &weight);

RandomSampleArgs RandomSampleArgsFor(const TensorLayout &result, const TensorLayout &probs);

}  // namespace infinicts::ref::op::cuda_rows

#endif  // INFINICTS_REF_OP_CUDA_ROWS_ROWS_ARGS_H
