// The reference backend as the benchmark drives it: runtime devices with one stream
// and one InfiniOP handle each, device memory, and timing of stream work with the
// runtime's own events (so asynchronous work is timed where it runs).
#ifndef INFINICTS_BENCH_REFERENCE_SPEED_REFERENCE_DEVICE_H
#define INFINICTS_BENCH_REFERENCE_SPEED_REFERENCE_DEVICE_H

#include <cstddef>
#include <functional>

#include "infiniop/handle.h"
#include "infinirt.h"

namespace infinicts::bench {

// Throws std::runtime_error naming `what` unless status is SUCCESS.
void Check(infiniStatus_t status, const char *what);

// Runtime devices of type CPU present in this process.
int CpuDeviceCount();

// CPU device `id`: created on first use, kept for the process.
class ReferenceDevice {
 public:
  static ReferenceDevice &Get(int id);

  int id() const { return id_; }
  infinirtStream_t stream() const { return stream_; }
  infiniopHandle_t handle() const { return handle_; }
  // Makes this device current on the calling thread.
  void MakeCurrent() const;

 private:
  explicit ReferenceDevice(int id);

  int id_;
  infinirtStream_t stream_ = nullptr;
  infiniopHandle_t handle_ = nullptr;
};

// Memory of one device, freed when the buffer goes.
class DeviceBuffer {
 public:
  DeviceBuffer(const ReferenceDevice &device, size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  void *data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  const ReferenceDevice &device_;
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

// A start and an end event on one device's stream: the seconds between them as the
// stream saw them.
class StreamTimer {
 public:
  explicit StreamTimer(const ReferenceDevice &device);
  ~StreamTimer();
  StreamTimer(const StreamTimer &) = delete;
  StreamTimer &operator=(const StreamTimer &) = delete;

  void Start();
  void Stop();
  // Waits for the end event; the seconds from start to end.
  double Seconds();
  // Start, enqueue (which queues the work on the device's stream), Stop, Seconds.
  double Time(const std::function<void()> &enqueue);

 private:
  const ReferenceDevice &device_;
  infinirtEvent_t start_ = nullptr;
  infinirtEvent_t end_ = nullptr;
};

}  // namespace infinicts::bench

#endif  // INFINICTS_BENCH_REFERENCE_SPEED_REFERENCE_DEVICE_H
