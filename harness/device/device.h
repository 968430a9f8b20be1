// The device layer of the harness, after OneFlow's EP design:
//   DeviceManagerRegistry -> DeviceManager (one per device type, made by a
//   registered factory) -> Device -> Stream / Event,
// plus AllocationOptions and an RAII ActiveDeviceGuard (PyTorch's device guard
// semantics). Everything sits on a loaded backend's InfiniRT table (RtApi), so it
// works for any backend and can be unit-tested with a table of fakes.
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

// Where host memory for a device should live. The pinned device may be set once:
// a second, different pinned device is a programming error (throws std::logic_error);
// setting the same one again is allowed, and ClearPinnedDevice allows a new one.
class AllocationOptions {
 public:
  void SetPinnedDevice(DeviceId device);
  void ClearPinnedDevice() { pinned_device_.reset(); }
  bool HasPinnedDevice() const { return pinned_device_.has_value(); }
  std::optional<DeviceId> pinned_device() const { return pinned_device_; }
  // The NUMA node the caller wants the memory near (std::invalid_argument if < 0).
  // InfiniRT's MallocHost takes no placement, so the layer carries it for the caller
  // (thread placement, reports) and cannot apply it to the allocation itself.
  void SetNumaNode(int node);
  void ClearNumaNode() { numa_node_.reset(); }
  std::optional<int> numa_node() const { return numa_node_; }

 private:
  std::optional<DeviceId> pinned_device_;
  std::optional<int> numa_node_;
};

class Device;
class Event;

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
  void WaitEvent(const Event &event);

 private:
  friend class Device;
  Stream(Device &device, infinirtStream_t raw) : device_(device), raw_(raw) {}
  Device &device_;
  infinirtStream_t raw_;
};

// Every method makes the event's device current for the call's duration.
class Event {
 public:
  ~Event();
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  infinirtEvent_t raw() const { return raw_; }
  Device &device() const { return device_; }
  void Record(Stream *stream);  // nullptr: the device's NULL stream
  bool Query();                 // true when complete (also when never recorded)
  void Synchronize();
  float ElapsedMsSince(const Event &start) const;

 private:
  friend class Device;
  Event(Device &device, infinirtEvent_t raw) : device_(device), raw_(raw) {}
  Device &device_;
  infinirtEvent_t raw_;
};

// Device memory (or pinned host memory) freed exactly once: on destruction or when a
// move assignment replaces it; a moved-from buffer is empty. Freed with its device
// current, with Free or FreeHost as it was allocated.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  void *data() const { return data_; }
  size_t size() const { return size_; }
  DeviceId device() const { return device_; }
  bool is_host() const { return host_; }

 private:
  friend class Device;
  DeviceBuffer(const RtApi *rt, DeviceId device, void *data, size_t size, bool host)
      : rt_(rt), device_(device), data_(data), size_(size), host_(host) {}
  void Release() noexcept;
  const RtApi *rt_ = nullptr;
  DeviceId device_;
  void *data_ = nullptr;
  size_t size_ = 0;
  bool host_ = false;
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
  // DEFAULT uses infinirtEventCreate, other flags infinirtEventCreateWithFlags.
  std::unique_ptr<Event> CreateEvent(uint32_t flags = INFINIRT_EVENT_DEFAULT);
  DeviceBuffer Allocate(size_t bytes);
  // Pinned host memory for this device; options naming another pinned device throw
  // std::invalid_argument.
  DeviceBuffer AllocatePinnedHost(size_t bytes, const AllocationOptions &options);
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

using DeviceManagerFactory = std::function<std::unique_ptr<DeviceManager>(const RtApi &, infiniDevice_t)>;

// The generic factory: a DeviceManager over InfiniRT, good for every device type.
DeviceManagerFactory InfiniRtDeviceManagerFactory();

class DeviceManagerRegistry {
 public:
  explicit DeviceManagerRegistry(const RtApi &rt) : rt_(rt) {}
  DeviceManagerRegistry(const DeviceManagerRegistry &) = delete;
  DeviceManagerRegistry &operator=(const DeviceManagerRegistry &) = delete;
  // Factories are process-wide. Every type starts with InfiniRtDeviceManagerFactory
  // (registered statically, before any use of the table); registering a type again
  // replaces its factory, for managers made after the call. A type outside
  // [0, INFINI_DEVICE_TYPE_COUNT) throws std::invalid_argument (HasFactory: false).
  static void RegisterFactory(infiniDevice_t type, DeviceManagerFactory factory);
  static void UnregisterFactory(infiniDevice_t type);
  static bool HasFactory(infiniDevice_t type);
  // The one manager of a type (made by its factory on first use); throws
  // std::invalid_argument for a type without a factory, std::logic_error when the
  // factory makes no manager or one of another type.
  DeviceManager &GetDeviceManager(infiniDevice_t type);
  Device &GetDevice(DeviceId device) { return GetDeviceManager(device.type).GetDevice(device.index); }
  const RtApi &rt() const { return rt_; }

 private:
  const RtApi &rt_;
  std::mutex mutex_;
  std::map<int, std::unique_ptr<DeviceManager>> managers_;
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
