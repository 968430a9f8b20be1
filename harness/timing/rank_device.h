// The streams a measurement times, each with the device it runs on, and the guards that
// leave the runtime as the measurement found it, also when it throws.
#pragma once

#include <vector>

#include "backend/backend.h"

namespace infinicts::timing {

// A single-stream measurement never selects a device (it times the current one's
// stream); a multi-rank one selects each stream's device before acting on it.
struct TimedStream {
  const RtApi *rt;
  infinirtStream_t stream;
  bool select_device;
  infiniDevice_t device_type;
  int device_id;

  void MakeCurrent() const;         // throws TimingError
  void MakeCurrentQuietly() const;  // for cleanup: ignores a failure
};

// Reads the caller's current device, and sets it again on Restore() and on the way out.
class CurrentDeviceRestorer {
 public:
  explicit CurrentDeviceRestorer(const RtApi &rt, bool active);
  ~CurrentDeviceRestorer();
  CurrentDeviceRestorer(const CurrentDeviceRestorer &) = delete;
  CurrentDeviceRestorer &operator=(const CurrentDeviceRestorer &) = delete;
  void Restore() const;  // throws TimingError

 private:
  const RtApi &rt_;
  bool known_ = false;
  infiniDevice_t device_type_ = INFINI_DEVICE_CPU;
  int device_id_ = 0;
};

// Synchronizes every stream on the way out, so that no work still in flight touches a
// buffer or an event that is about to be released (a launch may fail mid-measurement).
class StreamDrain {
 public:
  explicit StreamDrain(const std::vector<TimedStream> &streams) : streams_(streams) {}
  ~StreamDrain();
  StreamDrain(const StreamDrain &) = delete;
  StreamDrain &operator=(const StreamDrain &) = delete;

 private:
  const std::vector<TimedStream> &streams_;
};

// Synchronizes every stream (each on its device); throws TimingError.
void SynchronizeAll(const std::vector<TimedStream> &streams);

}  // namespace infinicts::timing
