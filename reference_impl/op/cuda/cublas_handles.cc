#include "cuda/cublas_handles.h"

#include <cstdint>

#include "infinicts_ref/cuda_errors.h"

namespace infinicts::ref::op::cuda {
namespace {

infiniStatus_t CreateCublas(cublasHandle_t *out) {
  cublasHandle_t created = nullptr;
  infiniStatus_t status = CublasToStatus(cublasCreate(&created));
  if (status != INFINI_STATUS_SUCCESS) return status;
  // F16/BF16 products are summed in F32 to the end (OP-GEMM-6): no split-K reduction in
  // the half type. F32 stays true F32 (default math: no TF32).
  status = CublasToStatus(cublasSetMathMode(
      created, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  if (status != INFINI_STATUS_SUCCESS) {
    cublasDestroy(created);
    return status;
  }
  *out = created;
  return INFINI_STATUS_SUCCESS;
}

}  // namespace

infiniStatus_t CublasToStatus(cublasStatus_t status) {
  if (status != CUBLAS_STATUS_SUCCESS) AbortIfCudaContextLost("libinfiniop, cuBLAS");
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return INFINI_STATUS_SUCCESS;
    case CUBLAS_STATUS_INVALID_VALUE: return INFINI_STATUS_BAD_PARAM;
    case CUBLAS_STATUS_ARCH_MISMATCH: return INFINI_STATUS_DEVICE_ARCHITECTURE_NOT_SUPPORTED;
    case CUBLAS_STATUS_NOT_SUPPORTED: return INFINI_STATUS_NOT_IMPLEMENTED;
    default: return INFINI_STATUS_INTERNAL_ERROR;
  }
}

CublasLease::CublasLease(int device, cudaStream_t stream, void *workspace, size_t bytes)
    : DeviceHandleLease(device, CreateCublas) {
  if (status_ != INFINI_STATUS_SUCCESS) return;
  status_ = CublasToStatus(cublasSetStream(handle(), stream));
  if (status_ != INFINI_STATUS_SUCCESS) return;
  // Setting the stream just brought back cuBLAS's default pool, which every stream of the
  // device would share: the call's own workspace replaces it, or none.
  if (workspace == nullptr) {
    // A cuBLAS that refused would keep that pool: the call still computes.
    cublasSetWorkspace(handle(), nullptr, 0);
    return;
  }
  constexpr uintptr_t kAlignment = 256;  // cuBLAS's workspace alignment
  const uintptr_t aligned = (reinterpret_cast<uintptr_t>(workspace) + kAlignment - 1) & ~(kAlignment - 1);
  status_ = CublasToStatus(cublasSetWorkspace(handle(), reinterpret_cast<void *>(aligned), bytes));
}

}  // namespace infinicts::ref::op::cuda
