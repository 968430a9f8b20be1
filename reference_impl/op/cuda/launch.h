// What every CUDA path does around its launches: the descriptor's device made current for
// the call, the InfiniRT stream turned into its cudaStream_t, and CUDA errors turned into
// statuses. Included only by the files of cuda/ (it needs the CUDA runtime headers).
#ifndef INFINICTS_REF_OP_CUDA_LAUNCH_H
#define INFINICTS_REF_OP_CUDA_LAUNCH_H

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>

#include "core/descriptor.h"
#include "core/status.h"

namespace infinicts::ref::op::cuda {

// Maps a CUDA error to a status, and clears it from the thread's last error so that the
// next check sees only its own. A sticky error ends the process (infinicts_ref/cuda_errors.h).
infiniStatus_t ToStatus(cudaError_t error);

// CUDA device `device` made current for the scope's lifetime, the caller's device
// restored afterwards.
class CurrentDeviceScope {
 public:
  explicit CurrentDeviceScope(int device);
  ~CurrentDeviceScope();
  CurrentDeviceScope(const CurrentDeviceScope &) = delete;
  CurrentDeviceScope &operator=(const CurrentDeviceScope &) = delete;

  // SUCCESS when the device is current.
  infiniStatus_t status() const { return status_; }

 private:
  int previous_ = -1;
  bool switched_ = false;
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;
};

// The scope of one compute call on NVIDIA: checks that `stream` (NULL: the calling
// thread's current device's default stream) belongs to the descriptor's device
// (BAD_PARAM otherwise, the runtime's answer for an unknown stream), makes that device
// current for the scope's lifetime and restores the caller's device afterwards. It
// starts by clearing the thread's last CUDA error, so Finish() sees only this scope's.
// Kernels go on stream(); Finish() answers the launches' status.
class LaunchScope {
 public:
  LaunchScope(const InfiniopDescriptor &desc, void *stream);
  LaunchScope(const LaunchScope &) = delete;
  LaunchScope &operator=(const LaunchScope &) = delete;

  // SUCCESS when the stream is usable and the device current; nothing may be launched otherwise.
  infiniStatus_t status() const { return status_; }
  cudaStream_t stream() const { return stream_; }
  int device() const { return device_; }
  // The status of the kernels launched in this scope so far (cudaGetLastError).
  infiniStatus_t Finish() const { return ToStatus(cudaGetLastError()); }

 private:
  cudaStream_t stream_ = nullptr;
  int device_ = 0;
  std::optional<CurrentDeviceScope> current_;  // made once the stream is known to be the device's
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;
};

// A 1-D grid-stride launch over `work` items: blocks of kThreads, at most kMaxBlocks
// blocks (each thread then takes several items).
constexpr unsigned kThreads = 256;
constexpr uint64_t kMaxBlocks = 65535;

inline unsigned BlocksFor(uint64_t work) {
  const uint64_t blocks = (work + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks == 0 ? 1 : (blocks < kMaxBlocks ? blocks : kMaxBlocks));
}

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_LAUNCH_H
