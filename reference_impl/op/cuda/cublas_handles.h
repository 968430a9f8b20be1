// One cuBLAS handle per CUDA device, created on first use and kept for the life of the
// process (destroying it at exit would race the CUDA runtime's own teardown). A handle
// serves one call at a time: a lease holds its lock while it binds the caller's stream
// and enqueues the call, which is quick (cuBLAS returns once the work is queued). cuBLAS
// runs without a workspace, so that calls queued on different streams share no memory.
#ifndef INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H
#define INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <mutex>

#include "infinicore.h"

namespace infinicts::ref::op::cuda {

infiniStatus_t CublasToStatus(cublasStatus_t status);

class CublasLease {
 public:
  // `device` must be the current CUDA device (a LaunchScope of it is open).
  CublasLease(int device, cudaStream_t stream);
  CublasLease(const CublasLease &) = delete;
  CublasLease &operator=(const CublasLease &) = delete;

  // SUCCESS when handle() is usable on the stream.
  infiniStatus_t status() const { return status_; }
  cublasHandle_t handle() const { return handle_; }

 private:
  std::unique_lock<std::mutex> lock_;
  cublasHandle_t handle_ = nullptr;
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_CUBLAS_HANDLES_H
