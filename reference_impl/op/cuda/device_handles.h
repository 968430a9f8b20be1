// One library handle (cuBLAS, cuDNN) per CUDA device, created on first use and kept for
// the life of the process: destroying it at exit would race the CUDA runtime's own
// teardown. A handle serves one call at a time: a lease holds its lock while the caller
// binds its stream and queues the call, which is quick (the libraries return once the work
// is queued).
#ifndef INFINICTS_REF_OP_CUDA_DEVICE_HANDLES_H
#define INFINICTS_REF_OP_CUDA_DEVICE_HANDLES_H

#include <map>
#include <mutex>

#include "infinicore.h"

namespace infinicts::ref::op::cuda {

template <class Handle>
class DeviceHandleLease {
 public:
  // `create(Handle *)` answers a status; it makes the device's handle on first use (the
  // next lease retries after a failure). `device` must be the current CUDA device.
  template <class Create>
  DeviceHandleLease(int device, Create create) {
    Slot &slot = SlotOf(device);
    lock_ = std::unique_lock<std::mutex>(slot.mutex);
    if (slot.handle == nullptr) {
      Handle created = nullptr;
      status_ = create(&created);
      if (status_ != INFINI_STATUS_SUCCESS) return;
      slot.handle = created;
    }
    handle_ = slot.handle;
  }
  DeviceHandleLease(const DeviceHandleLease &) = delete;
  DeviceHandleLease &operator=(const DeviceHandleLease &) = delete;

  // SUCCESS when handle() is usable.
  infiniStatus_t status() const { return status_; }
  Handle handle() const { return handle_; }

 protected:
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;

 private:
  struct Slot {
    std::mutex mutex;
    Handle handle = nullptr;
  };

  // Never freed, like the handles: stream workers and other threads may use them until exit.
  static Slot &SlotOf(int device) {
    static auto *mutex = new std::mutex;
    static auto *slots = new std::map<int, Slot>;
    std::lock_guard<std::mutex> lock(*mutex);
    return (*slots)[device];
  }

  std::unique_lock<std::mutex> lock_;
  Handle handle_ = nullptr;
};

}  // namespace infinicts::ref::op::cuda

#endif  // INFINICTS_REF_OP_CUDA_DEVICE_HANDLES_H
