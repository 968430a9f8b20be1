// The device layer of the harness: DeviceManager (one device type) -> Device -> Stream and
// DeviceBuffer, plus an RAII ActiveDeviceGuard with PyTorch's device guard semantics, as
// the op and ccl suites and the runtime suite's guard cases use them. Events and pinned
// host memory are the runtime suite's own subjects: its cases call InfiniRT for them
// directly. Everything sits on a loaded backend's InfiniRT table (RtApi), so it works for
// any backend and can be unit-tested with a table of fakes.
//
// Errors: calls that the backend answers with a non-SUCCESS status throw
// DeviceError carrying that status, except where a comment says otherwise. A backend
// that answers SUCCESS but hands back a NULL event or (for n > 0) a NULL pointer throws
// DeviceError with the status it did answer, SUCCESS, and what was wrong with it. A NULL
// stream after SUCCESS is not an error: the NULL stream is a valid stream (the device's
// default one), and Stream::is_default() tells it apart. A member left NULL in an RtApi
// table answers INFINI_STATUS_NOT_IMPLEMENTED, as the loader's stand-ins do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "backend/backend.h"

namespace infinicts::device {

class DeviceError : public std::runtime_error {
 public:
  // what(): "<call> answered <status name>", then " <detail>" when a detail is given
  // ("infinirtMalloc answered SUCCESS with a NULL pointer for 64 bytes").
  DeviceError(const std::string &what_call, infiniStatus_t status);
  DeviceError(const std::string &what_call, infiniStatus_t status, const std::string &detail);
  infiniStatus_t status() const { return status_; }
  const std::string &call() const { return call_; }  // as given: "infinirtSetDevice(cpu:1)"

 private:
  std::string call_;
  infiniStatus_t status_;
};

struct DeviceId {
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int index = 0;
  bool operator==(const DeviceId &other) const { return type == other.type && index == other.index; }
  bool operator!=(const DeviceId &other) const { return !(*this == other); }
};

std::string ToString(DeviceId device);  // "nvidia:1"

class Device;

// Every method makes the stream's device current for the call's duration.
class Stream {
 public:
  ~Stream();  // destroys the backend stream (waiting for its work as the backend does)
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  infinirtStream_t raw() const { return raw_; }
  // The backend answered StreamCreate with the NULL stream: work runs on the device's
  // default stream, and two such streams are one.
  bool is_default() const { return raw_ == nullptr; }
  Device &device() const { return device_; }
  void Synchronize();

 private:
  friend class Device;
  Stream(Device &device, infinirtStream_t raw) : device_(device), raw_(raw) {}
  Device &device_;
  infinirtStream_t raw_;
};

// Device memory freed exactly once: on destruction or when a
// move assignment replaces it; a moved-from buffer is empty. Freed with its device
// current.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  void *data() const { return data_; }
  size_t size() const { return size_; }
  DeviceId device() const { return device_; }

 private:
  friend class Device;
  DeviceBuffer(const RtApi *rt, DeviceId device, void *data, size_t size)
      : rt_(rt), device_(device), data_(data), size_(size) {}
  void Release() noexcept;
  const RtApi *rt_ = nullptr;
  DeviceId device_;
  void *data_ = nullptr;
  size_t size_ = 0;
};

class Device {
 public:
  Device(const RtApi &rt, DeviceId id) : rt_(rt), id_(id) {}
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  DeviceId id() const { return id_; }
  const RtApi &rt() const { return rt_; }

  // Each makes this device current on the calling thread for the call's duration.
  std::unique_ptr<Stream> CreateStream();
  DeviceBuffer Allocate(size_t bytes);
  void Synchronize();  // every stream of the device
  void MemInfo(size_t *free_bytes, size_t *total_bytes) const;

 private:
  const RtApi &rt_;
  DeviceId id_;
};

// One per device type. GetDevice returns the same object for the same index.
class DeviceManager {
 public:
  // A type outside [0, INFINI_DEVICE_TYPE_COUNT) makes a manager with no device.
  DeviceManager(const RtApi &rt, infiniDevice_t type) : rt_(rt), type_value_(static_cast<int>(type)) {}
  virtual ~DeviceManager() = default;
  DeviceManager(const DeviceManager &) = delete;
  DeviceManager &operator=(const DeviceManager &) = delete;
  infiniDevice_t type() const { return static_cast<infiniDevice_t>(type_value_); }
  // Never throws: 0 when the backend fails to answer (PyTorch's device count).
  int GetDeviceCount() const noexcept;
  // Throws std::out_of_range for an index outside [0, count).
  Device &GetDevice(int index);
  const RtApi &rt() const { return rt_; }

 private:
  const RtApi &rt_;
  // Kept as the integer it is: a value outside the enum must never be loaded as one.
  int type_value_;
  std::mutex mutex_;
  std::map<int, std::unique_ptr<Device>> devices_;
};

// PyTorch-style guard primitives over the backend's current device.
DeviceId GetCurrentDevice(const RtApi &rt);
// Never throws: 0 when the backend answers an error or a negative count.
int GetDeviceCount(const RtApi &rt, infiniDevice_t type) noexcept;
// Sets `device` and returns the previous current device; setting the current device again
// does not call the backend (a no-op). A failed set throws and leaves the device as it was.
DeviceId ExchangeDevice(const RtApi &rt, DeviceId device);
// Never throws: for destructors. Answers the backend's status (SUCCESS without calling
// SetDevice when `device` is already current).
infiniStatus_t UncheckedSetDevice(const RtApi &rt, DeviceId device) noexcept;
// Waits for all work of `device` (every stream, the NULL stream included).
void SynchronizeDevice(const RtApi &rt, DeviceId device);

// Makes `device` current for its scope; restores the previous current device on exit,
// exceptions included. A constructor that throws (the set failed) changed nothing.
// A failed restore cannot throw from the destructor: it is reported on stderr.
class ActiveDeviceGuard {
 public:
  ActiveDeviceGuard(const RtApi &rt, DeviceId device);
  ~ActiveDeviceGuard();
  ActiveDeviceGuard(const ActiveDeviceGuard &) = delete;
  ActiveDeviceGuard &operator=(const ActiveDeviceGuard &) = delete;
  DeviceId previous() const { return previous_; }
  DeviceId device() const { return device_; }

 private:
  const RtApi &rt_;
  DeviceId device_;
  DeviceId previous_;
};

}  // namespace infinicts::device
