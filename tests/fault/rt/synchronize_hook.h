// A hook the runtime wrapper runs after every synchronising call (StreamSynchronize,
// DeviceSynchronize, EventSynchronize), so that another wrapper loaded beside it (the
// operator wrapper, whose fault `returns_before_work_done` defers work to the next
// synchronize) can act at that moment. Both wrappers are loaded RTLD_LOCAL, so the other
// wrapper finds the registration function with dlopen(RTLD_NOLOAD) and dlsym.
#pragma once

#include "rt/rt_table.h"

// The exported registration function's name and type: at most one hook, NULL removes it.
#define INFINICTS_FAULT_SET_SYNCHRONIZE_HOOK "infinictsFaultSetSynchronizeHook"
using InfinictsFaultSynchronizeHook = void (*)();
using InfinictsFaultSetSynchronizeHook = void (*)(InfinictsFaultSynchronizeHook hook);

namespace infinicts::fault {

// `calls` with its synchronising calls followed by the registered hook (if any).
RtTable WithSynchronizeHook(const RtTable &calls);

}  // namespace infinicts::fault
