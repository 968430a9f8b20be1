// Ends the process with streams still alive: some idle, one busy, one blocked for good,
// after the library was dlopen'ed (as the harness does) and dlclose'd again.
// The process must exit 0, promptly, without a crash. Run by ctest with a timeout.
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "infinicts_ref/runtime_internal.h"
#include "infinirt.h"

namespace {

template <typename Function>
Function Resolve(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (symbol == nullptr) {
    std::fprintf(stderr, "exit_probe: %s not exported\n", name);
    std::exit(2);
  }
  return reinterpret_cast<Function>(symbol);
}

void SleepForever(void *) {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

void SleepBriefly(void *) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

}  // namespace

int main() {
  void *library = dlopen(INFINIRT_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "exit_probe: %s\n", dlerror());
    return 2;
  }
  auto stream_create = Resolve<decltype(&infinirtStreamCreate)>(library, "infinirtStreamCreate");
  auto enqueue = Resolve<decltype(&infinictsRefStreamEnqueue)>(library, "infinictsRefStreamEnqueue");
  auto malloc_device = Resolve<decltype(&infinirtMalloc)>(library, "infinirtMalloc");
  auto memset_async = Resolve<decltype(&infinirtMemsetAsync)>(library, "infinirtMemsetAsync");

  infinirtStream_t idle = nullptr, busy = nullptr, blocked = nullptr;
  void *device = nullptr, *other = nullptr;
  if (stream_create(&idle) != INFINI_STATUS_SUCCESS || stream_create(&busy) != INFINI_STATUS_SUCCESS ||
      stream_create(&blocked) != INFINI_STATUS_SUCCESS || malloc_device(&device, 1 << 20) != INFINI_STATUS_SUCCESS ||
      malloc_device(&other, 1 << 20) != INFINI_STATUS_SUCCESS) {
    return 3;
  }
  for (int i = 0; i < 100; ++i) {
    enqueue(busy, SleepBriefly, nullptr);
    memset_async(device, i, 1 << 20, busy);
  }
  enqueue(blocked, SleepForever, nullptr);
  memset_async(other, 1, 1 << 20, nullptr);  // the default stream exists too
  // Idle workers sleep on their condition variables when the process ends.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  dlclose(library);
  return 0;
}
