// Which operators have a CUDA path. A handle on an NVIDIA device makes descriptors only for
// these (core/api.h's CreateDescriptor answers NOT_IMPLEMENTED for the others),
// so that no host work is ever queued for data in GPU memory. Plain C++.
#ifndef INFINICTS_REF_OP_CUDA_PATHS_H
#define INFINICTS_REF_OP_CUDA_PATHS_H

#include "core/descriptor.h"

namespace infinicts::ref::op::cuda {

bool HasCudaPath(OpKind kind);

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_PATHS_H
