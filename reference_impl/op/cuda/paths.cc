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
    case OpKind::kErf:
    case OpKind::kFloor:
    case OpKind::kTanh:
    case OpKind::kSinh:
    case OpKind::kLog1p:
    case OpKind::kReciprocal:
    case OpKind::kRelu6:
    case OpKind::kHardSwish:
    case OpKind::kGeluTanh:
    case OpKind::kQuickGelu:
    case OpKind::kSelu:
    case OpKind::kSoftsign:
    case OpKind::kHardTanh:
    case OpKind::kSoftplus:
    case OpKind::kOnes:
    case OpKind::kZeros:
    case OpKind::kRearrange:
    case OpKind::kConv:
    case OpKind::kPagedCaching:
    case OpKind::kKVCaching:
    case OpKind::kSiluAndMul:
    case OpKind::kAttention:
    case OpKind::kTopksoftmax:
    case OpKind::kTopkrouter:
    case OpKind::kMRoPE:
    case OpKind::kSelectLastTokenHidden:
    case OpKind::kPagedAttention:
    case OpKind::kPagedAttentionPrefill:
    // cuda/rows/: the row-wise operators
    case OpKind::kRMSNorm:
    case OpKind::kAddRMSNorm:  // Add, then RMSNorm's row kernel
    case OpKind::kLayerNorm:
    case OpKind::kSoftmax:
    case OpKind::kLogSoftmax:
    case OpKind::kCausalSoftmax:
    case OpKind::kRoPE:
    case OpKind::kEmbedding:
    case OpKind::kRandomSample:
    case OpKind::kRandomSampleBatch:  // RandomSample's draw per row
      return true;
    default:
      return false;
  }
}

}  // namespace infinicts::ref::op::cuda
