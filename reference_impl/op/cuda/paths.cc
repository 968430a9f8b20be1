#include "cuda/paths.h"

namespace infinicts::ref::op::cuda {

bool HasCudaPath(OpKind kind) {
  switch (kind) {
    case OpKind::kGemm:
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kSwiGLU:
    case OpKind::kRelu:
    case OpKind::kSilu:
    case OpKind::kGelu:
    case OpKind::kSigmoid:
    case OpKind::kClip:
    case OpKind::kRearrange:
    case OpKind::kConv:
    // cuda/rows/: the row-wise operators
    case OpKind::kRMSNorm:
    case OpKind::kLayerNorm:
    case OpKind::kSoftmax:
    case OpKind::kLogSoftmax:
    case OpKind::kCausalSoftmax:
    case OpKind::kRoPE:
    case OpKind::kEmbedding:
    case OpKind::kRandomSample:
      return true;
    default:
      return false;
  }
}

}  // namespace infinicts::ref::op::cuda
