#include "timing/rank_device.h"

#include "timing/rt_check.h"

namespace infinicts::timing {

void TimedStream::MakeCurrent() const {
  if (select_device) CheckRt(rt->infinirtSetDevice(device_type, device_id), "infinirtSetDevice");
}

void TimedStream::MakeCurrentQuietly() const {
  if (select_device) rt->infinirtSetDevice(device_type, device_id);
}

CurrentDeviceRestorer::CurrentDeviceRestorer(const RtApi &rt, bool active) : rt_(rt) {
  if (active) known_ = rt_.infinirtGetDevice(&device_type_, &device_id_) == INFINI_STATUS_SUCCESS;
}

CurrentDeviceRestorer::~CurrentDeviceRestorer() {
  if (known_) rt_.infinirtSetDevice(device_type_, device_id_);
}

void CurrentDeviceRestorer::Restore() const {
  if (known_) CheckRt(rt_.infinirtSetDevice(device_type_, device_id_), "infinirtSetDevice");
}

StreamDrain::~StreamDrain() {
  for (const TimedStream &timed : streams_) {
    timed.MakeCurrentQuietly();
    timed.rt->infinirtStreamSynchronize(timed.stream);
  }
}

void SynchronizeAll(const std::vector<TimedStream> &streams) {
  for (const TimedStream &timed : streams) {
    timed.MakeCurrent();
    CheckRt(timed.rt->infinirtStreamSynchronize(timed.stream), "infinirtStreamSynchronize");
  }
}

}  // namespace infinicts::timing
