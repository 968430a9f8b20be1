#include "ccl/rank_stream.h"

#include <cstdio>
#include <exception>
#include <utility>

#include "infinicts_ref/runtime_internal.h"

namespace infinicts::ref::ccl {
namespace {

// Makes (CPU, device) the calling thread's current device for its lifetime, then puts
// the previous one back: the caller's current device is not ours to change.
class CurrentDeviceSwitch {
 public:
  explicit CurrentDeviceSwitch(int device) {
    status_ = infinirtGetDevice(&previous_type_, &previous_id_);
    if (status_ != INFINI_STATUS_SUCCESS) return;
    switched_ = previous_type_ != INFINI_DEVICE_CPU || previous_id_ != device;
    if (switched_) status_ = infinirtSetDevice(INFINI_DEVICE_CPU, device);
  }
  ~CurrentDeviceSwitch() {
    if (switched_ && status_ == INFINI_STATUS_SUCCESS) infinirtSetDevice(previous_type_, previous_id_);
  }
  CurrentDeviceSwitch(const CurrentDeviceSwitch &) = delete;
  CurrentDeviceSwitch &operator=(const CurrentDeviceSwitch &) = delete;

  infiniStatus_t status() const { return status_; }

 private:
  infiniStatus_t status_ = INFINI_STATUS_SUCCESS;
  infiniDevice_t previous_type_ = INFINI_DEVICE_CPU;
  int previous_id_ = 0;
  bool switched_ = false;
};

}  // namespace

infiniStatus_t CheckRankStream(int device, infinirtStream_t stream) {
  if (stream == nullptr) return INFINI_STATUS_SUCCESS;
  infiniDevice_t stream_type = INFINI_DEVICE_CPU;
  int stream_device = 0;
  const infiniStatus_t status = infinictsRefStreamDevice(stream, &stream_type, &stream_device);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (stream_type != INFINI_DEVICE_CPU || stream_device != device) return INFINI_STATUS_BAD_PARAM;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t EnqueueForRank(int device, infinirtStream_t stream, std::function<void()> work) {
  const infiniStatus_t status = CheckRankStream(device, stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  auto guarded = [work = std::move(work)] {
    // Nothing can carry a failure back from the worker; say it and go on.
    try {
      work();
    } catch (const std::exception &error) {
      std::fprintf(stderr, "libinfiniccl: a collective failed on its stream: %s\n", error.what());
    }
  };
  if (stream != nullptr) return infinicts_ref::EnqueueOnStream(stream, std::move(guarded));
  const CurrentDeviceSwitch on_rank_device(device);
  if (on_rank_device.status() != INFINI_STATUS_SUCCESS) return on_rank_device.status();
  return infinicts_ref::EnqueueOnStream(nullptr, std::move(guarded));
}

}  // namespace infinicts::ref::ccl
