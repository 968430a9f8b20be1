/* infinicts: InfiniOP, the operator interface (handle, tensor descriptors, operator
 * descriptors and the operators). ABI-compatible with InfiniCore's public
 * include/infiniop.h for the operators listed here. */
#ifndef INFINICTS_INFINIOP_H
#define INFINICTS_INFINIOP_H

#include "infiniop/handle.h"
#include "infiniop/operator_descriptor.h"
#include "infiniop/tensor_descriptor.h"

#include "infiniop/ops/add.h"
#include "infiniop/ops/causal_softmax.h"
#include "infiniop/ops/clip.h"
#include "infiniop/ops/conv.h"
#include "infiniop/ops/embedding.h"
#include "infiniop/ops/gelu.h"
#include "infiniop/ops/gemm.h"
#include "infiniop/ops/layer_norm.h"
#include "infiniop/ops/log_softmax.h"
#include "infiniop/ops/mul.h"
#include "infiniop/ops/random_sample.h"
#include "infiniop/ops/rearrange.h"
#include "infiniop/ops/relu.h"
#include "infiniop/ops/rms_norm.h"
#include "infiniop/ops/rope.h"
#include "infiniop/ops/sigmoid.h"
#include "infiniop/ops/silu.h"
#include "infiniop/ops/softmax.h"
#include "infiniop/ops/sub.h"
#include "infiniop/ops/swiglu.h"

#endif /* INFINICTS_INFINIOP_H */
