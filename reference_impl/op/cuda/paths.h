// Which operators have a CUDA path. A handle on an NVIDIA device makes descriptors only for
// these (core/api.h's CreateDescriptor answers NOT_IMPLEMENTED for the others), so that no
// host work is ever queued for data in GPU memory. Each path says so beside its code,
// INFINIOP_CUDA_PATH(Name) at namespace scope: ops/<subject>.cc for an operator of its own
// shapes, cuda/elementwise.cu for every SAME_SHAPE row. Plain C++.
#ifndef INFINICTS_REF_OP_CUDA_PATHS_H
#define INFINICTS_REF_OP_CUDA_PATHS_H

#include "core/descriptor.h"

namespace infinicts::ref::op::cuda {

bool HasCudaPath(OpKind kind);

// Marks `kind` as served on NVIDIA devices from the library's load on.
struct CudaPath {
  explicit CudaPath(OpKind kind);
};

}  // namespace infinicts::ref::op::cuda

#define INFINIOP_CUDA_PATH(Name) \
  [[maybe_unused]] const ::infinicts::ref::op::cuda::CudaPath kCudaPathOf##Name(::infinicts::ref::op::OpKind::k##Name);

#endif  // INFINICTS_REF_OP_CUDA_PATHS_H
