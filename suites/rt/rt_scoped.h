// Owners of runtime handles a case made, so an assertion that ends a case early
// still returns device memory, streams and events. Each remembers the device that
// was current when it took ownership and releases there (memory after a
// DeviceSynchronize, so work a failed case left pending never touches freed memory);
// release failures are ignored (the case that made the handle checks the calls it
// cares about).
#pragma once

#include "cts/case.h"
#include "infinirt.h"

namespace infinicts::rt_cases {

// The calling thread's current device, for saving and restoring around a release.
struct CurrentDevice {
  infiniDevice_t type = INFINI_DEVICE_CPU;
  int id = 0;
  static CurrentDevice Get();  // (CPU, 0) when the backend cannot answer
  infiniStatus_t MakeCurrent() const;
};

// Makes `device` current for a scope and restores the previous one afterwards.
class OnDevice {
 public:
  explicit OnDevice(CurrentDevice device);
  ~OnDevice();
  OnDevice(const OnDevice &) = delete;
  OnDevice &operator=(const OnDevice &) = delete;

 private:
  CurrentDevice previous_;
  bool switched_ = false;
};

// For a case that needs a stream of its own (to capture it: the NULL stream cannot be captured):
// skipped where StreamCreate hands out the NULL stream, which RT-STREAM-10 only recommends against.
#define RT_REQUIRE_CREATED_STREAM(raw)                                                                   \
  do {                                                                                                  \
    if ((raw) == nullptr)                                                                               \
      GTEST_SKIP() << "needs a stream of its own, and infinirtStreamCreate hands out the NULL stream only"; \
  } while (0)

enum class HandleKind { kDeviceMemory, kHostMemory, kStream, kEvent, kGraph, kGraphExec };

class Scoped {
 public:
  Scoped(HandleKind kind, void *handle) : kind_(kind), handle_(handle), owner_(CurrentDevice::Get()) {}
  ~Scoped() { Reset(); }
  Scoped(const Scoped &) = delete;
  Scoped &operator=(const Scoped &) = delete;

  void *get() const { return handle_; }
  // Gives the handle up without releasing it (the case releases it itself).
  void *Release() {
    void *handle = handle_;
    handle_ = nullptr;
    return handle;
  }
  void Reset();

 private:
  HandleKind kind_;
  void *handle_;
  CurrentDevice owner_;
};

struct ScopedDeviceMemory : Scoped {
  explicit ScopedDeviceMemory(void *p) : Scoped(HandleKind::kDeviceMemory, p) {}
};
struct ScopedHostMemory : Scoped {
  explicit ScopedHostMemory(void *p) : Scoped(HandleKind::kHostMemory, p) {}
};
struct ScopedStream : Scoped {
  explicit ScopedStream(infinirtStream_t s) : Scoped(HandleKind::kStream, s) {}
};
struct ScopedEvent : Scoped {
  explicit ScopedEvent(infinirtEvent_t e) : Scoped(HandleKind::kEvent, e) {}
};
struct ScopedGraph : Scoped {
  explicit ScopedGraph(infinirtGraph_t g) : Scoped(HandleKind::kGraph, g) {}
};
struct ScopedGraphExec : Scoped {
  explicit ScopedGraphExec(infinirtGraphExec_t e) : Scoped(HandleKind::kGraphExec, e) {}
};

}  // namespace infinicts::rt_cases

// An allocation a case makes (`call`: Malloc, MallocAsync or MallocHost into `pointer`), checked
// as CTS_ASSERT_OK checks a call, and a NULL pointer for `bytes` > 0 the same way: the case ends
// blocked by RT-MEM-2 (RT-MEM-6, RT-MEM-20) unless it checks that clause itself.
#define RT_ASSERT_ALLOCATED(call, pointer, bytes)                                                      \
  do {                                                                                                 \
    CTS_ASSERT_OK(call);                                                                               \
    CTS_ASSERT_GAVE_AS((pointer) == nullptr && (bytes) > 0, std::string(#call),                        \
                       "a NULL pointer for " << (bytes) << " bytes");                                  \
  } while (0)
