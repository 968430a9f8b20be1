#include "rt_scoped.h"

#include "cts/case.h"

namespace infinicts::rt_cases {

using cts::rt;

CurrentDevice CurrentDevice::Get() {
  CurrentDevice device;
  if (rt().infinirtGetDevice(&device.type, &device.id) != INFINI_STATUS_SUCCESS) return CurrentDevice{};
  return device;
}

infiniStatus_t CurrentDevice::MakeCurrent() const { return rt().infinirtSetDevice(type, id); }

OnDevice::OnDevice(CurrentDevice device) : previous_(CurrentDevice::Get()) {
  if (previous_.type != device.type || previous_.id != device.id) {
    switched_ = device.MakeCurrent() == INFINI_STATUS_SUCCESS;
  }
}

OnDevice::~OnDevice() {
  if (switched_) previous_.MakeCurrent();
}

void Scoped::Reset() {
  if (handle_ == nullptr) return;
  OnDevice on_owner(owner_);
  // A case that ends early may leave work pending on this memory: let it finish first.
  if (kind_ == HandleKind::kDeviceMemory || kind_ == HandleKind::kHostMemory) rt().infinirtDeviceSynchronize();
  switch (kind_) {
    case HandleKind::kDeviceMemory: rt().infinirtFree(handle_); break;
    case HandleKind::kHostMemory: rt().infinirtFreeHost(handle_); break;
    case HandleKind::kStream: rt().infinirtStreamDestroy(handle_); break;
    case HandleKind::kEvent: rt().infinirtEventDestroy(handle_); break;
    case HandleKind::kGraph: rt().infinirtGraphDestroy(handle_); break;
    case HandleKind::kGraphExec: rt().infinirtGraphExecDestroy(handle_); break;
  }
  handle_ = nullptr;
}

}  // namespace infinicts::rt_cases
