// Puts the calling thread's current CUDA device back at the end of a scope in which NCCL
// may switch devices (ncclCommInitAll, ncclGroupEnd visit every rank's device).
#ifndef INFINICTS_REF_CCL_NCCL_KEEP_CURRENT_DEVICE_H
#define INFINICTS_REF_CCL_NCCL_KEEP_CURRENT_DEVICE_H

#include <cuda_runtime_api.h>

namespace infinicts::ref::ccl::nccl {

class KeepCurrentDevice {
 public:
  KeepCurrentDevice() {
    if (cudaGetDevice(&device_) != cudaSuccess) {
      cudaGetLastError();
      device_ = -1;
    }
  }
  ~KeepCurrentDevice() {
    int now = -1;
    if (device_ >= 0 && cudaGetDevice(&now) == cudaSuccess && now != device_) cudaSetDevice(device_);
  }
  KeepCurrentDevice(const KeepCurrentDevice &) = delete;
  KeepCurrentDevice &operator=(const KeepCurrentDevice &) = delete;

 private:
  int device_ = -1;
};

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_KEEP_CURRENT_DEVICE_H
