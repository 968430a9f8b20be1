#include "runtime/registry.h"

#include <array>

#include "cpu/cpu_runtime.h"
#ifdef INFINICTS_REF_WITH_CUDA
#include "cuda/runtime.h"
#endif

namespace infinicts::ref {
namespace {

// Initial-exec: a fixed slot instead of a __tls_get_addr call on every runtime call. The
// library is usually dlopen'ed; this keeps its few TLS bytes out of dynamic TLS, which
// LeakSanitizer's exit-time scan of live threads also trips over.
__attribute__((tls_model("initial-exec"))) thread_local CurrentDevice current_device{INFINI_DEVICE_CPU, 0};

// Built once; never destroyed, so that stream workers may outlive static destructors.
struct Table {
  std::array<DeviceRuntime *, INFINI_DEVICE_TYPE_COUNT> by_type{};
  std::array<DeviceRuntime *, INFINI_DEVICE_TYPE_COUNT + 1> present{};

  Table() {
    DeviceRuntime *const candidates[] = {&cpu::Instance()
#ifdef INFINICTS_REF_WITH_CUDA
                                         , &cuda::Instance()
#endif
    };
    size_t n = 0;
    for (DeviceRuntime *runtime : candidates) {
      if (runtime->DeviceCount() <= 0) continue;
      by_type[runtime->Type()] = runtime;
      present[n++] = runtime;
    }
  }
};

const Table &GetTable() {
  static const Table *table = new Table();
  return *table;
}

}  // namespace

DeviceRuntime *RuntimeFor(infiniDevice_t type) {
  if (type < 0 || type >= INFINI_DEVICE_TYPE_COUNT) return nullptr;
  return GetTable().by_type[type];
}

DeviceRuntime *const *AllRuntimes() { return GetTable().present.data(); }

CurrentDevice GetCurrentDevice() { return current_device; }

void SetCurrentDevice(CurrentDevice device) { current_device = device; }

}  // namespace infinicts::ref
