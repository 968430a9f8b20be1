// The runtime faults the wrapper can inject, each registered by its own file (INFINICTS_FAULT
// beside its installer).
#pragma once

#include <vector>

#include "common/fault_registry.h"
#include "rt/rt_table.h"

namespace infinicts::fault {

using RtFault = Fault<RtTable>;
const std::vector<RtFault> &RtFaults();

// stream_create_null's installer also takes backend_behaviours.cc's StreamDestroy.
void InstallStreamDestroyAcceptingNull(RtTable &calls);

}  // namespace infinicts::fault
