#include "rt/synchronize_hook.h"

#include <atomic>

namespace infinicts::fault {
namespace {

std::atomic<InfinictsFaultSynchronizeHook> registered_hook{nullptr};

// The calls the hooked ones run first (the target's, or the installed fault's).
RtTable &Unhooked() {
  static RtTable calls;
  return calls;
}

void RunHook() {
  if (InfinictsFaultSynchronizeHook hook = registered_hook.load()) hook();
}

infiniStatus_t HookedStreamSynchronize(infinirtStream_t stream) {
  const infiniStatus_t status = Unhooked().infinirtStreamSynchronize(stream);
  RunHook();
  return status;
}

infiniStatus_t HookedDeviceSynchronize() {
  const infiniStatus_t status = Unhooked().infinirtDeviceSynchronize();
  RunHook();
  return status;
}

infiniStatus_t HookedEventSynchronize(infinirtEvent_t event) {
  const infiniStatus_t status = Unhooked().infinirtEventSynchronize(event);
  RunHook();
  return status;
}

}  // namespace

RtTable WithSynchronizeHook(const RtTable &calls) {
  Unhooked() = calls;
  RtTable hooked = calls;
  hooked.infinirtStreamSynchronize = &HookedStreamSynchronize;
  hooked.infinirtDeviceSynchronize = &HookedDeviceSynchronize;
  hooked.infinirtEventSynchronize = &HookedEventSynchronize;
  return hooked;
}

}  // namespace infinicts::fault

extern "C" __attribute__((visibility("default"))) void infinictsFaultSetSynchronizeHook(
    InfinictsFaultSynchronizeHook hook) {
  infinicts::fault::registered_hook.store(hook);
}
