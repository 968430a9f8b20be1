#include "cuda/rows/rows_ops.h"

#include "core/status.h"
#include "cuda/launch.h"
#include "cuda/rows/rows_kernels.h"

namespace infinicts::ref::op::cuda_rows {

using cuda::LaunchScope;
using cuda::ToStatus;

infiniStatus_t RMSNorm(const InfiniopDescriptor &desc, const RMSNormArgs &args, void *y, const void *x,
                       const void *w, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(LaunchRMSNorm(args, y, x, w, scope.stream()));
}

infiniStatus_t LayerNorm(const InfiniopDescriptor &desc, const LayerNormArgs &args, void *output,
                         void *standardization, void *std_deviation, const void *input, const void *weight,
                         const void *bias, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(
      LaunchLayerNorm(args, output, standardization, std_deviation, input, weight, bias, scope.stream()));
}

infiniStatus_t Softmax(const InfiniopDescriptor &desc, const SoftmaxArgs &args, void *y, const void *x,
                       void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(LaunchSoftmax(args, y, x, scope.stream()));
}

infiniStatus_t RoPE(const InfiniopDescriptor &desc, const RoPEArgs &args, void *y, const void *x, const void *pos_ids,
                    const void *sin_table, const void *cos_table, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(LaunchRoPE(args, y, x, pos_ids, sin_table, cos_table, scope.stream()));
}

infiniStatus_t Embedding(const InfiniopDescriptor &desc, const EmbeddingArgs &args, void *output, const void *input,
                         const void *weight, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(LaunchEmbedding(args, output, input, weight, scope.stream()));
}

infiniStatus_t RandomSample(const InfiniopDescriptor &desc, const RandomSampleArgs &args, const SampleParams &sample,
                            void *result, const void *probs, void *workspace, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  return ToStatus(LaunchRandomSample(args, sample, result, probs, workspace, scope.stream()));
}

}  // namespace infinicts::ref::op::cuda_rows
