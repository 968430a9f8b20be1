// The checks every exported operator function starts with, written once: argument
// NULLs, descriptor kind, workspace size, and handing the work to the stream.
#ifndef INFINICTS_REF_OP_CORE_API_H
#define INFINICTS_REF_OP_CORE_API_H

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>

#include "core/descriptor.h"
#include "core/status.h"
#include "core/stream_bridge.h"
#include "core/tensor.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/paths.h"
#endif

namespace infinicts::ref::op {

// Extra bytes added to every non-zero workspace so that it can be aligned internally.
constexpr size_t kWorkspaceAlignment = 64;

inline size_t WorkspaceWithSlack(size_t bytes) { return bytes == 0 ? 0 : bytes + kWorkspaceAlignment; }

inline void *AlignWorkspace(void *workspace) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(workspace);
  return reinterpret_cast<void *>((address + kWorkspaceAlignment - 1) & ~uintptr_t(kWorkspaceAlignment - 1));
}

// Create<X>Descriptor: NULL handle, desc_ptr or required tensor descriptor ->
// NULL_POINTER; otherwise make(handle, &descriptor) validates and builds it.
template <class Make>
infiniStatus_t CreateDescriptor(infiniopHandle_t handle, InfiniopDescriptor **desc_ptr,
                                std::initializer_list<const InfiniopTensorDescriptor *> required, Make &&make) {
  if (handle == nullptr || desc_ptr == nullptr) return INFINI_STATUS_NULL_POINTER;
  for (const InfiniopTensorDescriptor *tensor : required) {
    if (tensor == nullptr) return INFINI_STATUS_NULL_POINTER;
  }
  try {
    std::unique_ptr<InfiniopDescriptor> made;
    INFINIOP_RETURN_IF_ERROR(make(*handle, &made));
#ifdef INFINIOP_WITH_CUDA
    // Data on an NVIDIA device is in GPU memory: only operators with a CUDA path serve it;
    // the others are not implemented there yet.
    if (handle->device_type == INFINI_DEVICE_NVIDIA && !cuda::HasCudaPath(made->kind)) {
      return INFINI_STATUS_NOT_IMPLEMENTED;
    }
#endif
    *desc_ptr = made.release();
    return INFINI_STATUS_SUCCESS;
  } catch (const std::bad_alloc &) {
    return INFINI_STATUS_INTERNAL_ERROR;
  }
}

// NULL -> NULL_POINTER; a descriptor of another operator -> BAD_PARAM.
template <class D>
infiniStatus_t CastDescriptor(InfiniopDescriptor *desc, D **out) {
  if (desc == nullptr) return INFINI_STATUS_NULL_POINTER;
  if (desc->kind != D::kKind) return INFINI_STATUS_BAD_PARAM;
  *out = static_cast<D *>(desc);
  return INFINI_STATUS_SUCCESS;
}

template <class D>
infiniStatus_t GetWorkspaceSize(InfiniopDescriptor *desc, size_t *size) {
  D *typed = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &typed));
  if (size == nullptr) return INFINI_STATUS_NULL_POINTER;
  *size = typed->workspace_size;
  return INFINI_STATUS_SUCCESS;
}

template <class D>
infiniStatus_t DestroyDescriptor(InfiniopDescriptor *desc) {
  D *typed = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &typed));
  delete typed;
  return INFINI_STATUS_SUCCESS;
}

// workspace_size below the descriptor's need -> INSUFFICIENT_WORKSPACE; a need > 0
// with a NULL workspace -> NULL_POINTER.
inline infiniStatus_t CheckWorkspace(const InfiniopDescriptor &desc, const void *workspace, size_t workspace_size) {
  if (workspace_size < desc.workspace_size) return INFINI_STATUS_INSUFFICIENT_WORKSPACE;
  if (desc.workspace_size > 0 && workspace == nullptr) return INFINI_STATUS_NULL_POINTER;
  return INFINI_STATUS_SUCCESS;
}

// A data pointer may be NULL only when its tensor has no elements.
inline infiniStatus_t CheckData(std::initializer_list<std::pair<const void *, size_t>> pointers_and_counts) {
  for (const auto &[pointer, count] : pointers_and_counts) {
    if (pointer == nullptr && count > 0) return INFINI_STATUS_NULL_POINTER;
  }
  return INFINI_STATUS_SUCCESS;
}

// Queues the work on the stream of the descriptor's device.
inline infiniStatus_t Launch(const InfiniopDescriptor &desc, void *stream, std::function<void()> work) {
#ifdef INFINIOP_WITH_CUDA
  // Host work never runs on GPU data; an NVIDIA descriptor reaching here has no CUDA path.
  if (desc.device_type == INFINI_DEVICE_NVIDIA) return INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
#endif
  try {
    return EnqueueOnStream(desc.device_type, desc.device_id, stream, std::move(work));
  } catch (const std::bad_alloc &) {
    return INFINI_STATUS_INTERNAL_ERROR;
  }
}

}  // namespace infinicts::ref::op

#endif  // INFINICTS_REF_OP_CORE_API_H
