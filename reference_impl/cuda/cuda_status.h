// CUDA errors as InfiniRT statuses, and the guard that makes a device current for one call.
#ifndef INFINICTS_REF_CUDA_CUDA_STATUS_H
#define INFINICTS_REF_CUDA_CUDA_STATUS_H

#include <cuda_runtime_api.h>

#include "infinirt.h"

namespace infinicts::ref::cuda {

// Maps a CUDA error to an InfiniRT status. A failed call also leaves its error as the
// thread's "last error"; this clears it, so that a later cudaGetLastError (e.g. after a
// kernel launch in the operators) sees only its own. A sticky error (a lost context) ends
// the process instead (infinicts_ref/cuda_errors.h).
infiniStatus_t ToStatus(cudaError_t error);

// Makes `device` the thread's current CUDA device for the guard's lifetime and restores
// the caller's afterwards: InfiniRT's current device is its own, per thread, and must not
// be changed behind the caller's back, nor may the caller's CUDA device be.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard &) = delete;
  DeviceGuard &operator=(const DeviceGuard &) = delete;

  // SUCCESS when `device` is current; otherwise the call must not go on.
  infiniStatus_t status() const { return status_; }

 private:
  int previous_ = -1;
  bool switched_ = false;
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;
};

}  // namespace infinicts::ref::cuda

#endif  // INFINICTS_REF_CUDA_CUDA_STATUS_H
